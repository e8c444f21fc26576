//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Deletes up to 1000 objects in one request.
public struct DeleteObjectsRequest: Sendable {
    /// One object to delete.
    public struct Object: Sendable, Hashable {
        /// The object key.
        public var key: String
        /// A specific version.
        public var versionID: String?

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - key: The object key.
        ///   - versionID: A specific version.
        public init(key: String, versionID: String? = nil) {
            self.key = key
            self.versionID = versionID
        }
    }

    /// The bucket.
    public var bucket: String
    /// The objects (at most 1000).
    public var objects: [Object]
    /// Report only failures.
    public var quiet = false

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - keys: The object keys.
    public init(bucket: String, keys: [String]) {
        self.bucket = bucket
        self.objects = keys.map { Object(key: $0) }
    }

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - objects: The objects, possibly with versions.
    public init(bucket: String, objects: [Object]) {
        self.bucket = bucket
        self.objects = objects
    }
}

/// The answer to ``ObjectStorageClient/deleteObjects(_:logger:)``.
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
