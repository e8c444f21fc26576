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

/// Creates a bucket.
public struct CreateBucketRequest: Sendable {
    /// The bucket name.
    public var bucket: String
    /// A canned ACL for the bucket.
    public var acl: ObjectACL?
    /// The default storage class (OSS/OBS), sent in the configuration document.
    public var storageClass: StorageClass?
    /// The region constraint (S3 `LocationConstraint`, OBS `Location`); omit for the endpoint's region.
    public var locationConstraint: String?

    /// Creates the request.
    ///
    /// - Parameter bucket: The bucket name.
    public init(bucket: String) { self.bucket = bucket }
}

/// Deletes an empty bucket.
public struct DeleteBucketRequest: Sendable {
    /// The bucket name.
    public var bucket: String

    /// Creates the request.
    ///
    /// - Parameter bucket: The bucket name.
    public init(bucket: String) { self.bucket = bucket }
}

/// Checks that a bucket exists and is accessible.
public struct HeadBucketRequest: Sendable {
    /// The bucket name.
    public var bucket: String

    /// Creates the request.
    ///
    /// - Parameter bucket: The bucket name.
    public init(bucket: String) { self.bucket = bucket }
}

/// The answer to a request that returns nothing but ids.
public struct EmptyResponse: Sendable {
    /// The request id.
    public var requestID: String?
}

/// The answer to ``ObjectStorageClient/listBuckets(logger:)``.
public struct ListBucketsResponse: Sendable {
    /// One bucket.
    public struct Bucket: Sendable, Hashable {
        /// The bucket's name.
        public var name: String
        /// When it was created, when the service says.
        public var creationDate: Date?
        /// Its region or location, when the service says (OSS and OBS do; S3 only on request).
        public var region: String?
    }

    /// The most pages ``ObjectStorageClient/listBuckets(logger:)`` follows: a bound against a service
    /// that never stops saying there is more.
    package static let maximumPages = 1000

    /// The buckets.
    public var buckets: [Bucket]
    /// The request id of the last page.
    public var requestID: String?
}

/// The answer to ``ObjectStorageClient/headBucket(_:logger:)``.
public struct HeadBucketResponse: Sendable {
    /// The bucket's region, when the service reports it.
    public var region: String?
    /// The request id.
    public var requestID: String?
}
