//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Copies an object server-side (up to 5 GiB) in one request.
public struct CopyObjectRequest: Sendable {
    /// What happens to the metadata.
    public struct MetadataDirective: Hashable, Sendable {
        let value: String
        /// Keep the source's metadata (the default).
        public static let copy = MetadataDirective(value: "COPY")
        /// Use the metadata of this request.
        public static let replace = MetadataDirective(value: "REPLACE")
    }

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
    /// Copy or replace the metadata.
    public var metadataDirective: MetadataDirective?
    /// New user metadata (with ``MetadataDirective/replace``).
    public var metadata: [String: String] = [:]
    /// New media type (with ``MetadataDirective/replace``).
    public var contentType: String?
    /// Copy only if the source's ETag matches.
    public var sourceIfMatch: String?
    /// Copy only if the source's ETag differs.
    public var sourceIfNoneMatch: String?
    /// A canned ACL for the copy.
    public var acl: ObjectACL?
    /// The copy's storage class.
    public var storageClass: StorageClass?
    /// Server-side encryption of the copy.
    public var serverSideEncryption: ServerSideEncryption?

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

/// The answer to ``ObjectStorageClient/copyObject(_:logger:)``.
public struct CopyObjectResponse: Sendable {
    /// The copy's entity tag.
    public var etag: String?
    /// When the copy was written.
    public var lastModified: Date?
    /// The copy's version id.
    public var versionID: String?
    /// The request id.
    public var requestID: String?
}
