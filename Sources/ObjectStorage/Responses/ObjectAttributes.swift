//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorageSigning

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What the service says about an object version in the headers of a GET or HEAD.
public struct ObjectAttributes: Sendable {
    /// The body length of this response (the range's length for a ranged GET).
    public var contentLength: Int64?
    /// The media type.
    public var contentType: String?
    /// The entity tag, quotes included as the service sent it.
    public var etag: String?
    /// When the object was last modified.
    public var lastModified: Date?
    /// User metadata (`x-oss-meta-*`...), names lowercased without the prefix.
    public var metadata: [String: String]
    /// The storage class, when the service reports it (S3 and OBS leave it out for the Standard class).
    public var storageClass: String?
    /// The version id, if versioning is on.
    public var versionID: String?
    /// The service's CRC-64/XZ of the whole object: OSS's (`x-oss-hash-crc64ecma`), or OBS's for an object
    /// uploaded with one (`x-obs-checksum-crc64ecma`).
    public var crc64: UInt64?
    /// S3's CRC-64/NVME of the whole object (`x-amz-checksum-crc64nvme`, which `headObject` and the GETs of whole
    /// objects ask for); `nil` for a checksum of the parts' checksums (`COMPOSITE`).
    public var crc64NVME: UInt64?
    /// `Content-Range` of a ranged GET, e.g. `bytes 0-99/1000`.
    public var contentRange: String?
    /// `Cache-Control`, `Content-Disposition`, `Content-Encoding`, `Content-Language`, `Expires`.
    public var cacheControl: String?
    /// `Content-Disposition`.
    public var contentDisposition: String?
    /// `Content-Encoding`.
    public var contentEncoding: String?
    /// `Content-Language`.
    public var contentLanguage: String?
    /// `Expires`.
    public var expires: String?
    /// The request id.
    public var requestID: String?
    /// Every response header, for anything not modelled here.
    public var headers: [(name: String, value: String)]
    /// How many tags the object has (`x-*-tagging-count`); `nil` when the service says nothing, which most do
    /// for an object without tags. ``ObjectStorageClient/getObjectTagging(bucket:key:versionID:logger:)`` reads
    /// them.
    public var tagCount: Int?
    /// Where the restore of an archived object stands (`x-*-restore`); `nil` when none was asked for, or its
    /// restored copy has expired.
    public var restore: ObjectRestoreState?

    init(headers: HTTPHeaders, prefix: String) {
        self.contentLength = headers.first(name: "Content-Length").flatMap { Int64($0) }
        self.contentType = headers.first(name: "Content-Type")
        self.etag = headers.first(name: "ETag")
        self.lastModified = headers.first(name: "Last-Modified").flatMap(HTTPDates.parse)
        let metaPrefix = prefix + "meta-"
        var metadata: [String: String] = [:]
        // The test allocates nothing: only a metadata header's name is lowercased.
        for header in headers where header.name.hasASCIICaseInsensitivePrefix(metaPrefix) {
            metadata[String(header.name.lowercased().dropFirst(metaPrefix.count))] = header.value
        }
        self.metadata = metadata
        self.storageClass = headers.first(name: prefix + "storage-class")
        self.versionID = headers.first(name: prefix + "version-id")
        self.crc64 = Integrity.reportedCRC64(in: headers)
        self.crc64NVME = S3Checksum.fullObjectValue(in: headers)
        self.contentRange = headers.first(name: "Content-Range")
        self.cacheControl = headers.first(name: "Cache-Control")
        self.contentDisposition = headers.first(name: "Content-Disposition")
        self.contentEncoding = headers.first(name: "Content-Encoding")
        self.contentLanguage = headers.first(name: "Content-Language")
        self.expires = headers.first(name: "Expires")
        self.requestID = headers.requestID
        self.tagCount = headers.first(name: prefix + "tagging-count").flatMap { Int($0) }
        self.restore = headers.first(name: prefix + "restore").flatMap(ObjectRestoreState.init(header:))
        self.headers = headers.map { (name: $0.name, value: $0.value) }
    }
}

extension HTTPHeaders {
    /// The vendor request id header, whichever dialect.
    var requestID: String? {
        self.first(name: "x-oss-request-id") ?? self.first(name: "x-obs-request-id")
            ?? self.first(name: "x-amz-request-id")
    }
}
