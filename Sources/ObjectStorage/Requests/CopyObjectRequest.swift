//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Copies an object server-side (up to 5 GiB) in one request.
///
/// The copy keeps the source's media type, user metadata and content headers unless ``replacesMetadata``
/// is set, in which case it takes them from ``attributes`` (and a field left `nil` there is dropped, as the
/// services do). The ACL, storage class and encryption in ``attributes`` apply either way.
///
/// ```swift
/// var request = CopyObjectRequest(sourceBucket: "photos", sourceKey: "cat.jpg", bucket: "archive", key: "cat.jpg")
/// request.attributes.storageClass = .standardIA
/// ```
public struct CopyObjectRequest: Sendable {
    /// The source bucket.
    public var sourceBucket: String
    /// The source key.
    public var sourceKey: String
    /// A specific source version.
    public var sourceVersionID: String?
    /// The destination bucket.
    public var bucket: String
    /// The destination key.
    public var key: String
    /// The copy's attributes: see the type's discussion for which apply when.
    public var attributes = UploadAttributes()
    /// Whether the copy takes its media type, user metadata and content headers from ``attributes``
    /// (`REPLACE`) rather than from the source (`COPY`, the default).
    ///
    /// Setting any of those in ``attributes`` without this is refused with
    /// ``ObjectStorageError/Code-swift.struct/invalidArgument``, rather than silently ignored.
    public var replacesMetadata = false
    /// Copy only if the source's ETag matches.
    public var sourceIfMatch: String?
    /// Copy only if the source's ETag differs.
    public var sourceIfNoneMatch: String?

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - sourceBucket: The source bucket.
    ///   - sourceKey: The source key.
    ///   - bucket: The destination bucket.
    ///   - key: The destination key.
    public init(sourceBucket: String, sourceKey: String, bucket: String, key: String) {
        self.sourceBucket = sourceBucket
        self.sourceKey = sourceKey
        self.bucket = bucket
        self.key = key
    }
}
