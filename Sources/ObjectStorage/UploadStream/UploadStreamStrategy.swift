//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import ObjectStorageSigning

/// One call of ``ObjectStorageClient/uploadStream(_:bucket:key:attributes:options:logger:progress:)``: a stream
/// that ends within the first part goes up as one PUT; a longer one as a multipart upload whose parts are cut from
/// the stream in order and sent `concurrency` at a time. The reader waits while `concurrency` parts are in memory
/// (assembled or in flight), so memory stays within `concurrency × partSize` plus one chunk of the stream.
///
/// With ``TransferOptions/integrityCheck`` on, each part (or the single PUT) carries the vendor's checksum
/// (``SentChecksum``: S3's CRC-64/NVME, OBS's CRC-64), computed from the part in memory, for the service to check;
/// the completion carries the object's, combined from the parts'. Over HTTPS that checksum stands in for the
/// SigV4 payload hash (``PreparedBody/signsPayload(of:endpoint:)``).
struct UploadStreamStrategy: Sendable {
    let client: ObjectStorageClient
    let bucket: String
    let key: String
    let attributes: UploadAttributes
    let options: TransferOptions
    /// The part size, clamped to the vendor's limits.
    let partSize: Int64
    /// The most parts the upload may have (10,000; lower in tests).
    let maximumPartCount: Int
    let reporter: TransferProgressReporter
    let logger: Logger
    /// The checksum each request carries for the service to check; `nil` for OSS (which reports its own CRC-64)
    /// and with the integrity check off.
    let sentChecksum: SentChecksum.Kind?

    /// One acknowledged part.
    struct SentPart: Sendable {
        var part: CompletedPart
        var size: Int64
        /// The part's CRC-64 by ``sentChecksum``'s polynomial, as sent.
        var sentCRC: UInt64?
    }

    init(
        client: ObjectStorageClient,
        bucket: String,
        key: String,
        attributes: UploadAttributes,
        options: TransferOptions,
        maximumPartCount: Int,
        progress: TransferProgressHandler?,
        logger: Logger
    ) throws(ObjectStorageError) {
        let plan = try UploadPartSizing.plan(
            fileSize: 0,
            requestedPartSize: options.partSize,
            vendor: client.configuration.vendor
        )
        if let requested = plan.clampedFrom {
            logger.warning(
                "part size \(requested) is outside \(client.configuration.vendor)'s limits; using \(plan.partSize)",
                metadata: ["os.part_size": "\(plan.partSize)"]
            )
        }
        self.client = client
        self.bucket = bucket
        self.key = key
        self.attributes = attributes
        self.options = options
        self.partSize = plan.partSize
        self.maximumPartCount = maximumPartCount
        self.reporter = TransferProgressReporter(unknownTotalWith: progress)
        self.logger = logger
        self.sentChecksum = options.verifiesIntegrity ? SentChecksum.Kind.of(client.configuration.vendor) : nil
    }

    /// Uploads the stream.
    ///
    /// - Returns: The result; `filePath` is empty.
    /// - Throws: What the stream throws, ``ServiceError``, transport errors, ``ObjectStorageError``
    ///   (`invalidArgument` when the stream outgrows `maximumPartCount` parts), `CancellationError`.
    func run<Bytes: AsyncSequence>(_ bytes: Bytes) async throws -> TransferResult where Bytes.Element == ByteBuffer {
        let reporter = self.reporter
        var reader = StreamPartReader(bytes.makeAsyncIterator(), partSize: Int(partSize)) { reporter.read(Int64($0)) }
        reporter.begin()
        // Every part is held by one variable at a time, so that a sent part is freed as soon as its request ends.
        var first: ByteBuffer? = try await reader.nextPart() ?? ByteBuffer()
        let atEnd = try await reader.isAtEnd()
        if atEnd, let whole = first, !options.forceMultipart || whole.readableBytes == 0 {
            first = nil
            return try await putWhole(whole)
        }
        let uploadID = try await client.createMultipartUpload(
            bucket: bucket,
            key: key,
            attributes: attributes,
            fullObjectCRC64NVME: sentChecksum == .s3CRC64NVME,
            condition: options.writeCondition,
            logger: logger
        )
        logger.debug("stream upload started", metadata: ["os.upload_id": "\(uploadID)"])
        do {
            let parts = try await sendParts(first: &first, rest: &reader, uploadID: uploadID)
            return try await complete(parts, uploadID: uploadID)
        } catch {
            await client.abortUploadQuietly(bucket: bucket, key: key, uploadID: uploadID, logger: logger)
            throw error
        }
    }

    // MARK: Single PUT

    private func putWhole(_ body: ByteBuffer) async throws -> TransferResult {
        try Task.checkCancellation()
        var put = PutObjectRequest(bucket: bucket, key: key, body: .bytes(body), attributes: attributes)
        put.computesContentMD5 = options.enableMD5Check
        put.condition = options.writeCondition
        put.checksum = checksum(of: body)
        let response = try await client.putObject(put, logger: logger)
        let size = Int64(body.readableBytes)
        reporter.add(size)
        reporter.finish(totalBytes: size)
        return TransferResult(
            singleRequest: response,
            size: size,
            // OSS's CRC-64 the client checked against the bytes sent, or the checksum sent that the service checked.
            verification: UploadFileStrategy.verification(of: response, sent: put.checksum),
            contentMD5Verified: options.enableMD5Check
        )
    }

