//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorageSigning

/// Checks an object's body, as its bytes pass, against what was promised about it: no more bytes than promised
/// (it fails at the first byte too many, so a body far larger than its listing never fills a disk), exactly that
/// many at the end, and a digest of the whole object.
///
/// The digest is the strongest the answer offers for a whole object (a `200` to an unranged GET): the service's
/// CRC-64/XZ (OSS, and OBS for an object whose upload sent one), else S3's full-object CRC-64/NVME, else — when
/// asked for, as a file download asks — the MD5 that a plain ETag is (not for an object encrypted with KMS or a
/// customer's key, whose ETag is no MD5).
struct ResponseBodyCheck: Sendable {
    private enum Digest: Sendable {
        case crc64(CRC64, expected: UInt64)
        case md5(Hashing.MD5, expected: String)
    }

    private var digest: Digest?
    /// The byte count promised, when one was.
    private let expectedLength: Int64?
    /// Where the promise came from, for the message (`the answer's Content-Length`, `the listing`).
    private let lengthSource: String
    private var received: Int64 = 0
    private let operation: String

    /// Whether there is anything to check.
    var isEmpty: Bool { self.digest == nil && self.expectedLength == nil }

    /// The check of an answer's body.
    ///
    /// - Parameters:
    ///   - headers: The answer's headers.
    ///   - isWholeObject: Whether the body is the whole object (an unranged `200`): digests cover only that.
    ///   - verifiesETag: Whether a plain MD5 ETag is checked when the service sends no CRC-64.
    ///   - listedSize: The size a listing gave, which the body must have.
    ///   - operation: The operation, for the message.
    /// - Throws: ``ObjectStorageError/Code/integrityMismatch`` at once when the answer's `Content-Length`
    ///   contradicts `listedSize`.
    init(
        headers: HTTPHeaders,
        isWholeObject: Bool,
        verifiesETag: Bool,
        listedSize: Int64? = nil,
        operation: String
    ) throws(ObjectStorageError) {
        self.operation = operation
        let contentLength = headers.first(name: "Content-Length").flatMap { Int64($0) }
        if let listedSize {
            if let contentLength, contentLength != listedSize {
                throw ObjectStorageError(
                    code: .integrityMismatch,
                    message: "\(operation) answered \(contentLength) bytes for an object listed at \(listedSize) bytes"
                )
            }
            (self.expectedLength, self.lengthSource) = (listedSize, "listed at")
        } else {
            (self.expectedLength, self.lengthSource) = (contentLength, "announced as")
        }
        guard isWholeObject else { return }
        if let crc = Integrity.reportedCRC64(in: headers) {
            self.digest = .crc64(CRC64(.xz), expected: crc)
        } else if let nvme = S3Checksum.fullObjectValue(in: headers) {
            self.digest = .crc64(CRC64(.nvme), expected: nvme)
        } else if verifiesETag, ETagDigest.encryption(in: headers) == nil,
            let md5 = ETagDigest.md5(headers.first(name: "ETag"))
        {
            self.digest = .md5(Hashing.MD5(), expected: md5)
        }
    }

    /// Counts and digests the next bytes.
    ///
    /// - Throws: ``ObjectStorageError/Code/integrityMismatch`` when they go past the promised length.
    mutating func update(_ bytes: UnsafeRawBufferPointer) throws(ObjectStorageError) {
        self.received += Int64(bytes.count)
        if let expected = self.expectedLength, self.received > expected {
            throw ObjectStorageError(
                code: .integrityMismatch,
                message: "\(self.operation) sent more than the \(expected) bytes the object was \(self.lengthSource)"
            )
        }
        switch self.digest {
        case .crc64(var crc, let expected)?:
            self.digest = nil
            crc.update(bufferPointer: bytes)
            self.digest = .crc64(crc, expected: expected)
        case .md5(var md5, let expected)?:
            self.digest = nil
            md5.update(bufferPointer: bytes)
            self.digest = .md5(md5, expected: expected)
        case nil:
            break
        }
    }

    /// Checks the length and the digest once the body has ended.
    ///
    /// - Returns: What was verified, when a digest was.
    /// - Throws: ``ObjectStorageError/Code/integrityMismatch`` for a short body or a digest that differs.
    @discardableResult
    mutating func finish() throws(ObjectStorageError) -> TransferResult.Verification? {
        if let expected = self.expectedLength, self.received != expected {
            throw ObjectStorageError(
                code: .integrityMismatch,
                message: "\(self.operation) sent \(self.received) bytes of an object \(self.lengthSource) \(expected)"
            )
        }
        switch self.digest {
        case .crc64(let crc, let expected)?:
            let nvme = crc.polynomial == .nvme
            guard crc.value == expected else {
                throw .integrityMismatch(
                    checksum: nvme ? "CRC-64/NVME" : "CRC-64/XZ",
                    expected: nvme ? CRC64.base64(expected) : String(expected),
                    actual: nvme ? CRC64.base64(crc.value) : String(crc.value),
                    operation: self.operation
                )
            }
            return nvme ? .crc64NVME(crc.value) : .crc64(crc.value)
        case .md5(let md5, let expected)?:
            let computed = ByteEncoding.hex(md5.finalize())
            guard computed == expected else {
                throw .integrityMismatch(
                    checksum: "MD5",
                    expected: expected,
                    actual: computed,
                    operation: self.operation
                )
            }
            return .md5(computed)
        case nil:
            return nil
        }
    }
}
