//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOHTTP1
import ObjectStorageCheckpoint
import ObjectStorageSigning

/// One call of ``ObjectStorageClient/uploadFile(from:bucket:key:attributes:options:logger:progress:)``:
/// validated inputs and the upload's life cycle (see `UploadCheckpoint` for the checkpoint's part in it).
struct UploadFileOperation: Sendable {
    /// How many times a multipart upload is started over (NoSuchUpload) before giving up.
    static let maximumRestarts = 3

    let client: ObjectStorageClient
    let request: UploadFileRequest
    let progress: TransferProgressHandler?
    let logger: Logger
    let sourcePath: String
    let identity: UploadCheckpoint.Identity
    let parameters: UploadCheckpoint.ObjectParameters
    let contentType: String

    init(
        client: ObjectStorageClient,
        request: UploadFileRequest,
        progress: TransferProgressHandler?,
        logger: Logger
    ) throws {
        try request.options.validate()
        guard !request.bucket.isEmpty, !request.key.isEmpty else {
            throw ObjectStorageError.invalidArgument("uploadFile needs a bucket and a key")
        }
        self.client = client
        self.request = request
        self.progress = progress
        self.logger = logger
        self.identity = try Self.identity(of: request, configuration: client.configuration)
        self.sourcePath = self.identity.sourcePath
        self.contentType = request.contentType ?? MediaTypes.guess(forPath: request.filePath)
        self.parameters = Self.parameters(of: request, contentType: self.contentType)
    }

    /// The object's attributes, with the media type guessed when the caller gave none.
    var attributes: UploadAttributes {
        var attributes = request.attributes
        attributes.contentType = contentType
        return attributes
    }

    static func identity(
        of request: UploadFileRequest,
        configuration: ObjectStorageClient.Configuration
    ) throws -> UploadCheckpoint.Identity {
        UploadCheckpoint.Identity(
            provider: configuration.provider.description,
            endpoint: configuration.endpoint.description,
            bucket: request.bucket,
            key: request.key,
            sourcePath: try CheckpointPaths.absolute(request.filePath)
        )
    }

    static func parameters(of request: UploadFileRequest, contentType: String) -> UploadCheckpoint.ObjectParameters {
        var parameters = UploadCheckpoint.ObjectParameters(
            contentType: contentType,
            metadata: request.metadata,
            storageClass: request.storageClass?.rawValue,
            acl: request.acl?.rawValue,
            websiteRedirectLocation: request.websiteRedirectLocation
        )
        let contentHeaders = [
            "cache-control": request.attributes.cacheControl,
            "content-disposition": request.attributes.contentDisposition,
            "content-encoding": request.attributes.contentEncoding,
        ]
        parameters.additionalHeaders = contentHeaders.compactMapValues { $0 }
        switch request.serverSideEncryption?.kind {
        case .aes256:
            parameters.serverSideEncryption = "AES256"
        case .kms(let keyID):
            parameters.serverSideEncryption = "KMS"
            parameters.serverSideEncryptionKeyId = keyID
        case nil:
            break
        }
        return parameters
    }

    // MARK: Entry

    func run() async throws -> TransferResult {
        let source = try FileIdentity.current(path: sourcePath)
        let plan = try UploadPartSizing.plan(
            fileSize: source.size,
            requestedPartSize: request.partSize,
            provider: client.configuration.provider
        )
        if let requested = plan.clampedFrom {
            logger.warning(
                "part size \(requested) is outside \(client.configuration.provider)'s limits; using \(plan.partSize)",
                metadata: ["os.part_size": "\(plan.partSize)"]
            )
        }
        if plan.enlargedToFit {
            logger.notice(
                "part size raised to \(plan.partSize) so the file fits in \(UploadPartSizing.maximumPartCount) parts",
                metadata: ["os.part_size": "\(plan.partSize)"]
            )
        }
        guard request.enableCheckpoint else {
            if !request.forceMultipart && source.size <= plan.partSize {
                return try await putWhole(source: source)
            }
            return try await multipart(source: source, plan: plan, resuming: nil, checkpointPath: nil, restarts: 0)
        }
        let path = try CheckpointPaths.upload(source: sourcePath, override: request.checkpointFilePath)
        let lock = try CheckpointLock.acquireForTransfer(path)
        defer { lock.release() }
        let store = CheckpointStore(logger: logger)
        store.removeStaleTemporaryFiles(for: path)
        var resuming: UploadCheckpoint?
        var restarts = 0
        switch store.load(
            at: path,
            expecting: UploadCheckpoint.Expectation(identity: identity, source: source, parameters: parameters)
        ) {
        case .loaded(let checkpoint):
            resuming = checkpoint
        case .discarded(let reason, let previous):
            if let previous, previous.identity.firstDifference(from: identity) == nil {
                logger.notice(
                    "the checkpoint no longer applies (\(reason.code)); aborting upload and starting over",
                    metadata: ["os.upload_id": "\(previous.uploadId)"]
                )
                await abortQuietly(uploadID: previous.uploadId)
                restarts += 1
            }
            if !reason.isMissing { try store.remove(at: path) }
        }
        if resuming == nil && !request.forceMultipart && source.size <= plan.partSize {
            return try await putWhole(source: source)
        }
        return try await multipart(
            source: source,
            plan: plan,
            resuming: resuming,
            checkpointPath: path,
            restarts: restarts
        )
    }

