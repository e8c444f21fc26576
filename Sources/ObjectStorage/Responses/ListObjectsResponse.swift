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

/// One page of ``ObjectStorageClient/listObjects(bucket:prefix:delimiter:maxKeys:startAfter:continuationToken:fetchOwner:logger:)``.
public struct ListObjectsResponse: Sendable {
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
    package var keyCount: Int?
    /// The request id.
    public var requestID: String?
}
