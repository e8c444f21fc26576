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
    /// Downloads an object into a file with parallel ranged GETs, resuming where an earlier call
    /// stopped.
    ///
    /// The object is probed (HEAD) for its size, ETag, Last-Modified, version id and CRC-64, then
    /// fetched in parts of ``ResumableDownloadOptions/partSize``, at most
    /// ``ResumableDownloadOptions/concurrency`` at once, each with `If-Match` and the version id, into
    /// a preallocated `<destination>.part` file. Finished parts are recorded with their CRC-64 in a
    /// crash-safe checkpoint (`<destination>.dcp`). At the end the bytes are verified (OSS CRC-64, or
    /// the MD5 of a single-part ETag), synced and renamed over the destination; the checkpoint is
    /// deleted. The destination is never touched before that rename, so a failure leaves an older
    /// file intact.
    ///
    /// - **Pause**: cancel the task. Parts in flight stop, the checkpoint keeps every finished part,
    ///   and the next call with the same destination resumes (refetching at most the parts that
    ///   were in flight). ``abandonResumableDownload(to:checkpointFilePath:)`` discards instead.
    /// - **Change**: if the object changes (412, another ETag or size), everything fetched is
    ///   discarded and the download starts over, up to ``ResumableDownloadOptions/restartsOnChange``
    ///   times; bytes of two versions are never mixed.
    /// - **Faults**: throttling, 5xx and dropped connections are retried with the client's policy;
    ///   a part cut mid-body continues from the byte reached.
    ///
    /// ```swift
    /// let result = try await client.resumableDownload(bucket: "media", key: "big.iso", to: "/data/big.iso") {
    ///     print("\($0.completedBytes) / \($0.totalBytes)")
    /// }
    /// print(result.verification)  // crc64 1234567890
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - destination: The file to create or replace (its directory must exist).
    ///   - options: Part size, concurrency, checkpoint, version, range, verification.
    ///   - logger: The logger (the client's when `nil`); checkpoint discards are logged with their reason.
    ///   - progress: Called with monotonic, throttled progress; the first report counts resumed bytes.
    /// - Returns: The object's metadata, the bytes fetched and reused, and what was verified.
    /// - Throws: ``ObjectStorageError`` (`invalidArgument` for bad options, `fileSystem`,
    ///   `integrityMismatch`, `checkpointLocked`, `checkpointFailed`, `objectChanged`), ``ServiceError``,
    ///   ``/ObjectStorageTransport/TransportError``, or `CancellationError` when paused.
    public func resumableDownload(
        bucket: String,
        key: String,
        to destination: String,
        options: ResumableDownloadOptions = ResumableDownloadOptions(),
        logger: Logger? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws -> ResumableDownloadResult {
        try ObjectNameRules.validateBucketReference(bucket)
        try ObjectNameRules.validateObjectKey(key, for: self.configuration.provider)
        try options.range?.validate()
        var logger = logger ?? self.logger
        logger[metadataKey: "os.operation"] = "ResumableDownload"
        logger[metadataKey: "os.bucket"] = "\(bucket)"
        logger[metadataKey: "os.key"] = "\(key)"
        let engine = try ResumableDownloadEngine(
            client: self,
            source: .object(bucket: bucket, key: key),
            destination: destination,
            options: options,
            progress: progress,
            logger: logger
        )
        return try await Self.runTransfer(logger: logger) { try await engine.run() }
    }

    /// Downloads the object behind a presigned GET URL, with the same parallel, resumable engine as
    /// ``resumableDownload(bucket:key:to:options:logger:progress:)``.
    ///
    /// The probe is a `Range: bytes=0-0` GET whose `Content-Range` gives the size (no separate HEAD
    /// URL is needed); a server that ignores `Range` (200) is downloaded in one stream. The
    /// checkpoint identifies the object by the URL's scheme, host and path, never its query, so a
    /// freshly presigned URL for the same object resumes the download. The URL is sent as is: the
    /// client's credentials are not used, and ``ResumableDownloadOptions/versionID`` is ignored (a
    /// version must be part of the signed URL).
    ///
    /// - Parameters:
    ///   - presignedURL: A presigned (or public) GET URL.
    ///   - destination: The file to create or replace (its directory must exist).
    ///   - options: Part size, concurrency, checkpoint, range, verification.
    ///   - logger: The logger (the client's when `nil`). The URL's query is never logged.
    ///   - progress: Called with monotonic, throttled progress.
    /// - Returns: The object's metadata, the bytes fetched and reused, and what was verified.
    /// - Throws: As ``resumableDownload(bucket:key:to:options:logger:progress:)``; an expired URL
    ///   surfaces as the service's ``ServiceError`` (403 or 400).
    public func resumableDownload(
        presignedURL: String,
        to destination: String,
        options: ResumableDownloadOptions = ResumableDownloadOptions(),
        logger: Logger? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws -> ResumableDownloadResult {
        var logger = logger ?? self.logger
        logger[metadataKey: "os.operation"] = "ResumableDownload"
        var options = options
        options.versionID = nil
        let (endpoint, path) = try ResumableDownloadEngine.split(presignedURL: presignedURL)
        logger[metadataKey: "os.url"] = "\(endpoint)\(path)"
        let engine = try ResumableDownloadEngine(
            client: self,
            source: .presigned(url: presignedURL),
            destination: destination,
            options: options,
            progress: progress,
            logger: logger
        )
        return try await Self.runTransfer(logger: logger) { try await engine.run() }
    }

    /// Discards a paused resumable download: deletes its temp file and checkpoint. The destination
    /// is not touched.
    ///
    /// - Parameters:
    ///   - destination: The destination the download was writing to.
    ///   - checkpointFilePath: The checkpoint path, if one was given in the options.
    /// - Throws: ``ObjectStorageError/Code/checkpointLocked`` while the download is running;
    ///   ``ObjectStorageError/Code/invalidArgument`` for an invalid path.
    public func abandonResumableDownload(to destination: String, checkpointFilePath: String? = nil) throws {
        let checkpoint: String
        let temp: String
        do {
            checkpoint = try CheckpointPaths.download(destination: destination, override: checkpointFilePath)
            temp = try CheckpointPaths.downloadTempFile(destination: destination)
        } catch {
            throw ObjectStorageError.invalidArgument(error.message)
        }
        let lock: CheckpointLock
        do {
            lock = try CheckpointLock.acquire(for: checkpoint)
        } catch {
            if error.code == .checkpointLocked {
                throw ObjectStorageError(code: .checkpointLocked, message: error.message)
            }
            throw ObjectStorageError.fileSystem("lock the checkpoint", path: checkpoint, cause: error)
        }
        defer { lock.release() }
        DownloadTempFile.remove(temp)
        let store = CheckpointStore(logger: self.logger)
        do {
            try store.remove(at: checkpoint)
        } catch {
            throw ObjectStorageError.fileSystem("remove the checkpoint", path: checkpoint, cause: error)
        }
    }
}