    // MARK: Single PUT

    private func putWhole(source: FileIdentity) async throws -> TransferResult {
        var put = PutObjectRequest(bucket: request.bucket, key: request.key, body: .empty, attributes: attributes)
        if request.enableMD5Check {
            put.contentMD5 = try FileRegionDigest.compute(path: sourcePath, range: 0..<source.size).md5Base64
        }
        let reporter = TransferProgressReporter(totalBytes: source.size, resumedBytes: 0, handler: progress)
        reporter.begin()
        let counter = UploadProgressCounter(reporter: reporter)
        let response = try await counter.send(client: client, path: sourcePath, range: 0..<source.size, logger: logger)
        {
            var attempt = put
            attempt.body = $0
            return try await client.putObject(attempt, logger: logger)
        }
        reporter.finish()
        return TransferResult(
            filePath: sourcePath,
            etag: response.etag,
            versionID: response.versionID,
            crc64: response.crc64,
            objectSize: source.size,
            range: 0..<source.size,
            bytesTransferred: source.size,
            bytesReused: 0,
            partSize: source.size,
            partCount: 1,
            partsTransferred: 1,
            partsReused: 0,
            isMultipart: false,
            restarts: 0,
            // The client checked the bytes it sent against the CRC-64 the service reported for the PUT.
            verification: response.crc64.map { .crc64($0) } ?? .none(reason: "the service reports no CRC-64"),
            contentMD5Verified: request.enableMD5Check
        )
    }

    // MARK: Multipart

    private func multipart(
        source: FileIdentity,
        plan: UploadPartSizing.Plan,
        resuming: UploadCheckpoint?,
        checkpointPath: String?,
        restarts initialRestarts: Int
    ) async throws -> TransferResult {
        let store = CheckpointStore(logger: logger)
        var restarts = initialRestarts
        var candidate = resuming
        var existingReporter: TransferProgressReporter?
        while true {
            var checkpoint: UploadCheckpoint
            if let resumed = candidate {
                candidate = nil
                do {
                    checkpoint = try await reconciled(resumed)
                } catch let error as ServiceError where error.code == .noSuchUpload {
                    if let result = await completedEarlier(resumed, restarts: restarts) {
                        if let checkpointPath { try store.remove(at: checkpointPath) }
                        return result
                    }
                    logger.notice(
                        "the checkpoint's upload no longer exists on the server; starting a new upload",
                        metadata: ["os.upload_id": "\(resumed.uploadId)"]
                    )
                    restarts += 1
                    if let checkpointPath { try store.remove(at: checkpointPath) }
                    continue
                }
                if let checkpointPath { try store.save(checkpoint, to: checkpointPath) }
            } else {
                let uploadID = try await createUpload()
                checkpoint = try UploadCheckpoint(
                    identity: identity,
                    source: source,
                    partSize: plan.partSize,
                    uploadId: uploadID,
                    parameters: parameters
                )
                if let checkpointPath {
                    do {
                        try store.save(checkpoint, to: checkpointPath)
                    } catch {
                        await abortQuietly(uploadID: uploadID)
                        throw error
                    }
                }
            }
            let reporter =
                existingReporter
                ?? TransferProgressReporter(
                    totalBytes: source.size,
                    resumedBytes: checkpoint.bytesCompleted,
                    handler: progress
                )
            if existingReporter == nil { reporter.begin() }
            existingReporter = reporter
            let ledger = UploadLedger(checkpoint: checkpoint, path: checkpointPath, store: store)
            do {
                return try await send(
                    ledger: ledger,
                    source: source,
                    reporter: reporter,
                    checkpointPath: checkpointPath,
                    restarts: restarts
                )
            } catch let error as ServiceError where error.code == .noSuchUpload && !Task.isCancelled {
                restarts += 1
                guard restarts <= Self.maximumRestarts else { throw error }
                logger.notice(
                    "the upload disappeared from the server (NoSuchUpload); starting a new upload",
                    metadata: ["os.upload_id": "\(checkpoint.uploadId)"]
                )
                // The bytes counted so far are sent again; the reporter never reports less than
                // before, so progress pauses instead of going back.
                reporter.remove(await ledger.checkpoint.bytesCompleted)
                if let checkpointPath { try store.remove(at: checkpointPath) }
                continue
            } catch {
                if checkpointPath != nil {
                    try? await ledger.flush()
                    logger.info(
                        "upload paused or failed; the checkpoint keeps it for the next call",
                        metadata: ["os.upload_id": "\(checkpoint.uploadId)"]
                    )
                } else {
                    await abortQuietly(uploadID: checkpoint.uploadId)
                }
                throw error
            }
        }
    }

