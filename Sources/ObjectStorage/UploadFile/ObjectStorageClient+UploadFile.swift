//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import ObjectStorageCheckpoint
import ObjectStorageSigning

extension ObjectStorageClient {
    /// Uploads a local file, in parts when it is larger than one part, optionally resumable: the
    /// mirror of ``resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)``, with the
    /// same options, argument order and result.
    ///
    /// - A file no larger than one part goes up as a single PUT (unless
    ///   ``TransferOptions/forceMultipart``); larger files as a multipart upload with parts read from
    ///   the file by offset (never the whole file in memory), ``TransferOptions/concurrency`` at a time.
    ///   The part size is clamped to the vendor's limits and raised, in whole MiB, to fit 10,000 parts.
    /// - With ``TransferOptions/enableCheckpoint``, every part is recorded in a crash-safe, locked
    ///   checkpoint as it lands. Calling again with the same arguments resumes: the checkpoint is
    ///   checked against the file (a changed file aborts the old upload and starts over) and against
    ///   ListParts (a part counts only if the server lists it with the recorded ETag and size);
    ///   `NoSuchUpload` (an expired or aborted upload) starts a new upload instead of failing.
    /// - On failure the parts in flight stop. With the checkpoint on, the upload id and checkpoint
    ///   are kept for the next call; with it off, the multipart upload is aborted on the server.
    ///   Cancelling the calling task pauses (throws `CancellationError`);
    ///   ``abandonUploadFile(from:options:logger:)`` discards a paused upload.
    /// - OSS: each part's CRC-64 is checked, and unless ``TransferOptions/integrityCheck`` is `.off` the whole
    ///   object's, combined from the parts, is compared with the service's after completion.
    /// - S3, unless ``TransferOptions/integrityCheck`` is `.off`: each part and the completion carry S3's full-object
    ///   CRC-64/NVME (`x-amz-checksum-crc64nvme`) for the service to check; ``TransferResult/verification`` is
    ///   `.crc64NVME` when the service reports the value back.
    /// - OBS, unless ``TransferOptions/integrityCheck`` is `.off`: each part, the completion and a single PUT carry OBS's
    ///   CRC-64/XZ (`x-obs-checksum-crc64ecma`) for the service to check and keep; ``TransferResult/verification``
    ///   is `.crc64` when the service reports the value back.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// var options = TransferOptions()
    /// options.enableCheckpoint = true
    /// let result = try await client.uploadFile(from: "/var/backups/db.tar", bucket: "backups", key: "db.tar",
    ///                                          options: options) { progress in
    ///     print("\(Int(progress.fractionCompleted * 100)) %")
    /// }
    /// print(result.bytesTransferred, result.bytesReused, result.verification)
    /// ```
    ///
    /// - Parameters:
    ///   - filePath: The local file to upload.
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - attributes: The new object's content type, metadata, ACL, storage class, encryption.
    ///   - options: Part size, concurrency, checkpoint, verification.
    ///   - logger: The logger (the client's when `nil`).
    ///   - progress: Called with monotonic, throttled progress (bytes reused from a checkpoint first).
    /// - Returns: The object's ETag, version id, the bytes sent and reused, and what was verified.
    /// - Throws: The same errors as ``resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)``
    ///   (see <doc:ErrorHandling>): ``ObjectStorageError`` (`invalidArgument` for bad options or a file
    ///   too large, before any request; `checkpointLocked` while another call holds the checkpoint;
    ///   `checkpointFailed`; `integrityMismatch`; `fileSystem`), ``ServiceError`` with the vendor's code,
    ///   request id and HTTP status (e.g. `BadDigest`), transport errors, and `CancellationError` when
    ///   the task was cancelled.
    public func uploadFile(
        from filePath: String,
        bucket: String,
        key: String,
        attributes: UploadAttributes = UploadAttributes(),
        options: TransferOptions = TransferOptions(),
        logger: Logger? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws -> TransferResult {
        let request = UploadFileRequest(
            bucket: bucket,
            key: key,
            filePath: filePath,
            attributes: attributes,
            options: options
        )
        try self.validate(request)
        let logger = self.transferLogger("UploadFile", bucket: bucket, key: key, logger)
        return try await Self.runTransfer(logger: logger) {
            try await UploadFileStrategy(client: self, request: request, progress: progress, logger: logger).run()
        }
    }

    /// Discards a paused checkpointed upload: aborts its multipart upload on the server and removes
    /// the checkpoint file. The mirror of ``abandonResumableDownload(to:options:logger:)``.
    ///
    /// The checkpoint is found as ``uploadFile(from:bucket:key:attributes:options:logger:progress:)``
    /// finds it (``TransferOptions/checkpointFilePath``, or beside the file). The multipart upload it
    /// records is aborted only when the checkpoint was written by an upload of this file to this
    /// client's vendor and endpoint, even if the file has changed since.
    ///
    /// - Parameters:
    ///   - filePath: The file the upload was reading.
    ///   - options: The options the upload was started with (only the checkpoint path is read).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: Whether a paused upload was found and discarded.
    /// - Throws: ``ObjectStorageError`` (`checkpointLocked` while the upload is running,
    ///   `invalidArgument` for an invalid path), ``ServiceError`` other than `NoSuchUpload`, transport
    ///   errors, `CancellationError`.
    @discardableResult
    public func abandonUploadFile(
        from filePath: String,
        options: TransferOptions = TransferOptions(),
        logger: Logger? = nil
    ) async throws -> Bool {
        let logger = self.transferLogger("AbandonUploadFile", logger)
        let configuration = self.configuration
        return try await Self.withTransferErrors(logger: logger) { () async throws -> Bool in
            let path = try Self.checkpointPath(uploading: filePath, options: options)
            let sourcePath = try CheckpointPaths.absolute(filePath)
            let lock = try CheckpointLock.acquireForTransfer(path)
            defer { lock.release() }
            let store = CheckpointStore(logger: logger)
            // The bucket and key are read from the checkpoint: whatever it records, it is found as `previous`.
            let unknown = UploadCheckpoint.Identity(
                vendor: configuration.vendor.description,
                endpoint: configuration.endpoint.description,
                bucket: "",
                key: "",
                sourcePath: sourcePath
            )
            let found = store.load(at: path, expecting: UploadCheckpoint.Expectation(identity: unknown))
            var discarded = false
            if let checkpoint = found.checkpoint ?? found.previous,
                checkpoint.identity.vendor == configuration.vendor.description,
                checkpoint.identity.endpoint == configuration.endpoint.description,
                checkpoint.identity.sourcePath == sourcePath
            {
                let identity = checkpoint.identity
                do {
                    try await self.abortMultipartUpload(
                        bucket: identity.bucket,
                        key: identity.key,
                        uploadID: checkpoint.uploadId,
                        logger: logger
                    )
                } catch let error as ServiceError where error.code == .noSuchUpload {
                    logger.debug("the upload was already gone", metadata: ["os.upload_id": "\(checkpoint.uploadId)"])
                }
                discarded = true
            }
            try store.remove(at: path)
            return discarded
        }
    }

    /// Refuses a request that cannot work, before the file is read or anything is sent.
    private func validate(_ request: UploadFileRequest) throws(ObjectStorageError) {
        try ObjectNameRules.validateBucketReference(request.bucket)
        try ObjectNameRules.validateObjectKey(request.key, for: self.configuration.vendor)
        try request.options.validate()
        guard request.enableCheckpoint else { return }
        _ = try Self.checkpointPath(uploading: request.filePath, options: request.options)
    }

    private static func checkpointPath(
        uploading filePath: String,
        options: TransferOptions
    ) throws(ObjectStorageError) -> String {
        do {
            return try CheckpointPaths.upload(source: filePath, override: options.checkpointFilePath)
        } catch {
            throw .invalidArgument("invalid checkpoint path: \(error.message)")
        }
    }
}
