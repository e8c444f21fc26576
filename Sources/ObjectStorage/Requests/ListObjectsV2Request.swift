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

/// Lists objects (ListObjectsV2), page by page.
public struct ListObjectsV2Request: Sendable {
    /// The bucket.
    public var bucket: String
    /// Only keys that start with this.
    public var prefix: String?
    /// Groups keys sharing a prefix up to this character into ``ListObjectsV2Response/commonPrefixes``.
    public var delimiter: String?
    /// The most keys per page (the service caps it at 1000).
    public var maxKeys: Int?
    /// Start after this key.
    public var startAfter: String?
    /// Resume from a continuation token of an earlier listing.
    public var continuationToken: String?
    /// Include each object's owner.
    public var fetchOwner = false

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only keys that start with this.
    ///   - delimiter: The grouping character, usually `/`.
    public init(bucket: String, prefix: String? = nil, delimiter: String? = nil) {
        self.bucket = bucket
        self.prefix = prefix
        self.delimiter = delimiter
    }
}

/// One page of ``ObjectStorageClient/listObjectsV2(_:logger:)``.
public struct ListObjectsV2Response: Sendable {
    /// One object in a listing.
    public struct Object: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The size in bytes.
        public var size: Int64
        /// The entity tag.
        public var etag: String?
        /// When it was last modified.
        public var lastModified: Date?
        /// The storage class.
        public var storageClass: String?
        /// The owner's id, when requested.
        public var ownerID: String?
    }

    /// The objects of this page.
    public var contents: [Object]
    /// The grouped prefixes of this page (with a delimiter).
    public var commonPrefixes: [String]
    /// Whether more pages follow.
    public var isTruncated: Bool
    /// The token of the next page.
    public var nextContinuationToken: String?
    /// The number of keys and prefixes in this page.
    public var keyCount: Int?
    /// The request id.
    public var requestID: String?
}
