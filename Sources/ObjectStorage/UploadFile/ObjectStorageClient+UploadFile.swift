//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import ObjectStorageCheckpoint

extension ObjectStorageClient {
    /// Uploads a local file, in parts when it is larger than one part, optionally resumable.
    ///
    /// - A file no larger than one part goes up as a single PUT (unless
    ///   ``UploadFileRequest/forceMultipart``); larger files as a multipart upload with parts read
    ///   from the file by offset (never the whole file in memory), ``UploadFileRequest/concurrency``
    ///   at a time. The part size is chosen by ``UploadPartSizing``.
    /// - With ``UploadFileRequest/enableCheckpoint``, every part is recorded in a crash-safe, locked
    ///   checkpoint as it lands. Calling again with the same request resumes: the checkpoint is
    ///   checked against the file (a changed file aborts the old upload and starts over) and against
    ///   ListParts (a part counts only if the server lists it with the recorded ETag and size);
    ///   `NoSuchUpload` (an expired or aborted upload) starts a new upload instead of failing.
    /// - On failure the parts in flight stop. With the checkpoint on, the upload id and checkpoint
    ///   are kept for the next call; with it off, the multipart upload is aborted on the server.
    ///   Cancelling the calling task pauses (throws `CancellationError`); ``abortUploadFile(_:logger:)``
    ///   discards a paused upload.
    /// - OSS: each part's CRC-64 is checked, and the whole object's, combined from the parts, is
    ///   compared with the service's after completion.
    ///
    /// ```swift
    /// var request = UploadFileRequest(bucket: "backups", key: "db.tar", filePath: "/var/backups/db.tar")
    /// request.enableCheckpoint = true
    /// let result = try await client.uploadFile(request) { progress in
    ///     print("\(Int(progress.fractionCompleted * 100)) %")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The file, the object and the options.
    ///   - progress: Called with monotonic, throttled progress (bytes reused from a checkpoint first).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The object's ETag, version id and what was verified and reused.
    /// - Throws: ``ObjectStorageError`` (`invalidArgument` for a bad concurrency, part size or a file
    ///   too large, before any request; `integrityMismatch`; `fileSystem`), ``ServiceError`` (e.g.
    ///   `BadDigest` when a part's Content-MD5 does not match), `CheckpointError` (e.g.
    ///   `checkpointLocked`), `CancellationError` when the task was cancelled.
    public func uploadFile(
        _ request: UploadFileRequest,
        progress: TransferProgressHandler? = nil,
        logger: Logger? = nil
    ) async throws -> UploadFileResult {
        try self.validate(request)
        let logger = self.uploadFileLogger(request, logger)
        let operation = try UploadFileOperation(client: self, request: request, progress: progress, logger: logger)
        return try await Self.runTransfer(logger: logger) { try await operation.run() }
    }

    /// Discards a paused checkpointed upload: aborts its multipart upload on the server and removes
    /// the checkpoint file.
    ///
    /// The checkpoint is found as ``uploadFile(_:progress:logger:)`` finds it (from
    /// ``UploadFileRequest/checkpointFilePath`` or beside the file). Its upload is aborted only when
    /// it belongs to the same provider, endpoint, bucket and key, even if the file has changed since.
    ///
    /// - Parameters:
    ///   - request: The request the upload was started with.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: Whether a multipart upload was aborted on the server.
    /// - Throws: `CheckpointError` (`checkpointLocked` while an upload is running), ``ServiceError``
    ///   other than `NoSuchUpload`, transport errors.
    @discardableResult
    public func abortUploadFile(_ request: UploadFileRequest, logger: Logger? = nil) async throws -> Bool {
        let logger = self.uploadFileLogger(request, logger)
        let path = try CheckpointPaths.upload(source: request.filePath, override: request.checkpointFilePath)
        let lock = try CheckpointLock.acquire(for: path)
        defer { lock.release() }
        let store = CheckpointStore(logger: logger)
        let identity = try UploadFileOperation.identity(of: request, configuration: self.configuration)
        let found = store.load(
            at: path,
            expecting: UploadCheckpoint.Expectation(identity: identity, source: nil, parameters: .init())
        )
        var aborted = false
        if let checkpoint = found.checkpoint ?? found.previous, checkpoint.identity == identity {
            do {
                try await self.abortMultipartUpload(
                    AbortMultipartUploadRequest(
                        bucket: request.bucket,
                        key: request.key,
                        uploadID: checkpoint.uploadId
                    ),
                    logger: logger
                )
                aborted = true
            } catch let error as ServiceError where error.code == .noSuchUpload {
                logger.debug("the upload was already gone", metadata: ["os.upload_id": "\(checkpoint.uploadId)"])
            }
        }
        try store.remove(at: path)
        return aborted
    }

    /// Refuses a request that cannot work, before the file is read or anything is sent.
    private func validate(_ request: UploadFileRequest) throws(ObjectStorageError) {
        try ObjectNameRules.validateBucketReference(request.bucket)
        try ObjectNameRules.validateObjectKey(request.key, for: self.configuration.provider)
        guard request.partSize > 0 else {
            throw .invalidArgument("part size \(request.partSize) must be positive")
        }
        guard (1...UploadFileRequest.maximumConcurrency).contains(request.concurrency) else {
            throw .invalidArgument(
                "concurrency \(request.concurrency) is outside 1...\(UploadFileRequest.maximumConcurrency)"
            )
        }
        guard request.enableCheckpoint else { return }
        do {
            _ = try CheckpointPaths.upload(source: request.filePath, override: request.checkpointFilePath)
        } catch {
            throw .invalidArgument("invalid checkpoint path: \(error.message)")
        }
    }

    private func uploadFileLogger(_ request: UploadFileRequest, _ logger: Logger?) -> Logger {
        var logger = logger ?? self.logger
        logger[metadataKey: "os.operation"] = "UploadFile"
        logger[metadataKey: "os.bucket"] = "\(request.bucket)"
        logger[metadataKey: "os.key"] = "\(request.key)"
        return logger
    }
}
