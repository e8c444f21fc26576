//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning
import ObjectStorageTransport

/// A request body made ready for an attempt: its length resolved, its checksum computed once when it is in
/// memory.
struct PreparedBody: Sendable {
    let body: UploadBody?
    let inMemoryCRC: UInt64?
    let sha256: PayloadHash?
    let tracksCRC: Bool

    /// - Parameters:
    ///   - operation: The request whose body this is; `nil` for no body.
    ///   - configuration: The client's configuration.
    ///   - checksCRC: Whether OSS's CRC-64 of the body is compared with what the service reports.
    init(
        for operation: OperationRequest?,
        configuration: ObjectStorageClient.Configuration,
        checksCRC: Bool = true
    ) throws {
        let resolved = try operation?.body?.resolved()
        self.body = resolved
        self.tracksCRC = checksCRC && configuration.isOSS && resolved != nil
        if let bytes = resolved?.inMemoryBytes {
            self.inMemoryCRC = self.tracksCRC ? CRC64.checksum(bytes.readableBytesView) : nil
            self.sha256 =
                configuration.signatureVersion == .sigV4
                ? (Self.signsPayload(of: operation, endpoint: configuration.endpoint)
                    ? .sha256(of: bytes.readableBytesView) : .unsigned) : nil
        } else {
            self.inMemoryCRC = nil
            self.sha256 = resolved == nil && configuration.signatureVersion == .sigV4 ? .emptySHA256 : nil
        }
    }

    var isReplayable: Bool { self.body?.isReplayable ?? true }

    /// Whether a SigV4 request's in-memory body is sent with its SHA-256 signed: always over plain HTTP, where the
    /// signature is what keeps the bytes from being changed on the way; over HTTPS only when the request carries no
    /// checksum the service checks (`Content-MD5`, or ``OperationRequest/sentChecksum``), as botocore decides. TLS
    /// then guards the bytes on the way and the checksum guards them end to end, and the SHA-256 (a read of the
    /// whole body, three times a CRC-64's cost) is not computed.
    static func signsPayload(of operation: OperationRequest?, endpoint: Endpoint) -> Bool {
        guard endpoint.scheme == "https", let operation else { return true }
        let checked =
            operation.sentChecksum != nil
            || operation.headers.contains { asciiCaseInsensitiveEquals($0.name, "Content-MD5") }
        return !checked
    }

    func payloadHash(for version: SignatureVersion) -> PayloadHash {
        version == .sigV4 ? (self.sha256 ?? .unsigned) : .unsigned
    }

    /// The body for one attempt, and how to read the CRC of what it sent.
    func makeAttemptBody() -> (TransportRequest.Body?, (@Sendable () -> UInt64)?) {
        guard let body = self.body else { return (nil, nil) }
        switch body.storage {
        case .bytes(let buffer):
            guard let crc = self.inMemoryCRC else { return (.bytes(buffer), nil) }
            let read: @Sendable () -> UInt64 = { crc }
            return (.bytes(buffer), read)
        case .file(let path, let offset, let length):
            let file = TransportRequest.Body.file(path: path, offset: offset, length: length ?? 0)
            return self.tracking(file, length: length ?? 0)
        case .stream(let stream):
            return self.tracking(stream, length: stream.length)
        }
    }

    private func tracking(
        _ body: TransportRequest.Body,
        length: Int64?
    ) -> (TransportRequest.Body?, (@Sendable () -> UInt64)?) {
        guard self.tracksCRC else { return (body, nil) }
        let accumulator = CRC64Accumulator()
        let wrapped = TransportRequest.Body.stream(
            ChecksummingSequence(base: body, observe: accumulator.update),
            length: length
        )
        return (wrapped, { accumulator.value })
    }
}
