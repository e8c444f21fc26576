//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageCheckpoint
import ObjectStorageSigning

/// One call of ``ObjectStorageClient/resumableCopy(bucket:key:from:sourceBucket:sourceKey:sourceVersionID:attributes:replacesMetadata:options:logger:progress:)``:
/// the server-side copy direction of ``CheckpointedTransfer``. A source no larger than one part (and than the
/// service's CopyObject limit) is one CopyObject; a larger one (or one the service refuses to copy whole) a multipart upload whose parts are
/// UploadPartCopy ranges of the source, each pinned with the source's ETag (`If-Match`), recorded in an
/// `UploadCheckpoint` with a ``UploadCheckpoint/CopySource``.
struct ResumableCopyStrategy: TransferStrategy {
    /// A round's session: the source's CRC-64 as its HEAD reported it (OSS), to check the copy against.
    typealias Session = UInt64?

    let client: ObjectStorageClient
    let request: ResumableCopyRequest
    let progress: TransferProgressHandler?
    let logger: Logger
    let checkpointPath: String?
    let store: CheckpointStore
    /// A streamed copy's part buffers.
    let partBuffers = PartBufferPool()

    var concurrency: Int { request.options.concurrency }
    /// How many times the copy starts over when the source changes or the upload disappears.
    var maximumRestarts: Int { request.options.restartsOnChange }

    init(
        client: ObjectStorageClient,
        request: ResumableCopyRequest,
        progress: TransferProgressHandler?,
        logger: Logger
    )
        throws
    {
        self.client = client
        self.request = request
        self.progress = progress
        self.logger = logger
        self.store = CheckpointStore(logger: logger)
        self.checkpointPath = try Self.checkpointPath(request.options)
    }

    /// A copy has no local file to put its checkpoint beside: with the checkpoint on, the caller names it.
    static func checkpointPath(_ options: TransferOptions) throws(ObjectStorageError) -> String? {
        guard options.enableCheckpoint else { return nil }
        guard let path = options.checkpointFilePath else {
            throw .invalidArgument("a resumable copy's checkpoint needs checkpointFilePath (a copy has no local file)")
        }
        do {
            return try CheckpointPaths.absolute(path)
        } catch {
            throw .invalidArgument("invalid checkpoint path: \(error.message)")
        }
    }

    /// Which copy a checkpoint records: the destination; the source is the checkpoint's ``UploadCheckpoint/copySource``.
    private var identity: UploadCheckpoint.Identity {
        UploadCheckpoint.Identity(
            vendor: client.configuration.vendor.description,
            endpoint: client.configuration.endpoint.description,
            bucket: request.bucket,
            key: request.key,
            sourcePath: checkpointPath ?? "/dev/null"
        )
    }

    // MARK: Rounds

    /// The client that reads the source: the destination's, or for a streamed copy the source's own.
    var sourceClient: ObjectStorageClient { request.sourceClient ?? client }

    /// Whether the bytes stream through this process (another endpoint or account) rather than being copied
    /// inside the service.
    var isStreamed: Bool { request.sourceClient != nil }

