//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What the service says about an object it has just written: the answer of
/// ``ObjectStorageClient/putObject(_:logger:)``, ``ObjectStorageClient/copyObject(bucket:key:sourceBucket:sourceKey:sourceVersionID:sourceIfMatch:sourceIfNoneMatch:attributes:replacesMetadata:condition:logger:)`` and
/// ``ObjectStorageClient/completeMultipartUpload(bucket:key:uploadID:parts:condition:logger:)``.
public struct ObjectWriteResult: Sendable, Hashable {
    /// The new object's entity tag, quotes included as the service sent it.
    public var etag: String?
    /// The version id, if versioning is on.
    public var versionID: String?
    /// The service's CRC-64/XZ of the whole object, when it reports one: OSS's, or OBS's for an upload that sent
    /// one (a single PUT's is already checked against the bytes sent).
    public var crc64: UInt64?
    /// When the object was written, when the service says (a copy's answer does).
    public var lastModified: Date?
    /// The request id, for support requests.
    public var requestID: String?
    /// S3's CRC-64/NVME of the whole object, when the answer reports one (``S3Checksum``).
    var crc64nvme: UInt64?

    /// Reads the result from the answer's headers in the vendor's dialect.
    init(headers: HTTPHeaders, prefix: String, etag: String?, lastModified: Date? = nil) {
        self.etag = etag
        self.versionID = headers.first(name: prefix + "version-id")
        self.crc64 = Integrity.reportedCRC64(in: headers)
        self.lastModified = lastModified
        self.requestID = headers.requestID
        self.crc64nvme = S3Checksum.fullObjectValue(in: headers)
    }
}
