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

/// Starts a multipart upload.
public struct CreateMultipartUploadRequest: Sendable {
    /// The bucket.
    public var bucket: String
    /// The object key.
    public var key: String
    /// The final object's media type, metadata, content headers, ACL, storage class and encryption.
    public var attributes: UploadAttributes

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - attributes: What the final object is; the service's defaults when not given.
    public init(bucket: String, key: String, attributes: UploadAttributes = UploadAttributes()) {
        self.bucket = bucket
        self.key = key
        self.attributes = attributes
    }
}

/// The answer to ``ObjectStorageClient/createMultipartUpload(_:logger:)``.
public struct CreateMultipartUploadResponse: Sendable {
    /// The bucket.
    public var bucket: String
    /// The object key.
    public var key: String
    /// The upload id to pass to the other multipart calls.
    public var uploadID: String
    /// The request id.
    public var requestID: String?
}

/// Uploads one part.
public struct UploadPartRequest: Sendable {
    /// The bucket.
    public var bucket: String
    /// The object key.
    public var key: String
    /// The upload id.
    public var uploadID: String
    /// The part number, 1...10000.
    public var partNumber: Int
    /// The part's bytes: usually `.file(path:offset:length:)` over a region of a large file.
    public var body: UploadBody
    /// An explicit `Content-MD5` for the part.
    public var contentMD5: String?

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - uploadID: The upload id.
    ///   - partNumber: The part number, 1...10000.
    ///   - body: The part's bytes.
    public init(bucket: String, key: String, uploadID: String, partNumber: Int, body: UploadBody) {
        self.bucket = bucket
        self.key = key
        self.uploadID = uploadID
        self.partNumber = partNumber
        self.body = body
    }
}

/// The answer to ``ObjectStorageClient/uploadPart(_:logger:)``.
public struct UploadPartResponse: Sendable {
    /// The part number.
    public var partNumber: Int
    /// The part's entity tag, needed to complete the upload.
    public var etag: String
    /// OSS's CRC-64 of the part (already checked against the bytes sent).
    public var crc64: UInt64?
    /// The request id.
    public var requestID: String?

    /// The part as listed in ``CompleteMultipartUploadRequest/parts``.
    public var completedPart: CompletedPart { CompletedPart(partNumber: self.partNumber, etag: self.etag) }
}

/// One uploaded part, as named when completing an upload.
public struct CompletedPart: Sendable, Hashable {
    /// The part number.
    public var partNumber: Int
    /// The part's entity tag.
    public var etag: String

    /// Creates a part reference.
    ///
    /// - Parameters:
    ///   - partNumber: The part number.
    ///   - etag: The part's entity tag.
    public init(partNumber: Int, etag: String) {
        self.partNumber = partNumber
        self.etag = etag
    }
}

/// Completes a multipart upload from its parts.
public struct CompleteMultipartUploadRequest: Sendable {
    /// The bucket.
    public var bucket: String
    /// The object key.
    public var key: String
    /// The upload id.
    public var uploadID: String
    /// The parts, in ascending part-number order.
    public var parts: [CompletedPart]

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - uploadID: The upload id.
    ///   - parts: The parts (sorted by part number when sent).
    public init(bucket: String, key: String, uploadID: String, parts: [CompletedPart]) {
        self.bucket = bucket
        self.key = key
        self.uploadID = uploadID
        self.parts = parts
    }
}

/// The answer to ``ObjectStorageClient/completeMultipartUpload(_:logger:)``.
public struct CompleteMultipartUploadResponse: Sendable {
    /// The object's URL.
    public var location: String?
    /// The object's entity tag.
    public var etag: String?
    /// The version id, if versioning is on.
    public var versionID: String?
    /// OSS's CRC-64 of the whole object.
    public var crc64: UInt64?
    /// The request id.
    public var requestID: String?
}

/// Aborts a multipart upload and frees its parts.
public struct AbortMultipartUploadRequest: Sendable {
    /// The bucket.
    public var bucket: String
    /// The object key.
    public var key: String
    /// The upload id.
    public var uploadID: String

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - uploadID: The upload id.
    public init(bucket: String, key: String, uploadID: String) {
        self.bucket = bucket
        self.key = key
        self.uploadID = uploadID
    }
}

/// Lists the parts of an upload, page by page.
public struct ListPartsRequest: Sendable {
    /// The bucket.
    public var bucket: String
    /// The object key.
    public var key: String
    /// The upload id.
    public var uploadID: String
    /// The most parts per page.
    public var maxParts: Int?

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - uploadID: The upload id.
    public init(bucket: String, key: String, uploadID: String) {
        self.bucket = bucket
        self.key = key
        self.uploadID = uploadID
    }
}

/// One page of ``ObjectStorageClient/listParts(_:logger:)``.
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
    public var isTruncated: Bool
    /// The marker of the next page.
    public var nextPartNumberMarker: Int?
    /// The request id.
    public var requestID: String?
}

/// Lists the multipart uploads in progress in a bucket, page by page.
public struct ListMultipartUploadsRequest: Sendable {
    /// The bucket.
    public var bucket: String
    /// Only keys that start with this.
    public var prefix: String?
    /// Groups keys into ``ListMultipartUploadsResponse/commonPrefixes``.
    public var delimiter: String?
    /// The most uploads per page.
    public var maxUploads: Int?

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only keys that start with this.
    public init(bucket: String, prefix: String? = nil) {
        self.bucket = bucket
        self.prefix = prefix
    }
}

/// One page of ``ObjectStorageClient/listMultipartUploads(_:logger:)``.
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
    public var isTruncated: Bool
    /// The key marker of the next page.
    public var nextKeyMarker: String?
    /// The upload id marker of the next page.
    public var nextUploadIDMarker: String?
    /// The request id.
    public var requestID: String?
}