    func prepare(restarts: inout Int, isRestart: Bool) async throws -> TransferStart<Self> {
        let head = try await sourceClient.headObject(
            bucket: request.sourceBucket,
            key: request.sourceKey,
            versionID: request.sourceVersionID,
            logger: logger
        )
        guard let etag = head.etag, let size = head.contentLength, size >= 0 else {
            throw ObjectStorageError.invalidResponse("HeadObject of the copy source: no ETag or Content-Length")
        }
        let source = UploadCheckpoint.CopySource(
            bucket: request.sourceBucket,
            key: request.sourceKey,
            versionID: request.sourceVersionID,
            etag: etag,
            endpoint: request.sourceClient.map { "\($0.configuration.vendor) \($0.configuration.endpoint)" }
        )
        var attributes = request.attributes(
            carriedFrom: head,
            prefix: sourceClient.configuration.headerPrefix,
            sameProvider: sourceClient.configuration.vendor == client.configuration.vendor
        )
        if attributes.tags == nil, let count = head.tagCount, count > 0 {
            // UploadPartCopy carries no tags: read the source's, as a CopyObject would keep them.
            attributes.tags = try await sourceClient.getObjectTagging(
                bucket: request.sourceBucket,
                key: request.sourceKey,
                versionID: request.sourceVersionID,
                logger: logger
            )
        }
        let parameters = UploadFileStrategy.parameters(of: attributes)
        let sizeOnly = FileIdentity(size: size, mtimeNanoseconds: 0, inode: 0, device: 0)
        var resuming: UploadCheckpoint?
        if let checkpointPath, !isRestart {
            let expectation = UploadCheckpoint.Expectation(
                identity: identity,
                source: sizeOnly,
                parameters: parameters,
                copySource: source
            )
            resuming = try await client.loadUploadCheckpoint(
                at: checkpointPath,
                expecting: expectation,
                store: store,
                restarts: &restarts,
                logger: logger
            )
        }
        let limit = ResumableCopyRequest.copyObjectLimit(for: client.configuration.vendor)
        if !isRestart, resuming == nil, !request.options.forceMultipart,
            size <= min(try partSizing(size).partSize, limit)
        {
            if isStreamed {
                return .finished(try await streamWhole(size: size, etag: etag, attributes: attributes, head: head))
            }
            if let result = try await copyWhole(size: size, etag: etag) { return .finished(result) }
        }
        if let resumed = resuming,
            let start: TransferStart<Self> = try await client.resumeUpload(
                resumed,
                session: head.crc64,
                at: checkpointPath,
                store: store,
                restarts: &restarts,
                noun: "copy",
                logger: logger
            )
        {
            return start
        }
        let uploadID = try await client.createMultipartUpload(
            bucket: request.bucket,
            key: request.key,
            attributes: attributes,
            fullObjectCRC64NVME: false,
            condition: request.options.writeCondition,
            logger: logger
        )
        let checkpoint = try UploadCheckpoint(
            identity: identity,
            source: sizeOnly,
            partSize: partSizing(size).partSize,
            uploadId: uploadID,
            parameters: parameters,
            copySource: source
        )
        try await client.saveNewUploadCheckpoint(checkpoint, to: checkpointPath, store: store, logger: logger)
        return .parts(checkpoint, head.crc64)
    }

    /// The part size for a source of `size` bytes: the caller's, clamped to the vendor's limits and raised to
    /// fit 10,000 parts.
    private func partSizing(_ size: Int64) throws -> UploadPartSizing.Plan {
        try UploadPartSizing.plan(
            fileSize: size,
            requestedPartSize: request.options.partSize,
            vendor: client.configuration.vendor
        )
    }

    func save(_ checkpoint: UploadCheckpoint, in sourceCRC64: UInt64?, to path: String) throws {
        try store.save(checkpoint, to: path)
    }

    func failure(_ error: any Error, restarts: Int) -> TransferFailure {
        if let error = error as? ObjectStorageError {
            switch error.code {
            case .objectChanged: return .restart(reason: "the copy source changed during the copy", exhausted: error)
            // A service that answers UploadPartCopy without a result does not copy parts: resuming cannot help.
            case .invalidResponse: return .discard
            default: return .keep
            }
        }
        guard let error = error as? ServiceError else { return .keep }
        if error.code == .preconditionFailed {
            return .restart(reason: "the copy source changed during the copy (PreconditionFailed)", exhausted: error)
        }
        // NoSuchUpload, or Ceph RGW's 404 NoSuchKey for an unknown upload, which an UploadPartCopy also answers
        // when the source is gone: either way this round's parts cannot complete, and the next round's HEAD of the
        // source fails with the source's own error if that is what happened.
        if ObjectStorageClient.isUnknownUpload(error) {
            return .restart(reason: "the upload or the copy source disappeared (\(error.code))", exhausted: error)
        }
        return .keep
    }

    func abandon(_ checkpoint: UploadCheckpoint, in sourceCRC64: UInt64?, discarded: Bool) async {
        await abortQuietly(uploadID: checkpoint.uploadId)
    }

    // MARK: One CopyObject