    // MARK: Multipart

    /// Sends `first` (taken out of the variable) and every further part of the stream, with at most
    /// `concurrency` parts in memory at a time.
    ///
    /// - Returns: The acknowledged parts, in part-number order.
    private func sendParts<Source>(
        first: inout ByteBuffer?,
        rest reader: inout StreamPartReader<Source>,
        uploadID: String
    ) async throws -> [SentPart] {
        var next = first
        first = nil
        return try await withThrowingTaskGroup(of: SentPart.self) { group in
            var sent: [SentPart] = []
            var inFlight = 0
            var number = 0
            while next != nil {
                guard number < maximumPartCount else { throw tooLong() }
                number += 1
                if let part = next {
                    next = nil
                    let partNumber = number
                    group.addTask { try await self.send(part, number: partNumber, uploadID: uploadID) }
                }
                inFlight += 1
                if inFlight >= options.concurrency, let done = try await group.next() {
                    sent.append(done)
                    inFlight -= 1
                }
                next = try await reader.nextPart()
            }
            while let done = try await group.next() { sent.append(done) }
            return sent.sorted { $0.part.partNumber < $1.part.partNumber }
        }
    }

    /// The checksum `bytes` carry for the service to check, if the upload sends one.
    private func checksum(of bytes: ByteBuffer) -> SentChecksum? {
        sentChecksum.map { kind in
            SentChecksum(kind: kind, value: CRC64.checksum(bytes.readableBytesView, polynomial: kind.polynomial))
        }
    }

    /// Sends one part, with its `Content-MD5` when asked and its checksum (OSS checks its CRC-64 against the bytes
    /// sent).
    private func send(_ part: ByteBuffer, number: Int, uploadID: String) async throws -> SentPart {
        let md5 = options.enableMD5Check ? ByteEncoding.base64(Hashing.MD5.hash(part.readableBytesView)) : nil
        let checksum = checksum(of: part)
        let operation = try client.uploadPartOperation(
            bucket: bucket,
            key: key,
            uploadID: uploadID,
            partNumber: number,
            body: .bytes(part),
            contentMD5: md5,
            checksum: checksum
        )
        let completed = try await client.send(operation, logger: logger) {
            try ObjectStorageClient.completedPart(number, from: $0)
        }
        let size = Int64(part.readableBytes)
        reporter.add(size)
        return SentPart(part: completed, size: size, sentCRC: checksum?.value)
    }

    /// Completes the upload and compares the object's CRC-64, when the service reports one, with the parts'.
    private func complete(_ parts: [SentPart], uploadID: String) async throws -> TransferResult {
        try Task.checkCancellation()
        let checksum = Self.objectChecksum(parts, kind: sentChecksum)
        let (completed, reportedChecksum) = try await client.completeMultipartUpload(
            bucket: bucket,
            key: key,
            uploadID: uploadID,
            parts: parts.map(\.part),
            checksum: checksum,
            condition: options.writeCondition,
            logger: logger
        )
        let size = parts.reduce(0) { $0 + $1.size }
        let verification = try TransferResult.Verification.completedUpload(
            reported: completed.crc64,
            expected: CRC64.combine(parts.lazy.map { ($0.part.crc64, $0.size) }),
            sent: checksum?.object,
            reportedChecksum: reportedChecksum,
            verify: options.verifiesIntegrity
        )
        reporter.finish(totalBytes: size)
        return TransferResult(
            filePath: "",
            etag: completed.etag,
            versionID: completed.versionID,
            crc64: completed.crc64,
            objectSize: size,
            range: 0..<size,
            bytesTransferred: size,
            bytesReused: 0,
            partSize: partSize,
            partCount: parts.count,
            partsTransferred: parts.count,
            partsReused: 0,
            isMultipart: true,
            restarts: 0,
            verification: verification,
            contentMD5Verified: options.enableMD5Check
        )
    }

    /// The object's checksum combined from the checksums the parts were sent with, and each part's; `nil` when the
    /// upload sends none.
    static func objectChecksum(
        _ parts: [SentPart],
        kind: SentChecksum.Kind?
    ) -> (object: SentChecksum, parts: [Int: UInt64])? {
        guard let kind,
            let combined = CRC64.combine(parts.lazy.map { ($0.sentCRC, $0.size) }, polynomial: kind.polynomial)
        else { return nil }
        let each = parts.compactMap { sent in sent.sentCRC.map { (sent.part.partNumber, $0) } }
        return (SentChecksum(kind: kind, value: combined), Dictionary(each, uniquingKeysWith: { first, _ in first }))
    }

    /// The error for a stream longer than `maximumPartCount` parts, thrown before the part past the last is sent.
    private func tooLong() -> ObjectStorageError {
        let (most, overflow) = partSize.multipliedReportingOverflow(by: Int64(maximumPartCount))
        return .invalidArgument(
            "the stream is longer than \(maximumPartCount) parts of \(partSize) bytes"
                + (overflow ? "" : " (\(most) bytes)")
                + "; the upload was aborted: pass a larger part size"
        )
    }
}
