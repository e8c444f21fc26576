//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What a DeleteObject created or removed.
public struct DeletedVersion: Sendable, Hashable {
    /// The version id: of the delete marker a versioned bucket created, or of the version removed; `nil` when the
    /// bucket was never versioned.
    public var versionID: String?
    /// Whether that version is a delete marker (created, or removed by its id).
    public var isDeleteMarker: Bool
}

/// An object, or one version of it, to delete with
/// ``ObjectStorageClient/deleteObjects(bucket:objects:quiet:logger:)``.
public struct ObjectVersion: Sendable, Hashable {
    /// The object key.
    public var key: String
    /// A specific version; `nil` for the current one.
    public var versionID: String?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - key: The object key.
    ///   - versionID: A specific version; `nil` for the current one.
    public init(key: String, versionID: String? = nil) {
        self.key = key
        self.versionID = versionID
    }
}

/// The answer to ``ObjectStorageClient/deleteObjects(bucket:keys:quiet:logger:)`` and
/// ``ObjectStorageClient/deleteObjects(bucket:objects:quiet:logger:)``.
public struct DeleteObjectsResponse: Sendable {
    /// A key that could not be deleted.
    public struct Failure: Sendable, Hashable {
        /// The object key.
        public var key: String
        /// The version id, if any.
        public var versionID: String?
        /// The error code.
        public var code: String
        /// The error message.
        public var message: String
    }

    /// The keys deleted (empty in quiet mode).
    public var deleted: [String]
    /// The keys that failed.
    public var failures: [Failure]
    /// The request id.
    public var requestID: String?
}
