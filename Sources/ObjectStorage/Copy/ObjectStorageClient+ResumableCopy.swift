//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOHTTP1
import ObjectStorageSigning

extension ObjectStorageClient {
    /// Copies an object of any size, in parallel parts when it is large, optionally resumable: server-side within
    /// this client's endpoint (the bytes never pass through the client), or, given a `source` client, from another
    /// endpoint, vendor or account, streamed through this process (OSS to OBS, S3 to OSS). The third transfer beside
    /// ``uploadFile(from:bucket:key:attributes:options:logger:progress:)`` and
    /// ``resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)``, with the same options,
    /// progress and result.
    ///
    /// Within this client's endpoint (no `source`):
    ///
    /// - A source no larger than one part is one CopyObject (unless ``TransferOptions/forceMultipart``), as
    ///   `uploadFile` sends such a file with one PUT. A larger one, or one above the service's CopyObject limit
    ///   (OSS 1 GiB, OBS and S3 5 GiB; a service that refuses a smaller one is answered the same way), is a
    ///   multipart upload whose parts are UploadPartCopy ranges of ``TransferOptions/partSize`` (clamped to the
    ///   vendor's limits and raised to fit 10,000 parts; 64 MiB or more suits large copies),
    ///   ``TransferOptions/concurrency`` at a time.
    /// - Every request names the source's ETag (`If-Match` on the copy source), so a source replaced during the
    ///   copy fails the parts with `PreconditionFailed` and the copy starts over from the new source (at most
    ///   ``TransferOptions/restartsOnChange`` times). The source is looked up again before completing, for
    ///   services that ignore that `If-Match`: the copy is never mixed from two versions.
    /// - With ``TransferOptions/enableCheckpoint`` and a ``TransferOptions/checkpointFilePath`` (a copy has no
    ///   local file to put it beside), every part is recorded in a crash-safe, locked checkpoint as it lands, and
    ///   calling again with the same arguments resumes without copying those parts again; a checkpoint whose
    ///   source has since changed is discarded and its upload aborted.
    /// - Unless `replacesMetadata`, the copy keeps the source's media type, user metadata and content headers
    ///   (read with HeadObject for a multipart copy, which carries nothing by itself). The ACL, storage class and
    ///   encryption in `attributes` apply either way; a multipart copy otherwise keeps the source's storage class
    ///   and encryption algorithm, but not its ACL.
    /// - OSS: unless ``TransferOptions/integrityCheck`` is `.off`, a multipart copy's CRC-64 is compared with the source's.
    ///
    /// Given a `source` client (another endpoint, vendor or account):
    ///
    /// - Each part is a ranged GET of the source pinned to the source's ETag (`If-Match`) whose bytes go into the
    ///   part's UploadPart as they arrive: memory holds a few chunks per part in flight, whatever the part size,
    ///   and nothing is written to disk. A failure of either request sends the part again from a new GET. With
    ///   ``TransferOptions/enableMD5Check`` each part is read whole first, to send its `Content-MD5` (at most
    ///   ``TransferOptions/concurrency`` parts of ``TransferOptions/partSize`` in memory). A source no larger than
    ///   one part is one GET and one PUT.
    /// - A source replaced during the copy fails its GETs with `PreconditionFailed` and the copy starts over from
    ///   the new source (at most ``TransferOptions/restartsOnChange`` times); it is looked up again before
    ///   completing. The checkpoint records the source's endpoint, so a checkpoint of another source is discarded.
    /// - End to end, unless ``TransferOptions/integrityCheck`` is `.off`: each part's ETag is compared with the MD5 of the
    ///   bytes sent (unless the destination encrypts with KMS or a customer's key, or the part carried its
    ///   `Content-MD5`), OSS's CRC-64 of each part with the bytes', and the CRC-64 of the bytes read with the
    ///   source's (OSS and OBS report one) and the destination's (OSS); the result says what was compared.
    /// - Unless `replacesMetadata`, the copy keeps the source's media type, user metadata and content headers; the
    ///   storage class and encryption are carried only between endpoints of one vendor.
    /// - Each client's bandwidth limit (``/ObjectStorageTransport/HTTPConfiguration/bandwidthLimit``) paces its own side.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// var options = TransferOptions(partSize: 64 << 20, concurrency: 8)
    /// options.enableCheckpoint = true
    /// options.checkpointFilePath = "/var/tmp/video-copy.ccp"
    /// let result = try await client.resumableCopy(bucket: "archive", key: "video.mp4",
    ///                                             sourceBucket: "media", sourceKey: "video.mp4", options: options)
    /// print(result.partsTransferred, result.partsReused)
    /// ```
    ///
    /// From another vendor:
    ///
    /// ```swift
    /// let oss = ObjectStorageClient(configuration: try .environment(.oss))
    /// let obs = ObjectStorageClient(configuration: try .environment(.obs))
    /// var options = TransferOptions(partSize: 16 << 20, concurrency: 4)
    /// options.enableCheckpoint = true
    /// options.checkpointFilePath = "/var/tmp/migrate.ccp"
    /// let result = try await obs.resumableCopy(bucket: "archive", key: "video.mp4", from: oss,
    ///                                          sourceBucket: "media", sourceKey: "video.mp4", options: options)
    /// print(result.verification)
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The destination bucket.
    ///   - key: The destination key.
    ///   - source: The client that reads the source (its endpoint, vendor and credentials); `nil` (the default)
    ///     for a server-side copy within this client's endpoint.
    ///   - sourceBucket: The source bucket, on the source client's endpoint.
    ///   - sourceKey: The source key.
    ///   - sourceVersionID: A specific source version.
    ///   - attributes: The copy's attributes (see above for which apply when).
    ///   - replacesMetadata: Whether the copy takes its media type, user metadata and content headers from
    ///     `attributes` rather than from the source.
    ///   - options: Part size, concurrency, checkpoint, restarts, verification.
    ///   - logger: The logger (the client's when `nil`).
    ///   - progress: Called with monotonic, throttled progress as parts land (parts reused from a checkpoint first).
    /// - Returns: The copy's ETag, version id, the bytes copied and reused, and what was verified.
    /// - Throws: ``ObjectStorageError`` (`invalidArgument` for bad options or a checkpoint without a path, before
    ///   any request; `checkpointLocked`; `checkpointFailed`; `integrityMismatch`), ``ServiceError`` with the
    ///   vendor's code (`NoSuchKey` for a missing source, `PreconditionFailed` once the restarts are spent),
    ///   ``ObjectStorageError/Code/objectChanged`` when the source changed once too often,
    ///   ``ObjectStorageError/Code/invalidResponse`` from a service that does not copy parts (the upload is
    ///   aborted and the checkpoint removed), transport errors, and `CancellationError` when the task was cancelled (a pause: the checkpoint keeps it).
    public func resumableCopy(
        bucket: String,
        key: String,
        from source: ObjectStorageClient? = nil,
        sourceBucket: String,
        sourceKey: String,
        sourceVersionID: String? = nil,
        attributes: UploadAttributes = UploadAttributes(),
        replacesMetadata: Bool = false,
        options: TransferOptions = TransferOptions(),
        logger: Logger? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws -> TransferResult {
        try await self.copy(
            ResumableCopyRequest(
                bucket: bucket,
                key: key,
                sourceBucket: sourceBucket,
                sourceKey: sourceKey,
                sourceVersionID: sourceVersionID,
                attributes: attributes,
                replacesMetadata: replacesMetadata,
                options: options,
                sourceClient: source
            ),
            logger: logger,
            progress: progress
        )
    }

    /// Validates a copy's arguments, before any request, and runs it.
    private func copy(
        _ request: ResumableCopyRequest,
        logger: Logger?,
        progress: TransferProgressHandler?
    ) async throws -> TransferResult {
        let sourceProvider = (request.sourceClient ?? self).configuration.vendor
        try ObjectNameRules.validateBucketReference(request.bucket)
        try ObjectNameRules.validateObjectKey(request.key, for: self.configuration.vendor)
        try ObjectNameRules.validateBucketReference(request.sourceBucket)
        try ObjectNameRules.validateObjectKey(request.sourceKey, for: sourceProvider)
        try request.options.validate()
        if !request.replacesMetadata && request.attributes.describesContent {
            throw ObjectStorageError.invalidArgument(
                "a copy keeps the source's media type, metadata and content headers unless replacesMetadata is set"
            )
        }
        let logger = self.transferLogger("ResumableCopy", bucket: request.bucket, key: request.key, logger)
        let strategy = try ResumableCopyStrategy(client: self, request: request, progress: progress, logger: logger)
        // A server-side copy moves its bytes inside the service, never through the client: no limit applies.
        return try await Self.runTransfer(logger: logger) { try await strategy.run() }
    }

    /// UploadPartCopy: stores a byte range of another object as a part of a multipart upload, server-side.
    ///
    /// - Parameters:
    ///   - bucket: The upload's bucket.
    ///   - key: The upload's key.
    ///   - uploadID: The upload id.
    ///   - partNumber: The part number, 1...10000.
    ///   - sourceBucket: The source bucket.
    ///   - sourceKey: The source key.
    ///   - sourceVersionID: A specific source version.
    ///   - range: The source's bytes to copy (non-empty, or the whole of an empty source).
    ///   - sourceIfMatch: Copy only while the source's ETag is this one.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The part's ETag.
    /// - Throws: ``ServiceError`` (`PreconditionFailed` when the source's ETag differs), transport errors,
    ///   ``ObjectStorageError/Code/invalidResponse`` for an answer without a `CopyPartResult` ETag (rclone serve s3
    ///   answers 200 with an empty body and stores an empty part).
    func uploadPartCopy(
        bucket: String,
        key: String,
        uploadID: String,
        partNumber: Int,
        sourceBucket: String,
        sourceKey: String,
        sourceVersionID: String?,
        range: Range<Int64>,
        sourceIfMatch: String?,
        logger: Logger?
    ) async throws -> String {
        var operation = OperationRequest(name: "UploadPartCopy", method: .PUT, bucket: bucket, key: key)
        operation.query = [
            QueryParameter(name: "partNumber", value: String(partNumber)),
            QueryParameter(name: "uploadId", value: uploadID),
        ]
        let prefix = self.configuration.headerPrefix
        var source = "/" + sourceBucket + "/" + PercentEncoding.encode(sourceKey, style: .path)
        if let version = sourceVersionID { source += "?versionId=" + version }
        operation.header(prefix + "copy-source", source)
        if !range.isEmpty {
            operation.header(prefix + "copy-source-range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")
        }
        operation.header(prefix + "copy-source-if-match", sourceIfMatch)
        let (_, root) = try await self.executeXML(operation, logger: logger)
        guard let etag = root["ETag"] else {
            throw ObjectStorageError.invalidResponse(
                "UploadPartCopy: the answer has no CopyPartResult ETag; the service does not copy parts server-side"
            )
        }
        return etag
    }
}
