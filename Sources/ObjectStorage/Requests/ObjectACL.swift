//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A canned access control list (`x-oss-object-acl`, `x-obs-acl`, `x-amz-acl`) of an object or a bucket. An open
/// set: each vendor takes its own (``ObjectStorageClient/putBucketACL(bucket:_:logger:)`` and
/// ``ObjectStorageClient/putObjectACL(bucket:key:_:versionID:logger:)`` check the name before sending).
///
/// | | S3 | OSS | OBS |
/// | --- | --- | --- | --- |
/// | ``private``, ``publicRead``, ``publicReadWrite`` | both | both | both |
/// | ``authenticatedRead``, `aws-exec-read` | both | | |
/// | ``logDeliveryWrite`` | bucket | | |
/// | ``bucketOwnerRead`` | object | | |
/// | ``bucketOwnerFullControl`` | object | | object |
/// | ``ossDefault`` | | object | |
/// | ``obsPublicReadDelivered``, ``obsPublicReadWriteDelivered`` | | | bucket |
public struct ObjectACL: Hashable, Sendable, RawRepresentable, ExpressibleByStringLiteral {
    /// The value as sent.
    public var rawValue: String

    /// Creates an ACL value.
    ///
    /// - Parameter rawValue: The value as sent, e.g. `private`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates an ACL value from a literal.
    ///
    /// - Parameter value: The value as sent.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Only the owner has access.
    public static let `private`: ObjectACL = "private"
    /// Anyone may read.
    public static let publicRead: ObjectACL = "public-read"
    /// Anyone may read and write.
    public static let publicReadWrite: ObjectACL = "public-read-write"
    /// OSS: inherit the bucket's ACL.
    public static let ossDefault: ObjectACL = "default"
    /// S3: the owner has full control, any authenticated AWS account may read.
    public static let authenticatedRead: ObjectACL = "authenticated-read"
    /// S3, an object: the bucket's owner may read it.
    public static let bucketOwnerRead: ObjectACL = "bucket-owner-read"
    /// S3 and OBS, an object: the bucket's owner has full control of it.
    public static let bucketOwnerFullControl: ObjectACL = "bucket-owner-full-control"
    /// S3, a bucket: the log delivery group may write access logs to it.
    public static let logDeliveryWrite: ObjectACL = "log-delivery-write"
    /// OBS, a bucket: anyone may read it and its objects.
    public static let obsPublicReadDelivered: ObjectACL = "public-read-delivered"
    /// OBS, a bucket: anyone may read and write it and its objects.
    public static let obsPublicReadWriteDelivered: ObjectACL = "public-read-write-delivered"
}