    /// Lists the server's parts and keeps only the recorded parts it confirms.
    private func reconciled(_ checkpoint: UploadCheckpoint) async throws -> UploadCheckpoint {
        var serverParts: [UploadCheckpoint.ServerPart] = []
        let list = ListPartsRequest(bucket: request.bucket, key: request.key, uploadID: checkpoint.uploadId)
        for try await page in client.listParts(list, logger: logger) {
            serverParts += page.parts.map {
                UploadCheckpoint.ServerPart(number: $0.partNumber, etag: $0.etag, size: $0.size)
            }
        }
        var checkpoint = checkpoint
        let dropped = checkpoint.reconcile(withServerParts: serverParts)
        if !dropped.isEmpty {
            logger.notice(
                "parts recorded in the checkpoint but not confirmed by the server are sent again",
                metadata: ["os.parts": "\(dropped)"]
            )
        }
        return checkpoint
    }

    /// Uploads the missing parts, then completes the upload.
    private func send(
        ledger: UploadLedger,
        source: FileIdentity,
        reporter: TransferProgressReporter,
        checkpointPath: String?,
        restarts: Int
    ) async throws -> TransferResult {
        let start = await ledger.checkpoint
        let missing = start.missingPartNumbers
        let concurrency = request.concurrency
        let store = CheckpointStore(logger: logger)
        // A part keeps its concurrency slot until the checkpoint recording it is durable, so a SIGKILL
        // loses at most `concurrency` parts; saves are coalesced (one at a time, of the latest state).
        try await DurablePartScheduler.run(
            parts: missing,
            concurrency: concurrency,
            transfer: { number in try await uploadPart(number, of: start, reporter: reporter) },
            record: { part in _ = try await ledger.record(part) },
            prepareSave: checkpointPath.map { path in
                { generation in
                    let snapshot = await ledger.checkpoint
                    return {
                        try store.save(snapshot, to: path)
                        await ledger.didSave(generation)
                    }
                }
            }
        )
        try await ledger.flush()
        let finished = await ledger.checkpoint
        // A file changed while its parts were read would give an object mixed from two versions.
        let now = try FileIdentity.current(path: sourcePath)
        if let field = now.firstDifference(from: source) {
            await abortQuietly(uploadID: finished.uploadId)
            if let checkpointPath { try? CheckpointStore(logger: logger).remove(at: checkpointPath) }
            throw ObjectStorageError(
                code: .fileSystem,
                message: "'\(sourcePath)' changed (\(field)) while it was being uploaded; the upload was aborted"
            )
        }
        let completed = try await client.completeMultipartUpload(
            CompleteMultipartUploadRequest(
                bucket: request.bucket,
                key: request.key,
                uploadID: finished.uploadId,
                parts: finished.parts.map { CompletedPart(partNumber: $0.number, etag: $0.etag) }
            ),
            logger: logger
        )
        if let checkpointPath { try? CheckpointStore(logger: logger).remove(at: checkpointPath) }
        var crcVerified = TransferResult.Verification.none(
            reason: request.enableCRC64Check ? "the service reports no CRC-64" : "verification turned off"
        )
        if request.enableCRC64Check, let reported = completed.crc64, let combined = finished.combinedCRC64() {
            guard reported == combined else {
                throw ObjectStorageError.integrityMismatch(
                    checksum: "CRC-64/XZ",
                    expected: String(reported),
                    actual: String(combined),
                    operation: "CompleteMultipartUpload"
                )
            }
            crcVerified = .crc64(reported)
        }
        reporter.finish()
        return TransferResult(
            filePath: sourcePath,
            etag: completed.etag,
            versionID: completed.versionID,
            crc64: completed.crc64,
            objectSize: source.size,
            range: 0..<source.size,
            bytesTransferred: source.size - start.bytesCompleted,
            bytesReused: start.bytesCompleted,
            partSize: finished.partSize,
            partCount: finished.partCount,
            partsTransferred: missing.count,
            partsReused: start.parts.count,
            isMultipart: true,
            restarts: restarts,
            verification: crcVerified,
            contentMD5Verified: request.enableMD5Check && finished.parts.allSatisfy { $0.md5 != nil }
        )
    }