    /// Copies the source with one CopyObject pinned to `etag`; `nil` when the service refuses a source that large
    /// (the copy then goes part by part).
    private func copyWhole(size: Int64, etag: String) async throws -> TransferResult? {
        let reporter = TransferProgressReporter(totalBytes: size, resumedBytes: 0, handler: progress)
        reporter.begin()
        let written: ObjectWriteResult
        do {
            written = try await client.copyObject(
                bucket: request.bucket,
                key: request.key,
                sourceBucket: request.sourceBucket,
                sourceKey: request.sourceKey,
                sourceVersionID: request.sourceVersionID,
                sourceIfMatch: etag,
                attributes: request.attributes,
                replacesMetadata: request.replacesMetadata,
                condition: request.options.writeCondition,
                logger: logger
            )
        } catch let error as ServiceError where Self.refusesSize(error) {
            logger.notice(
                "the service refuses to copy the source in one request; copying it part by part",
                metadata: ["os.code": "\(error.code)"]
            )
            return nil
        }
        reporter.add(size)
        reporter.finish()
        return TransferResult(
            singleRequest: written,
            size: size,
            verification: .none(reason: "a server-side copy moves no bytes through the client"),
            contentMD5Verified: false
        )
    }

    /// Whether `error` is a service's refusal of a CopyObject source too large for one request: S3's and OBS's
    /// `InvalidRequest` ("The specified copy source is larger than the maximum allowable size…"), OSS's
    /// `EntityTooLarge`.
    static func refusesSize(_ error: ServiceError) -> Bool {
        error.code == "EntityTooLarge"
            || (error.code == "InvalidRequest" && error.message.contains("copy source is larger than"))
    }

    // MARK: Parts

    /// Copies one range of the source as a part, pinned to the source's ETag.
    func transfer(
        part number: Int,
        of checkpoint: UploadCheckpoint,
        in sourceCRC64: UInt64?,
        reporter: TransferProgressReporter
    ) async throws -> UploadCheckpoint.UploadedPart {
        let range = checkpoint.range(ofPart: number)
        if isStreamed { return try await streamPart(number, range: range, of: checkpoint, reporter: reporter) }
        let etag = try await client.uploadPartCopy(
            bucket: request.bucket,
            key: request.key,
            uploadID: checkpoint.uploadId,
            partNumber: number,
            sourceBucket: request.sourceBucket,
            sourceKey: request.sourceKey,
            sourceVersionID: request.sourceVersionID,
            range: range,
            sourceIfMatch: checkpoint.copySource?.etag,
            logger: logger
        )
        reporter.add(range.upperBound - range.lowerBound)
        return UploadCheckpoint.UploadedPart(number: number, etag: etag, size: range.upperBound - range.lowerBound)
    }

    /// Completes the upload once every part is recorded and removes the checkpoint.
    ///
    /// The source is looked up once more first: a service that ignores `If-Match` on the copy source (moto
    /// does) would otherwise let a source replaced between two parts make a copy mixed from two versions.
    func finish(_ finished: UploadCheckpoint, in sourceCRC64: UInt64?) async throws -> TransferCompletion {
        let now = try await sourceClient.headObject(
            bucket: request.sourceBucket,
            key: request.sourceKey,
            versionID: request.sourceVersionID,
            logger: logger
        )
        if let pinned = finished.copySource?.etag, now.etag != pinned {
            throw ObjectStorageError(
                code: .objectChanged,
                message: "the copy source changed during the copy (ETag \(pinned), now \(now.etag ?? "none"))"
            )
        }
        guard isStreamed else {
            return try await client.completeUpload(
                finished,
                checkpointPath: checkpointPath,
                store: store,
                expectedCRC64: sourceCRC64,
                condition: request.options.writeCondition,
                verify: request.options.verifiesIntegrity,
                logger: logger
            )
        }
        return try await completeStreamed(finished, sourceCRC64: sourceCRC64)
    }

    private func abortQuietly(uploadID: String) async {
        await client.abortUploadQuietly(bucket: request.bucket, key: request.key, uploadID: uploadID, logger: logger)
    }
}
