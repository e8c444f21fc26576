//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageCheckpoint

/// What the checkpointed multipart transfers (a file upload, a server-side copy) do with the upload they record.
extension ObjectStorageClient {
    /// Lists the server's parts of the checkpoint's upload and keeps only the recorded parts it confirms (same
    /// number, ETag and size); the others are transferred again.
    ///
    /// - Parameters:
    ///   - checkpoint: The loaded checkpoint; its identity names the bucket and key.
    ///   - logger: The transfer's logger.
    /// - Returns: The checkpoint without the parts the server does not confirm.
    /// - Throws: ``ServiceError`` (`NoSuchUpload` when the upload is gone), transport errors.
    func reconciled(_ checkpoint: UploadCheckpoint, logger: Logger) async throws -> UploadCheckpoint {
        var serverParts: [UploadCheckpoint.ServerPart] = []
        let pages = self.listParts(
            bucket: checkpoint.identity.bucket,
            key: checkpoint.identity.key,
            uploadID: checkpoint.uploadId,
            logger: logger
        )
        for try await page in pages {
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

    /// Aborts a multipart upload, ignoring failures (logged), even when the calling task is cancelled.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - uploadID: The upload to abort; one already gone is fine.
    ///   - logger: The transfer's logger.
    /// - Returns: Whether the upload is gone (aborted now or before).
    @discardableResult
    func abortUploadQuietly(bucket: String, key: String, uploadID: String, logger: Logger) async -> Bool {
        // A cancelled task cannot send requests; the abort runs in its own task.
        await Task {
            do {
                try await self.abortMultipartUpload(bucket: bucket, key: key, uploadID: uploadID, logger: logger)
                return true
            } catch let error as ServiceError where error.code == .noSuchUpload {
                return true
            } catch {
                logger.warning(
                    "could not abort the multipart upload: \(error)",
                    metadata: ["os.upload_id": "\(uploadID)"]
                )
                return false
            }
        }.value
    }

    /// Loads the checkpoint a multipart transfer may resume. One that no longer applies (its source changed,
    /// other parameters, another destination) is removed, and its upload aborted (see
    /// ``abortReplacedUpload(_:by:logger:)`` for one of another destination).
    ///
    /// - Parameters:
    ///   - path: The checkpoint path.
    ///   - expectation: What the checkpoint must match.
    ///   - store: The checkpoint store.
    ///   - restarts: Counts an aborted stale upload as a restart.
    ///   - logger: The transfer's logger.
    /// - Returns: The loaded checkpoint, or `nil` to start afresh.
    /// - Throws: ``CheckpointError`` when a stale checkpoint cannot be removed.
    func loadUploadCheckpoint(
        at path: String,
        expecting expectation: UploadCheckpoint.Expectation,
        store: CheckpointStore,
        restarts: inout Int,
        logger: Logger
    ) async throws -> UploadCheckpoint? {
        switch store.load(at: path, expecting: expectation) {
        case .loaded(let checkpoint):
            return checkpoint
        case .discarded(let reason, let previous):
            if let previous, previous.identity.firstDifference(from: expectation.identity) == nil {
                logger.notice(
                    "the checkpoint no longer applies (\(reason.code)); aborting its upload and starting over",
                    metadata: ["os.upload_id": "\(previous.uploadId)"]
                )
                await self.abortUploadQuietly(
                    bucket: previous.identity.bucket,
                    key: previous.identity.key,
                    uploadID: previous.uploadId,
                    logger: logger
                )
                restarts += 1
            } else if let previous {
                await self.abortReplacedUpload(previous, by: expectation.identity, logger: logger)
            }
            if !reason.isMissing { try store.remove(at: path) }
            return nil
        }
    }

    /// Never leaves an upload behind silently: the checkpoint at the path this transfer uses recorded a paused
    /// upload to another destination (the same file sent to another key), which no run can resume once the
    /// checkpoint is replaced. Aborts it when it is on this client's service, and says so; an upload on another
    /// service is left, with a warning that names it and how to abort it.
    ///
    /// - Parameters:
    ///   - previous: The authentic checkpoint being replaced.
    ///   - identity: The destination of the transfer that replaces it.
    ///   - logger: The transfer's logger.
    private func abortReplacedUpload(
        _ previous: UploadCheckpoint,
        by identity: UploadCheckpoint.Identity,
        logger: Logger
    ) async {
        let old = previous.identity
        let destination = "bucket '\(old.bucket)', key '\(old.key)'"
        let metadata: Logger.Metadata = ["os.upload_id": "\(previous.uploadId)"]
        guard old.vendor == identity.vendor, old.endpoint == identity.endpoint else {
            let text =
                "the paused upload to \(destination) on \(old.endpoint) is left there unfinished: this transfer "
                + "replaces its checkpoint; abort it with `objstore rm --incomplete` on that service"
            logger.warning("\(text)", metadata: metadata)
            return
        }
        guard
            await self.abortUploadQuietly(bucket: old.bucket, key: old.key, uploadID: previous.uploadId, logger: logger)
        else { return }
        let text =
            "aborted the paused upload to \(destination): this transfer to bucket '\(identity.bucket)', key "
            + "'\(identity.key)' replaces its checkpoint"
        logger.warning("\(text)", metadata: metadata)
    }

    /// How an upload or a copy resumes a loaded checkpoint: with the checkpoint reconciled with the parts the server
    /// lists (and saved), or, when the server no longer knows the upload, with the completion of the run that
    /// finished it (if one did).
    ///
    /// - Parameters:
    ///   - checkpoint: The loaded checkpoint.
    ///   - session: The round's session, for the parts to move.
    ///   - path: The checkpoint path, or `nil` without a checkpoint.
    ///   - store: The checkpoint store.
    ///   - restarts: Counts an upload that is gone as a restart.
    ///   - noun: What starts over, for the log (`upload`, `copy`).
    ///   - logger: The transfer's logger.
    /// - Returns: How the round starts, or `nil` when the upload is gone unfinished: the checkpoint is then removed
    ///   and a new upload must start.
    /// - Throws: The listing's errors other than an unknown upload; ``CheckpointError`` when the checkpoint cannot
    ///   be saved or removed.
    func resumeUpload<Strategy: TransferStrategy>(
        _ checkpoint: UploadCheckpoint,
        session: Strategy.Session,
        at path: String?,
        store: CheckpointStore,
        restarts: inout Int,
        noun: String,
        logger: Logger
    ) async throws -> TransferStart<Strategy>? where Strategy.Checkpoint == UploadCheckpoint {
        do {
            let reconciled = try await self.reconciled(checkpoint, logger: logger)
            if let path { try store.save(reconciled, to: path) }
            return .parts(reconciled, session)
        } catch let error where Self.isUnknownUpload(error) {
            // ListParts is the only request here: a NoSuchKey names the upload, not a copy's source.
            if let completion = await self.completedEarlier(checkpoint, logger: logger) {
                return .finishedEarlier(checkpoint, completion)
            }
            logger.notice(
                "the checkpoint's upload no longer exists on the server; starting a new \(noun)",
                metadata: ["os.upload_id": "\(checkpoint.uploadId)"]
            )
            restarts += 1
            if let path { try store.remove(at: path) }
            return nil
        }
    }

    /// Completes a checkpointed multipart upload with its recorded parts, removes the checkpoint, and compares the
    /// object's CRC-64, when the service reports one, with `expectedCRC64`.
    ///
    /// A Complete that fails in a way that may mean the upload is gone (``mayMeanUploadGone(_:)``) is settled by
    /// ``completionAfterFailedComplete(_:completeError:logger:)``; an answer without an ETag (Ceph RGW) takes the
    /// object's from a HEAD when it is the object these parts make.
    ///
    /// - Parameters:
    ///   - finished: The checkpoint with every part recorded; its identity names the bucket and key.
    ///   - checkpointPath: The checkpoint file, removed once the upload is complete.
    ///   - store: The checkpoint store.
    ///   - expectedCRC64: The CRC-64/XZ the object must have, or `nil` when unknown.
    ///   - checksum: The object's checksum and each part's (``SentChecksum``), sent with the completion for the
    ///     service to check; `nil` to send none.
    ///   - condition: The completion's ``WriteCondition``, `nil` for none.
    ///   - verify: Whether to compare (``TransferOptions/integrityCheck`` is not `.off`).
    ///   - logger: The transfer's logger.
    /// - Returns: The completion, with what was verified.
    /// - Throws: ``ServiceError``, transport errors, ``ObjectStorageError/Code/integrityMismatch``.
    func completeUpload(
        _ finished: UploadCheckpoint,
        checkpointPath: String?,
        store: CheckpointStore,
        expectedCRC64: UInt64?,
        checksum: (object: SentChecksum, parts: [Int: UInt64])? = nil,
        condition: WriteCondition? = nil,
        verify: Bool,
        logger: Logger
    ) async throws -> TransferCompletion {
        let completed: ObjectWriteResult
        let reportedChecksum: UInt64?
        do {
            (completed, reportedChecksum) = try await self.completeMultipartUpload(
                bucket: finished.identity.bucket,
                key: finished.identity.key,
                uploadID: finished.uploadId,
                parts: finished.parts.map { CompletedPart(partNumber: $0.number, etag: $0.etag) },
                checksum: checksum,
                condition: condition,
                logger: logger
            )
        } catch let error where Self.mayMeanUploadGone(error) {
            let recovered = try await completionAfterFailedComplete(finished, completeError: error, logger: logger)
            if let checkpointPath { try? store.remove(at: checkpointPath) }
            return recovered
        }
        if let checkpointPath { try? store.remove(at: checkpointPath) }
        let verification = try TransferResult.Verification.completedUpload(
            reported: completed.crc64,
            expected: expectedCRC64,
            sent: checksum?.object,
            reportedChecksum: reportedChecksum,
            verify: verify
        )
        var etag = completed.etag
        if etag == nil { etag = await objectMade(by: finished, logger: logger)?.head.etag }
        return TransferCompletion(
            etag: etag,
            versionID: completed.versionID,
            crc64: completed.crc64,
            verification: verification
        )
    }

    /// Saves the first checkpoint of a new multipart upload (when checkpointing is on), aborting the upload when it
    /// cannot be saved, so that no upload is left that nothing records.
    ///
    /// - Parameters:
    ///   - checkpoint: The new upload's checkpoint.
    ///   - path: The checkpoint path, or `nil` without a checkpoint.
    ///   - store: The checkpoint store.
    ///   - logger: The transfer's logger.
    /// - Throws: ``CheckpointError`` when the save fails (the upload is then aborted).
    func saveNewUploadCheckpoint(
        _ checkpoint: UploadCheckpoint,
        to path: String?,
        store: CheckpointStore,
        logger: Logger
    ) async throws {
        guard let path else { return }
        do {
            try store.save(checkpoint, to: path)
        } catch {
            await self.abortUploadQuietly(
                bucket: checkpoint.identity.bucket,
                key: checkpoint.identity.key,
                uploadID: checkpoint.uploadId,
                logger: logger
            )
            throw error
        }
    }
}
