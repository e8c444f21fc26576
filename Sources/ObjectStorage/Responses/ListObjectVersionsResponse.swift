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

/// A bucket's versioning state. A bucket that was never versioned has none
/// (``ObjectStorageClient/getBucketVersioning(bucket:logger:)`` answers `nil`), and cannot go back to that state.
public enum BucketVersioning: String, Sendable, Hashable, CaseIterable {
    /// Every write keeps a new version; a delete hides the object behind a delete marker.
    case enabled = "Enabled"
    /// Writes and deletes replace the `null` version; the versions kept so far stay.
    case suspended = "Suspended"
}

/// One page of ``ObjectStorageClient/listObjectVersions(bucket:prefix:delimiter:keyMarker:versionIDMarker:maxKeys:logger:)``.
public struct ListObjectVersionsResponse: Sendable {
    /// One version of a key, or a delete marker.
    public struct Version: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The version id (`null` for the version an unversioned or suspended bucket wrote).
        public var versionID: String
        /// Whether this is the key's newest version (a delete marker that is hides the key from listings).
        public var isLatest: Bool
        /// Whether this is a delete marker, which has no content.
        public var isDeleteMarker: Bool
        /// When it was written.
        public var lastModified: Date?
        /// The entity tag (`nil` for a delete marker).
        public var etag: String?
        /// The size in bytes (0 for a delete marker).
        public var size: Int64
        /// The storage class (`nil` for a delete marker).
        public var storageClass: String?
    }

    /// The versions and delete markers of this page: keys in order, each key's versions newest first.
    public var versions: [Version]
    /// The grouped prefixes of this page (with a delimiter).
    public var commonPrefixes: [String]
    /// Whether more pages follow.
    public var isTruncated: Bool
    /// Where the next page starts: a key (or common prefix)...
    public var nextKeyMarker: String?
    /// ...and the version after which it goes on.
    public var nextVersionIDMarker: String?
    /// The request id.
    public var requestID: String?
}
