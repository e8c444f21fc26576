//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
public import NIOCore

extension ObjectStorageClient {
    /// Uploads a stream of unknown length (a pipe, a request body being proxied, a compressor's output) with
    /// bounded memory: the stream's sibling of
    /// ``uploadFile(from:bucket:key:attributes:options:logger:progress:)``, with the same options and result.
    ///
    /// - A stream that ends within the first part goes up as a single PUT (unless
    ///   ``TransferOptions/forceMultipart``); an empty stream makes an empty object. A longer one as a multipart upload with parts of ``TransferOptions/partSize`` (clamped to the
    ///   vendor's limits), ``TransferOptions/concurrency`` at a time, in the order the stream gives them.
    /// - Memory: each part is assembled into one buffer and handed to an uploader; the stream is not read while
    ///   `concurrency` parts are in memory, so at most `concurrency × partSize` bytes are held, plus the rest of
    ///   one of the stream's chunks.
    /// - The length being unknown, the part size is never raised: a stream longer than 10,000 parts fails with
    ///   ``ObjectStorageError/Code/invalidArgument`` before part 10,001 is sent (pick a part size of at least
    ///   1/10,000 of the largest stream you expect).
    /// - On any failure, and when the calling task is cancelled, the multipart upload is aborted (no parts
    ///   are left to be billed) and the error rethrown; cancellation throws `CancellationError`.
    /// - A stream cannot be resumed: ``TransferOptions/enableCheckpoint`` is refused. ``TransferOptions/enableMD5Check``
    ///   sends each part's `Content-MD5`; on OSS each part's CRC-64 is checked and, with
    ///   ``TransferOptions/integrityCheck``, the whole object's, combined from the parts. The bandwidth limit
    ///   applies as for any transfer.
    /// - Progress moves as parts are acknowledged; ``TransferProgress/isTotalKnown`` is `false` until the final
    ///   report, and ``TransferProgress/totalBytes`` is meanwhile the bytes read from the stream.
    ///
    /// <!-- snippet: given client: ObjectStorageClient, body: some AsyncSequence<ByteBuffer, any Error> & Sendable -->
    /// ```swift
    /// let result = try await client.uploadStream(body, bucket: "logs", key: "today.gz") { progress in
    ///     print("\(progress.completedBytes) bytes sent")
    /// }
    /// print(result.objectSize, result.partCount)
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: The stream; iterated once, from the calling task.
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - attributes: The new object's content type, metadata, ACL, storage class, encryption.
    ///   - options: Part size, concurrency, verification, bandwidth limit (no checkpoint).
    ///   - logger: The logger (the client's when `nil`).
    ///   - progress: Called with monotonic, throttled progress.
    /// - Returns: The object's ETag, version id, size, part count and what was verified; `filePath` is empty.
    /// - Throws: ``ObjectStorageError`` (`invalidArgument` for bad options, a checkpoint asked for, or a stream
    ///   longer than 10,000 parts; `integrityMismatch`), ``ServiceError``, transport errors, what the stream
    ///   throws, and `CancellationError` when the task was cancelled.
    public func uploadStream<Bytes: AsyncSequence & Sendable>(
        _ bytes: Bytes,
        bucket: String,
        key: String,
        attributes: UploadAttributes = UploadAttributes(),
        options: TransferOptions = TransferOptions(),
        logger: Logger? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws -> TransferResult where Bytes.Element == ByteBuffer {
        try await self.uploadStream(
            bytes,
            bucket: bucket,
            key: key,
            attributes: attributes,
            options: options,
            maximumPartCount: UploadPartSizing.maximumPartCount,
            logger: logger,
            progress: progress
        )
    }

    /// ``uploadStream(_:bucket:key:attributes:options:logger:progress:)`` with a lower part-count limit, so that
    /// tests reach it without sending 10,000 parts.
    ///
    /// - Parameters:
    ///   - bytes: The stream.
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - attributes: The new object's attributes.
    ///   - options: The transfer options.
    ///   - maximumPartCount: The most parts the upload may have, `1...10000`.
    ///   - logger: The logger (the client's when `nil`).
    ///   - progress: Called with progress.
    /// - Returns: The transfer's result.
    /// - Throws: As the public function does.
    package func uploadStream<Bytes: AsyncSequence & Sendable>(
        _ bytes: Bytes,
        bucket: String,
        key: String,
        attributes: UploadAttributes = UploadAttributes(),
        options: TransferOptions,
        maximumPartCount: Int,
        logger: Logger? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws -> TransferResult where Bytes.Element == ByteBuffer {
        try self.validateStreamUpload(bucket: bucket, key: key, options: options)
        guard (1...UploadPartSizing.maximumPartCount).contains(maximumPartCount) else {
            throw ObjectStorageError.invalidArgument("maximumPartCount \(maximumPartCount) is outside 1...10000")
        }
        let logger = self.transferLogger("UploadStream", bucket: bucket, key: key, logger)
        return try await Self.runTransfer(logger: logger) {
            let strategy = try UploadStreamStrategy(
                client: self,
                bucket: bucket,
                key: key,
                attributes: attributes,
                options: options,
                maximumPartCount: maximumPartCount,
                progress: progress,
                logger: logger
            )
            return try await strategy.run(bytes)
        }
    }

    /// Refuses a stream upload that cannot work, before the stream is read or anything is sent.
    private func validateStreamUpload(
        bucket: String,
        key: String,
        options: TransferOptions
    ) throws(ObjectStorageError) {
        try ObjectNameRules.validateBucketReference(bucket)
        try ObjectNameRules.validateObjectKey(key, for: self.configuration.vendor)
        try options.validate()
        guard !options.enableCheckpoint else {
            throw .invalidArgument("a stream cannot be resumed: uploadStream does not take enableCheckpoint")
        }
    }
}
