//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint
import ObjectStorageSigning

/// One ``ObjectStorageClient/resumableCopy(bucket:key:from:sourceBucket:sourceKey:sourceVersionID:attributes:replacesMetadata:options:logger:progress:)``
/// call's arguments, as the copy engine reads them.
struct ResumableCopyRequest: Sendable {
    var bucket: String
    var key: String
    var sourceBucket: String
    var sourceKey: String
    var sourceVersionID: String?
    var attributes: UploadAttributes
    var replacesMetadata: Bool
    var options: TransferOptions
    /// The client that reads the source when it is on another endpoint or account: the bytes then stream
    /// through this process (ranged GETs feeding UploadParts); `nil` for a server-side copy.
    var sourceClient: ObjectStorageClient?

    /// The largest source each service copies with one CopyObject: OSS 1 GiB, OBS and S3 5 GiB.
    ///
    /// - Parameter vendor: The vendor.
    /// - Returns: The limit in bytes.
    static func copyObjectLimit(for vendor: StorageVendor) -> Int64 {
        vendor == .oss ? 1 << 30 : 5 << 30
    }

    /// The copy's attributes: the caller's, plus, unless ``replacesMetadata``, the source's media type, user
    /// metadata and content headers; and, between two endpoints of one vendor, the source's storage class and
    /// encryption where the caller set none (a multipart copy carries nothing by itself, unlike CopyObject;
    /// another vendor names its storage classes differently).
    ///
    /// - Parameters:
    ///   - source: The source's HEAD.
    ///   - prefix: The source vendor's header prefix (`x-oss-`...).
    ///   - sameProvider: Whether the source is on the destination's vendor.
    /// - Returns: The attributes for CreateMultipartUpload.
    func attributes(carriedFrom source: ObjectAttributes, prefix: String, sameProvider: Bool) -> UploadAttributes {
        var attributes = self.attributes
        if !replacesMetadata {
            attributes.contentType = source.contentType
            attributes.metadata = source.metadata
            attributes.cacheControl = source.cacheControl
            attributes.contentDisposition = source.contentDisposition
            attributes.contentEncoding = source.contentEncoding
        }
        guard sameProvider else { return attributes }
        if attributes.storageClass == nil, let storageClass = source.storageClass {
            attributes.storageClass = StorageClass(rawValue: storageClass)
        }
        if attributes.serverSideEncryption == nil {
            let header = source.headers.first { $0.name.lowercased() == prefix + "server-side-encryption" }?.value
            switch header?.lowercased() {
            case "aes256": attributes.serverSideEncryption = .aes256
            case "kms", "aws:kms": attributes.serverSideEncryption = .kms()
            default: break
            }
        }
        return attributes
    }
}
