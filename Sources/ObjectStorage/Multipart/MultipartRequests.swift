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

/// One uploaded part, as ``ObjectStorageClient/uploadPart(bucket:key:uploadID:partNumber:body:contentMD5:logger:)``
/// returns it and ``ObjectStorageClient/completeMultipartUpload(bucket:key:uploadID:parts:condition:logger:)`` takes it.
public struct CompletedPart: Sendable, Hashable {
    /// The part number.
    public var partNumber: Int
    /// The part's entity tag.
    public var etag: String
    /// OSS's CRC-64 of the part, when the service reported it (already checked against the bytes sent);
    /// not sent when completing.
    public var crc64: UInt64?

    /// Creates a part reference.
    ///
    /// - Parameters:
    ///   - partNumber: The part number.
    ///   - etag: The part's entity tag.
    ///   - crc64: The part's CRC-64, when known.
    public init(partNumber: Int, etag: String, crc64: UInt64? = nil) {
        self.partNumber = partNumber
        self.etag = etag
        self.crc64 = crc64
    }
}

/// One page of ``ObjectStorageClient/listParts(bucket:key:uploadID:maxParts:logger:)``.
public struct ListPartsResponse: Sendable {
    /// One uploaded part.
    public struct Part: Sendable, Hashable {
        /// The part number.
        public var partNumber: Int
        /// The entity tag.
        public var etag: String
        /// The size in bytes.
        public var size: Int64
        /// When it was uploaded.
        public var lastModified: Date?
        /// OSS's CRC-64 of the part.
        public var crc64: UInt64?
    }

    /// The parts of this page.
    public var parts: [Part]
    /// Whether more pages follow.
    package var isTruncated: Bool
    /// The marker of the next page.
    package var nextPartNumberMarker: Int?
    /// The request id.
    public var requestID: String?
}

/// One page of ``ObjectStorageClient/listMultipartUploads(bucket:prefix:delimiter:maxUploads:logger:)``.
public struct ListMultipartUploadsResponse: Sendable {
    /// One upload in progress.
    public struct Upload: Sendable, Hashable {
        /// The object key.
        public var key: String
        /// The upload id.
        public var uploadID: String
        /// When it was started.
        public var initiated: Date?
        /// The storage class.
        public var storageClass: String?
    }

    /// The uploads of this page.
    public var uploads: [Upload]
    /// The grouped prefixes of this page.
    public var commonPrefixes: [String]
    /// Whether more pages follow.
    package var isTruncated: Bool
    /// The key marker of the next page.
    package var nextKeyMarker: String?
    /// The upload id marker of the next page.
    package var nextUploadIDMarker: String?
    /// The request id.
    public var requestID: String?
}
