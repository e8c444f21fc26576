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

/// How the checkpointed multipart transfers (a file upload, a server-side copy) tell an upload the service no
/// longer knows, and whether the object it was making exists anyway: an earlier run completed it and was killed
/// before removing its checkpoint, or a CompleteMultipartUpload succeeded but its answer was lost.
extension ObjectStorageClient {
    /// Whether `error`, thrown by a request that names an upload id, says the service does not know that upload:
    /// `NoSuchUpload`, or the `404 NoSuchKey` that Ceph RGW answers ListParts with for an unknown upload.
    ///
    /// Use it only for requests whose key is the upload's own (ListParts, UploadPart, Complete): an
    /// UploadPartCopy's `NoSuchKey` may mean that the copy source is gone.
    static func isUnknownUpload(_ error: any Error) -> Bool {
        guard let error = error as? ServiceError else { return false }
        return error.code == .noSuchUpload || (error.statusCode == 404 && error.code == .noSuchKey)
    }

    /// Whether a failed CompleteMultipartUpload may mean that the upload is gone: `NoSuchUpload` (S3, OSS, OBS)
    /// or a server error (Ceph RGW answers an unknown upload id with `500 InternalError`).
    static func mayMeanUploadGone(_ error: any Error) -> Bool {
        guard let error = error as? ServiceError else { return false }
        return error.statusCode >= 500 || isUnknownUpload(error)
    }

    /// The object of an upload that an earlier run had already completed (the resume found the upload gone).
    ///
    /// - Returns: The completion, or `nil` when ``objectMade(by:logger:)`` does not find the object (the caller
    ///   starts a new upload).
    func completedEarlier(_ checkpoint: UploadCheckpoint, logger: Logger) async -> TransferCompletion? {
        guard let (head, crc64, verification) = await objectMade(by: checkpoint, logger: logger) else { return nil }
        let verifiedBy = if case .crc64 = verification { "crc64" } else { "etag" }
        logger.notice(
            "the upload was already completed by an earlier run; removed the leftover checkpoint",
            metadata: ["os.upload_id": "\(checkpoint.uploadId)", "os.verified": "\(verifiedBy)"]
        )
        return TransferCompletion(etag: head.etag, versionID: head.versionID, crc64: crc64, verification: verification)
    }

    /// What a CompleteMultipartUpload that failed with `completeError` (``mayMeanUploadGone(_:)``) leaves, asked of
    /// the service with ListParts:
    /// - the upload still exists: `completeError` is thrown (the checkpoint keeps every part for the next call);
    /// - it is gone and the object is the one the parts make (``objectMade(by:logger:)``): an earlier attempt
    ///   completed it and only its answer was lost, so this is the completion;
    /// - it is gone otherwise (aborted, expired): ListParts' error is thrown, which the strategies' failure
    ///   classification turns into a restart.
    ///
    /// - Throws: `completeError`, or the ListParts error that says the upload is unknown.
    func completionAfterFailedComplete(
        _ checkpoint: UploadCheckpoint,
        completeError: any Error,
        logger: Logger
    ) async throws -> TransferCompletion {
        do {
            let pages = self.listParts(
                bucket: checkpoint.identity.bucket,
                key: checkpoint.identity.key,
                uploadID: checkpoint.uploadId,
                maxParts: 1,
                logger: logger
            )
            for try await _ in pages { break }
        } catch let listError where Self.isUnknownUpload(listError) {
            guard let (head, crc64, verification) = await objectMade(by: checkpoint, logger: logger) else {
                throw listError
            }
            logger.notice(
                "CompleteMultipartUpload failed but the upload is gone and the object is complete",
                metadata: ["os.upload_id": "\(checkpoint.uploadId)"]
            )
            return TransferCompletion(
                etag: head.etag,
                versionID: head.versionID,
                crc64: crc64,
                verification: verification
            )
        } catch {
            logger.debug("could not check whether the upload still exists: \(error)")
        }
        throw completeError
    }

    /// The object as a HEAD reports it, when it is the one the multipart upload of `checkpoint` makes.
    ///
    /// Applies only when the checkpoint records every part. The object must have the source's size and either
    /// a CRC-64 equal to the combined part CRC-64s or, without CRC-64s, the multipart ETag of the recorded
    /// part ETags.
    ///
    /// - Returns: The HEAD, the object's CRC-64 and how the match was verified; `nil` when the HEAD fails or
    ///   the object is another one.
    func objectMade(
        by checkpoint: UploadCheckpoint,
        logger: Logger
    ) async -> (head: ObjectAttributes, crc64: UInt64?, verification: TransferResult.Verification)? {
        guard checkpoint.isComplete else { return nil }
        let head: ObjectAttributes
        do {
            head = try await self.headObject(
                bucket: checkpoint.identity.bucket,
                key: checkpoint.identity.key,
                logger: logger
            )
        } catch {
            logger.debug("could not check whether the upload was completed: \(error)")
            return nil
        }
        guard head.contentLength == checkpoint.source.size else { return nil }
        let crc64 = head.crc64
        var verification = TransferResult.Verification.none(reason: "the service reports no CRC-64")
        if let crc64, let combined = checkpoint.combinedCRC64() {
            guard crc64 == combined else { return nil }
            verification = .crc64(crc64)
        } else {
            guard let etag = head.etag, let expected = MultipartETag.of(partETags: checkpoint.parts.map(\.etag)),
                Self.bareETag(etag) == expected.text
            else { return nil }
        }
        return (head, crc64, verification)
    }

    /// An ETag without `W/`, quotes and case.
    static func bareETag(_ etag: String) -> String {
        var text = Substring(etag)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        while text.first == "\"" { text = text.dropFirst() }
        while text.last == "\"" { text = text.dropLast() }
        return text.lowercased()
    }
}
