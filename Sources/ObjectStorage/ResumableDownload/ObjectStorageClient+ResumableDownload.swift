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
    /// Downloads an object into a file with parallel ranged GETs, optionally resumable: the mirror of
    /// ``uploadFile(from:bucket:key:attributes:options:logger:progress:)``, with the same options,
    /// argument order and result.
    ///
    /// The object is probed (HEAD) for its size, ETag, Last-Modified, version id and CRC-64, then
    /// fetched in parts of ``TransferOptions/partSize``, at most ``TransferOptions/concurrency`` at
    /// once, each with `If-Match` and the version id, into a preallocated `<destination>.part` file. At
    /// the end the bytes are verified (unless ``TransferOptions/integrityCheck`` is `.off`: OSS CRC-64, or the MD5
    /// of a single-part ETag), synced and renamed over the destination. The destination is never
    /// touched before that rename, so a failure leaves an older file intact.
    ///
    /// - **Checkpoint**: with ``TransferOptions/enableCheckpoint``, finished parts are recorded with
    ///   their CRC-64 in a crash-safe checkpoint (`<destination>.dcp`), deleted at the end. Without
    ///   it, a failed download deletes its temp file.
    /// - **Pause**: cancel the task (throws `CancellationError`). Parts in flight stop, the checkpoint
    ///   keeps every finished part, and the next call with the same arguments resumes (refetching at
    ///   most the parts that were in flight). ``abandonResumableDownload(to:options:logger:)`` discards
    ///   instead.
    /// - **Change**: if the object changes (412, another ETag or size), everything fetched is
    ///   discarded and the download starts over, up to ``TransferOptions/restartsOnChange`` times;
    ///   bytes of two versions are never mixed.
    /// - **Faults**: throttling, 5xx and dropped connections are retried with the client's policy;
    ///   a part cut mid-body continues from the byte reached.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// var options = TransferOptions()
    /// options.enableCheckpoint = true
    /// let result = try await client.resumableDownload(bucket: "media", key: "big.iso", to: "/data/big.iso",
    ///                                                 options: options) {
    ///     print("\($0.completedBytes) / \($0.totalBytes)")
    /// }
    /// print(result.verification)  // crc64 1234567890
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - versionID: The object version to download; `nil` for the current one (whose version id, if
    ///     the service reports one, is then pinned for every part).
    ///   - range: Only these bytes of the object; `nil` for all of it.
    ///   - destination: The file to create or replace (its directory must exist).
    ///   - options: Part size, concurrency, checkpoint, verification.
    ///   - logger: The logger (the client's when `nil`); checkpoint discards are logged with their reason.
    ///   - progress: Called with monotonic, throttled progress; the first report counts resumed bytes.
    /// - Returns: The object's metadata, the bytes fetched and reused, and what was verified.
    /// - Throws: The same errors as ``uploadFile(from:bucket:key:attributes:options:logger:progress:)``
    ///   (see <doc:ErrorHandling>): ``ObjectStorageError`` (`invalidArgument` for bad options,
    ///   `fileSystem`, `integrityMismatch`, `checkpointLocked`, `checkpointFailed`, `objectChanged`),
    ///   ``ServiceError`` with the vendor's code, request id and HTTP status, transport errors, and
    ///   `CancellationError` when the task was cancelled.
    public func resumableDownload(
        bucket: String,
        key: String,
        versionID: String? = nil,
        range: ByteRange? = nil,
        to destination: String,
        options: TransferOptions = TransferOptions(),
        logger: Logger? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws -> TransferResult {
        try await self.resumableDownload(
            bucket: bucket,
            key: key,
            versionID: versionID,
            range: range,
            to: try DownloadDestination(path: destination),
            options: options,
            logger: logger,
            progress: progress
        )
    }

    /// ``resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)`` into a destination in a
    /// directory held open (a directory job's, found under its root).
    func resumableDownload(
        bucket: String,
        key: String,
        versionID: String? = nil,
        range: ByteRange? = nil,
        to destination: DownloadDestination,
        options: TransferOptions,
        logger: Logger?,
        progress: TransferProgressHandler? = nil
    ) async throws -> TransferResult {
        try ObjectNameRules.validateBucketReference(bucket)
        try ObjectNameRules.validateObjectKey(key, for: self.configuration.vendor)
        try range?.validate()
        let logger = self.transferLogger("ResumableDownload", bucket: bucket, key: key, logger)
        let download = try ResumableDownloadStrategy(
            client: self,
            source: .object(bucket: bucket, key: key),
            destination: destination,
            options: ResumableDownloadOptions(transfer: options, versionID: versionID, range: range),
            progress: progress,
            logger: logger
        )
        return try await Self.runTransfer(logger: logger) {
            try await download.run()
        }
    }

    /// Downloads the object behind a presigned GET URL, with the same parallel, resumable engine as
    /// ``resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)``.
    ///
    /// The probe is a `Range: bytes=0-0` GET whose `Content-Range` gives the size (no separate HEAD
    /// URL is needed); a server that ignores `Range` (200) is downloaded in one stream. The
    /// checkpoint identifies the object by the URL's scheme, host and path, never its query, so a
    /// freshly presigned URL for the same object resumes the download. The URL is sent as is: the
    /// client's credentials are not used (a version must be part of the signed URL).
    ///
    /// - Parameters:
    ///   - presignedURL: A presigned (or public) GET URL.
    ///   - range: Only these bytes of the object; `nil` for all of it.
    ///   - destination: The file to create or replace (its directory must exist).
    ///   - options: Part size, concurrency, checkpoint, verification.
    ///   - logger: The logger (the client's when `nil`). The URL's query is never logged.
    ///   - progress: Called with monotonic, throttled progress.
    /// - Returns: The object's metadata, the bytes fetched and reused, and what was verified.
    /// - Throws: As ``resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)``; an
    ///   expired URL surfaces as the service's ``ServiceError`` (403 or 400).
    public func resumableDownload(
        presignedURL: String,
        range: ByteRange? = nil,
        to destination: String,
        options: TransferOptions = TransferOptions(),
        logger: Logger? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws -> TransferResult {
        var logger = self.transferLogger("ResumableDownload", logger)
        try range?.validate()
        let (endpoint, path) = try ResumableDownloadStrategy.split(presignedURL: presignedURL)
        logger[metadataKey: "os.url"] = "\(endpoint)\(path)"
        let download = try ResumableDownloadStrategy(
            client: self,
            source: .presigned(url: presignedURL),
            destination: try DownloadDestination(path: destination),
            options: ResumableDownloadOptions(transfer: options, versionID: nil, range: range),
            progress: progress,
            logger: logger
        )
        return try await Self.runTransfer(logger: logger) {
            try await download.run()
        }
    }

    /// Discards a paused resumable download: deletes its temp file and checkpoint. The destination
    /// is not touched. The mirror of ``abandonUploadFile(from:options:logger:)``.
    ///
    /// - Parameters:
    ///   - destination: The destination the download was writing to.
    ///   - options: The options the download was started with (only the checkpoint path is read).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: Whether a paused download (a checkpoint or a temp file) was found and discarded.
    /// - Throws: ``ObjectStorageError`` (`checkpointLocked` while the download is running,
    ///   `invalidArgument` for an invalid path, `checkpointFailed`), `CancellationError`.
    @discardableResult
    public func abandonResumableDownload(
        to destination: String,
        options: TransferOptions = TransferOptions(),
        logger: Logger? = nil
    ) async throws -> Bool {
        let logger = self.transferLogger("AbandonResumableDownload", logger)
        return try await Self.withTransferErrors(logger: logger) { () throws -> Bool in
            try self.abandonResumableDownload(
                to: try DownloadDestination(path: destination),
                options: options,
                logger: logger
            )
        }
    }

    /// ``abandonResumableDownload(to:options:logger:)`` for a destination in a directory held open (a directory
    /// job's, found under its root).
    func abandonResumableDownload(
        to destination: DownloadDestination,
        options: TransferOptions,
        logger: Logger
    ) throws -> Bool {
        let checkpoint = try destination.checkpointPath(override: options.checkpointFilePath)
        let temp = destination.sibling(CheckpointPaths.tempFileSuffix)
        let lock = try CheckpointLock.acquireForTransfer(checkpoint)
        defer { lock.release() }
        let tempExists = (try? temp.directory.status(temp.name).get()) != nil
        let checkpointExists = (try? POSIXFile.linkStatus(checkpoint).get()) != nil
        temp.directory.remove(temp.name)
        try CheckpointStore(logger: logger).remove(at: checkpoint)
        return tempExists || checkpointExists
    }
}
