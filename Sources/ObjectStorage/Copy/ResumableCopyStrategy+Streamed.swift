//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorageCheckpoint
import ObjectStorageSigning
import Synchronization

/// A copy from another endpoint or account, streamed through this process: each part is a ranged GET of the
/// source pinned to its ETag (`If-Match`), never the whole object in memory or on disk.
///
/// By default a part's bytes go from the GET straight into its UploadPart as they arrive, so a part holds no more
/// memory than the few chunks in flight, whatever its size; a failure of either request sends the part again from
/// a new GET. With ``TransferOptions/enableMD5Check`` a part is read whole first (at most
/// ``TransferOptions/concurrency`` parts in memory), to send its `Content-MD5`.
///
/// End to end, the bytes read are checked where the services allow: against the source's CRC-64 (OSS, OBS); per
/// part by the destination, through its `Content-MD5`, or else by comparing the part's ETag with the MD5 of the
/// bytes sent (when the destination does not encrypt it with KMS or a customer's key) and OSS's CRC-64 of the part;
/// and against the destination's CRC-64 of the whole object (OSS).
extension ResumableCopyStrategy {
    /// Reads a range of the source and sends it as part `number`.
    func streamPart(
        _ number: Int,
        range: Range<Int64>,
        of checkpoint: UploadCheckpoint,
        reporter: TransferProgressReporter
    ) async throws -> UploadCheckpoint.UploadedPart {
        let size = range.upperBound - range.lowerBound
        guard request.options.enableMD5Check else {
            let pinned = checkpoint.copySource?.etag
            let (part, digest) = try await pipe(range, pinnedTo: pinned, into: number, of: checkpoint)
            reporter.add(size)
            return UploadCheckpoint.UploadedPart(number: number, etag: part.etag, size: size, crc64: digest.crc64)
        }
        let bytes = try await read(range, pinnedTo: checkpoint.copySource?.etag)
        defer { partBuffers.give(bytes) }
        let digest = PartDigest.of(bytes)
        let part = try await client.uploadPart(
            bucket: request.bucket,
            key: request.key,
            uploadID: checkpoint.uploadId,
            partNumber: number,
            body: .bytes(bytes),
            contentMD5: digest.md5Base64,
            logger: logger
        )
        try Self.check(digest.crc64, against: part.crc64, side: "UploadPart \(number)")
        reporter.add(size)
        return UploadCheckpoint.UploadedPart(
            number: number,
            etag: part.etag,
            size: size,
            crc64: digest.crc64,
            md5: digest.md5Base64
        )
    }

    /// Reads `range` of the source (pinned to `etag`) and sends its bytes as part `number` while they arrive.
    ///
    /// The GET and the UploadPart are one request of the request path: a streamed body cannot be sent twice, so
    /// each attempt of the UploadPart reads the range anew (one GET, not retried on its own), and checks what it
    /// sent against what the destination reports.
    ///
    /// - Throws: ``ObjectStorageError/Code/integrityMismatch`` when the part's ETag is an MD5 other than the bytes'
    ///   (after the retries); ``ObjectStorageError/Code/invalidResponse`` when the source answers with another
    ///   length than the range's; ``ServiceError``, transport errors.
    private func pipe(
        _ range: Range<Int64>,
        pinnedTo etag: String?,
        into number: Int,
        of checkpoint: UploadCheckpoint
    ) async throws -> (CompletedPart, PartDigest.Value) {
        let size = range.upperBound - range.lowerBound
        var get = GetObjectRequest(bucket: request.sourceBucket, key: request.sourceKey)
        get.versionID = request.sourceVersionID
        get.range = .bytes(range.lowerBound...(range.upperBound - 1))
        get.ifMatch = etag
        let operation = try client.uploadPartOperation(
            bucket: request.bucket,
            key: request.key,
            uploadID: checkpoint.uploadId,
            partNumber: number,
            body: .empty,
            contentMD5: nil,
            checksum: nil
        )
        // The digest of the bytes the current attempt sends.
        let current = Mutex(PartDigest())
        return try await client.send(
            operation,
            logger: logger,
            prepare: { [sourceClient, logger] operation, _ in
                let source = try await sourceClient.send(sourceClient.getOperation(get), logger: logger, retries: false)
                {
                    try sourceClient.getResponse($0, ranged: true)
                }
                guard source.attributes.contentLength == size else {
                    throw ObjectStorageError.invalidResponse(
                        "GetObject of the copy source answered \(source.attributes.contentLength.map(String.init) ?? "no") "
                            + "Content-Length for a range of \(size) bytes"
                    )
                }
                let digest = PartDigest()
                current.withLock { $0 = digest }
                operation.body = .stream(ChecksummingSequence(base: source.body, observe: digest.update), length: size)
            },
            read: { response in
                let part = try ObjectStorageClient.completedPart(number, from: response)
                let sent = current.withLock { $0 }.value
                guard sent.count == size else {
                    throw ObjectStorageError.invalidResponse(
                        "GetObject of the copy source returned \(sent.count) bytes for a range of \(size)"
                    )
                }
                if request.options.verifiesIntegrity, ETagDigest.encryption(in: response.headers) == nil,
                    let stored = ETagDigest.md5(part.etag), stored != sent.md5
                {
                    throw ObjectStorageError.integrityMismatch(
                        checksum: "MD5",
                        expected: sent.md5,
                        actual: stored,
                        operation: "UploadPart \(number)"
                    )
                }
                return (part, sent)
            }
        )
    }

