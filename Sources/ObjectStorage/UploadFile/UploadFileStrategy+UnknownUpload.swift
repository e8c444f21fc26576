//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageCheckpoint

/// How the upload engine tells an upload id the service no longer knows, in each service's words.
extension UploadFileStrategy {
    /// Whether `error` says the service does not know the upload id: `NoSuchUpload`, or the `404 NoSuchKey`
    /// that Ceph RGW answers ListParts with for an unknown upload (no other request of the engine names a key
    /// that may be missing: its HEADs handle their own errors).
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

    /// What a CompleteMultipartUpload that failed with `completeError` (``mayMeanUploadGone(_:)``) leaves, asked of the
    /// service with ListParts:
    /// - the upload still exists: `completeError` is thrown (the checkpoint keeps every part for the next call);
    /// - it is gone and the object is the one the parts make (``objectMatching(_:)``): an earlier attempt
    ///   completed it and only its answer was lost, so this is the completion;
    /// - it is gone otherwise (aborted, expired): ListParts' error is thrown, which ``failure(_:restarts:)``
    ///   turns into a restart.
    ///
    /// - Throws: `completeError`, or the ListParts error that says the upload is unknown.
    func completionAfterFailedComplete(
        _ checkpoint: UploadCheckpoint,
        completeError: any Error
    ) async throws -> TransferCompletion {
        do {
            let pages = client.listParts(
                bucket: request.bucket,
                key: request.key,
                uploadID: checkpoint.uploadId,
                maxParts: 1,
                logger: logger
            )
            for try await _ in pages { break }
        } catch let listError where Self.isUnknownUpload(listError) {
            guard let (head, crc64, verification) = await objectMatching(checkpoint) else { throw listError }
            logger.notice(
                "CompleteMultipartUpload failed but the upload is gone and the object is complete",
                metadata: ["os.upload_id": "\(checkpoint.uploadId)"]
            )
            return TransferCompletion(
                etag: head.etag,
                versionID: head.versionID,
                crc64: crc64,
                verification: verification,
                contentMD5Verified: request.enableMD5Check && checkpoint.parts.allSatisfy { $0.md5 != nil }
            )
        } catch {
            logger.debug("could not check whether the upload still exists: \(error)")
        }
        throw completeError
    }
}
