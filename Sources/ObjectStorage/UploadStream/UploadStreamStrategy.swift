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

    /// One acknowledged part.
    struct SentPart: Sendable {
        var part: CompletedPart
        var size: Int64
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
            fullObjectCRC64NVME: false,
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
        let response = try await client.putObject(put, logger: logger)
        let size = Int64(body.readableBytes)
        reporter.add(size)
        reporter.finish(totalBytes: size)
        return TransferResult(
            singleRequest: response,
            size: size,
            // The client checked the bytes it sent against the CRC-64 the service reported for the PUT.
            verification: response.crc64.map { .crc64($0) } ?? .none(reason: "the service reports no CRC-64"),
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

    /// Sends one part, with its `Content-MD5` when asked (OSS checks its CRC-64 against the bytes sent).
    private func send(_ part: ByteBuffer, number: Int, uploadID: String) async throws -> SentPart {
        let md5 = options.enableMD5Check ? ByteEncoding.base64(Hashing.MD5.hash(part.readableBytesView)) : nil
        let completed = try await client.uploadPart(
            bucket: bucket,
            key: key,
            uploadID: uploadID,
            partNumber: number,
            body: .bytes(part),
            contentMD5: md5,
            logger: logger
        )
        let size = Int64(part.readableBytes)
        reporter.add(size)
        return SentPart(part: completed, size: size)
    }

    /// Completes the upload and compares the object's CRC-64, when the service reports one, with the parts'.
    private func complete(_ parts: [SentPart], uploadID: String) async throws -> TransferResult {
        try Task.checkCancellation()
        let completed = try await client.completeMultipartUpload(
            bucket: bucket,
            key: key,
            uploadID: uploadID,
            parts: parts.map(\.part),
            condition: options.writeCondition,
            logger: logger
        )
        let size = parts.reduce(0) { $0 + $1.size }
        let verification = try TransferResult.Verification.completedUpload(
            reported: completed.crc64,
            expected: Self.combinedCRC64(parts),
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

    /// The whole object's CRC-64 combined from the parts' in order, or `nil` when a part has none.
    static func combinedCRC64(_ parts: [SentPart]) -> UInt64? {
        var combined: UInt64 = 0
        for sent in parts {
            guard let crc = sent.part.crc64 else { return nil }
            combined = CRC64.combine(combined, crc, lengthOfSecond: UInt64(sent.size))
        }
        return combined
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