    /// Sends one part from its file region.
    ///
    /// - Returns: The part's record for the checkpoint.
    private func uploadPart(
        _ number: Int,
        of checkpoint: UploadCheckpoint,
        reporter: TransferProgressReporter
    ) async throws -> UploadCheckpoint.UploadedPart {
        let range = checkpoint.range(ofPart: number)
        let size = range.upperBound - range.lowerBound
        var digest: FileRegionDigest?
        if request.enableMD5Check {
            digest = try FileRegionDigest.compute(path: sourcePath, range: range)
        }
        var part = UploadPartRequest(
            bucket: request.bucket,
            key: request.key,
            uploadID: checkpoint.uploadId,
            partNumber: number,
            body: .empty
        )
        part.contentMD5 = digest?.md5Base64
        // Progress moves as the part's bytes are read for sending; a failed attempt's bytes are taken back.
        let counter = UploadProgressCounter(reporter: reporter)
        let response = try await counter.send(client: client, path: sourcePath, range: range, logger: logger) {
            var attempt = part
            attempt.body = $0
            return try await client.uploadPart(attempt, logger: logger)
        }
        if let reported = response.crc64, let hashed = digest?.crc64, reported != hashed {
            // The bytes sent (checked by the client against `reported`) are not the bytes hashed:
            // the file changed between the two reads.
            throw ObjectStorageError.integrityMismatch(
                checksum: "CRC-64/XZ",
                expected: String(reported),
                actual: String(hashed),
                operation: "UploadPart \(number)"
            )
        }
        return UploadCheckpoint.UploadedPart(
            number: number,
            etag: response.etag,
            size: size,
            crc64: response.crc64 ?? digest?.crc64,
            md5: digest?.md5Base64
        )
    }

    // MARK: Server calls

    /// CreateMultipartUpload with every object option (including the website redirect location).
    private func createUpload() async throws -> String {
        let create = CreateMultipartUploadRequest(bucket: request.bucket, key: request.key, attributes: attributes)
        return try await client.createMultipartUpload(create, logger: logger).uploadID
    }

    /// Aborts an upload, ignoring failures (logged), even when the calling task is cancelled.
    private func abortQuietly(uploadID: String) async {
        let abort = AbortMultipartUploadRequest(bucket: request.bucket, key: request.key, uploadID: uploadID)
        let client = self.client
        let logger = self.logger
        // A cancelled task cannot send requests; the abort runs in its own task.
        await Task {
            do {
                try await client.abortMultipartUpload(abort, logger: logger)
            } catch let error as ServiceError where error.code == .noSuchUpload {
                return
            } catch {
                logger.warning(
                    "could not abort the multipart upload: \(error)",
                    metadata: ["os.upload_id": "\(uploadID)"]
                )
            }
        }.value
    }
}
