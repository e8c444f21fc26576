//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension ObjectStorageClient {
    /// Aborts the unfinished multipart uploads under a prefix, freeing the parts the service keeps (and bills) for
    /// them until then.
    ///
    /// Every upload whose key starts with `prefix` and that was started before `cutoff` is aborted, one after the
    /// other, as the listing streams in. An upload the service reports without a start time is kept when a cutoff
    /// is given (its age is unknown). An upload that is gone by the time it is aborted (completed or aborted
    /// meanwhile) counts as aborted. A checkpointed transfer whose upload is aborted under it
    /// (``uploadFile(from:bucket:key:attributes:options:logger:progress:)``) starts a new upload when it resumes.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only uploads whose key starts with this; every upload in the bucket when `nil`.
    ///   - cutoff: Only uploads started before this instant; every matching upload when `nil`.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The uploads aborted, in listing order.
    /// - Throws: ``ServiceError``, ``ObjectStorageError``, ``/ObjectStorageTransport/TransportError``: the uploads
    ///   aborted before the failure stay aborted.
    @discardableResult
    public func abortMultipartUploads(
        bucket: String,
        prefix: String? = nil,
        startedBefore cutoff: Date? = nil,
        logger: Logger? = nil
    ) async throws -> [ListMultipartUploadsResponse.Upload] {
        var aborted: [ListMultipartUploadsResponse.Upload] = []
        for try await page in listMultipartUploads(bucket: bucket, prefix: prefix, logger: logger) {
            for upload in page.uploads where upload.wasStarted(before: cutoff) {
                do {
                    try await abortMultipartUpload(
                        bucket: bucket,
                        key: upload.key,
                        uploadID: upload.uploadID,
                        logger: logger
                    )
                } catch let error as ServiceError where error.code == .noSuchUpload {
                    // Completed or aborted since it was listed: it no longer holds parts either way.
                }
                aborted.append(upload)
            }
        }
        return aborted
    }
}

extension ListMultipartUploadsResponse.Upload {
    /// Whether the upload was started before `cutoff` (always, when there is no cutoff; never, when the service did
    /// not say when it started and there is one).
    package func wasStarted(before cutoff: Date?) -> Bool {
        guard let cutoff else { return true }
        guard let initiated else { return false }
        return initiated < cutoff
    }
}
