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
