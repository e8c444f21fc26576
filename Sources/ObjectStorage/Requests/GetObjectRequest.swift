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

/// Downloads an object, all of it or a range.
public struct GetObjectRequest: Sendable {
    /// The bucket.
    public var bucket: String
    /// The object key.
    public var key: String
    /// A byte range; the CRC-64 check applies only to whole-object reads.
    public var range: ByteRange?
    /// Succeed only if the ETag matches (else 412 `PreconditionFailed`).
    public var ifMatch: String?
    /// Succeed only if the ETag differs (else 304 `NotModified`).
    public var ifNoneMatch: String?
    /// Succeed only if modified after this time (else 304).
    public var ifModifiedSince: Date?
    /// Succeed only if not modified after this time (else 412).
    public var ifUnmodifiedSince: Date?
    /// A specific version.
    public var versionID: String?

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    public init(bucket: String, key: String) {
        self.bucket = bucket
        self.key = key
    }
}