    /// Completes a streamed copy: the CRC-64 of every byte read (combined from the parts) must equal the
    /// source's, when its service reports one, and the destination's.
    func completeStreamed(_ finished: UploadCheckpoint, sourceCRC64: UInt64?) async throws -> TransferCompletion {
        let combined = finished.combinedCRC64()
        if request.options.verifiesIntegrity, let combined {
            try Self.check(combined, against: sourceCRC64, side: "the copy source")
        }
        var completion = try await client.completeUpload(
            finished,
            checkpointPath: checkpointPath,
            store: store,
            expectedCRC64: combined,
            condition: request.options.writeCondition,
            verify: request.options.verifiesIntegrity,
            logger: logger
        )
        if case .none = completion.verification, request.options.verifiesIntegrity, sourceCRC64 != nil,
            let combined
        {
            completion.verification = .crc64(combined)
        }
        completion.contentMD5Verified = finished.parts.allSatisfy { $0.md5 != nil }
        return completion
    }

    /// Copies a source no larger than one part with one GET and one PUT.
    func streamWhole(
        size: Int64,
        etag: String,
        attributes: UploadAttributes,
        head: ObjectAttributes
    ) async throws -> TransferResult {
        let reporter = TransferProgressReporter(totalBytes: size, resumedBytes: 0, handler: progress)
        reporter.begin()
        let bytes = try await read(0..<size, pinnedTo: etag)
        let digest = PartDigest.of(bytes)
        let sourceCRC64 = head.crc64
        if request.options.verifiesIntegrity {
            try Self.check(digest.crc64, against: sourceCRC64, side: "the copy source")
        }
        var put = PutObjectRequest(
            bucket: request.bucket,
            key: request.key,
            body: .bytes(bytes),
            attributes: attributes
        )
        put.contentMD5 = digest.md5Base64
        put.condition = request.options.writeCondition
        let written = try await client.putObject(put, logger: logger)
        if request.options.verifiesIntegrity { try Self.check(digest.crc64, against: written.crc64, side: "PutObject") }
        reporter.add(size)
        reporter.finish()
        let checked = request.options.verifiesIntegrity && (sourceCRC64 != nil || written.crc64 != nil)
        return TransferResult(
            singleRequest: written,
            size: size,
            verification: checked ? .crc64(digest.crc64) : .none(reason: "neither service reports a CRC-64"),
            contentMD5Verified: true
        )
    }

    /// The source's bytes in `range`, read while its ETag is `etag` (a replaced source fails with
    /// `PreconditionFailed`, which restarts the copy).
    private func read(_ range: Range<Int64>, pinnedTo etag: String?) async throws -> ByteBuffer {
        let size = range.upperBound - range.lowerBound
        guard size > 0 else { return ByteBuffer() }
        var get = GetObjectRequest(bucket: request.sourceBucket, key: request.sourceKey)
        get.versionID = request.sourceVersionID
        get.range = .bytes(range.lowerBound...(range.upperBound - 1))
        get.ifMatch = etag
        let response = try await sourceClient.getObject(get, logger: logger)
        // Room for the whole part at once: a buffer grown chunk by chunk doubles its capacity, briefly holding both.
        var bytes = partBuffers.take(capacity: Int(size))
        for try await var chunk in response.body {
            guard bytes.readableBytes + chunk.readableBytes <= size else { break }
            bytes.writeBuffer(&chunk)
        }
        guard bytes.readableBytes == size else {
            throw ObjectStorageError.invalidResponse(
                "GetObject of the copy source returned \(bytes.readableBytes) bytes for a range of \(size)"
            )
        }
        return bytes
    }

    /// Throws `integrityMismatch` when a service reported a CRC-64 other than the bytes'.
    private static func check(_ computed: UInt64, against reported: UInt64?, side: String) throws {
        guard let reported, reported != computed else { return }
        throw ObjectStorageError.integrityMismatch(
            checksum: "CRC-64/XZ",
            expected: String(reported),
            actual: String(computed),
            operation: side
        )
    }
}
