//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// A condition the service checks, atomically, when it writes an object: create-only, or compare-and-swap.
///
/// One option for the three services, sent in each one's dialect:
///
/// | | ``ifAbsent`` | ``ifMatch(_:)`` |
/// |---|---|---|
/// | S3 | `If-None-Match: *` on PutObject, CopyObject and CompleteMultipartUpload | `If-Match` on the same |
/// | OSS | `x-oss-forbid-overwrite: true` on PutObject, CopyObject, InitiateMultipartUpload and CompleteMultipartUpload | not offered |
/// | OBS | not offered | not offered |
///
/// What a service does not offer fails with ``ObjectStorageError/Code/unsupported`` before anything is sent.
/// A write whose condition does not hold fails with a ``ServiceError`` whose
/// ``ServiceError/isWriteConditionFailure`` is true: S3 `PreconditionFailed` (412), or
/// `ConditionalRequestConflict` (409) when a concurrent write won; OSS `FileAlreadyExists` (409).
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// var request = PutObjectRequest(bucket: "locks", key: "leader", body: .bytes(Array("node-1".utf8)))
/// request.condition = .ifAbsent
/// do {
///     try await client.putObject(request)
/// } catch let error as ServiceError where error.isWriteConditionFailure {
///     // another writer holds the key
/// }
/// ```
///
/// A retried attempt: the client retries a write whose answer was lost (a reset connection, a timeout, a 5xx)
/// like any other. If the lost attempt had in fact written the object, the retry finds it there and reports the
/// condition failure, although the object holds the caller's bytes. A caller that must tell the two apart reads
/// the object's ETag or checksum (``ObjectStorageClient/headObject(bucket:key:versionID:ifMatch:ifNoneMatch:logger:)``)
/// and compares it with what it wrote, or sets ``ObjectStorageClient/Configuration/retry`` to one attempt.
public enum WriteCondition: Sendable, Hashable {
    /// Write only if no object has the key (create-only).
    case ifAbsent
    /// Write only if the current object's ETag is this one (compare-and-swap); quoted or not.
    case ifMatch(String)
}

extension WriteCondition {
    /// The write a condition goes with, as each service accepts conditions on some and not others.
    enum Write: String {
        case putObject = "PutObject"
        case copyObject = "CopyObject"
        case createMultipartUpload = "CreateMultipartUpload"
        case completeMultipartUpload = "CompleteMultipartUpload"
    }

    /// The headers that carry the condition on `write` to `vendor`; none where the service checks the condition
    /// on another request of the same upload (S3 checks a multipart upload's at completion only).
    ///
    /// - Throws: ``ObjectStorageError/Code/unsupported`` when the service offers no such condition.
    func headers(for write: Write, vendor: StorageVendor) throws(ObjectStorageError) -> [(String, String)] {
        switch (vendor.kind, self) {
        case (.s3, .ifAbsent):
            return write == .createMultipartUpload ? [] : [("If-None-Match", "*")]
        case (.s3, .ifMatch(let etag)):
            guard !etag.isEmpty else { throw .invalidArgument("WriteCondition.ifMatch needs an ETag") }
            return write == .createMultipartUpload ? [] : [("If-Match", etag)]
        case (.oss, .ifAbsent):
            return [("x-oss-forbid-overwrite", "true")]
        case (.oss, .ifMatch):
            throw .unsupported("OSS offers no compare-and-swap (If-Match) on \(write.rawValue); only create-only")
        case (.obs, _):
            throw .unsupported("OBS documents no conditional \(write.rawValue) (create-only or If-Match)")
        }
    }
}

extension OperationRequest {
    /// Adds `condition`'s headers for `vendor`, or throws before anything is sent when the service has none.
    mutating func add(
        _ condition: WriteCondition?,
        _ write: WriteCondition.Write,
        vendor: StorageVendor
    ) throws(ObjectStorageError) {
        guard let condition else { return }
        for (name, value) in try condition.headers(for: write, vendor: vendor) {
            self.header(name, value)
        }
    }
}
