//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// What the server speaks to one request in a vendor's dialect: the vendor's headers, limits and formats.
///
/// The server picks the vendor per request from how the request is signed; an anonymous request gets the S3
/// dialect, or on a server started by ``LocalObjectServer/withRunning(vendor:faults:logger:configureServer:configureClient:isolation:_:)``
/// the vendor named there.
extension StorageVendor {
    /// The prefix of user-metadata headers.
    var metadataPrefix: String { headerPrefix + "meta-" }

    /// The header carrying the request id.
    var requestIDHeader: String { headerPrefix + "request-id" }

    /// The header carrying the secondary request id, where the dialect has one.
    var hostIDHeader: String? {
        switch self.kind {
        case .oss: nil
        case .obs: "x-obs-id-2"
        case .s3: "x-amz-id-2"
        }
    }

    /// The storage class of an object stored without one.
    var defaultStorageClass: String {
        switch self.kind {
        case .oss: "Standard"
        case .obs, .s3: "STANDARD"
        }
    }

    /// The smallest size of a part that is not the last one.
    var minimumPartSize: Int64 {
        switch self.kind {
        case .s3: 5 * 1024 * 1024
        case .oss, .obs: 100 * 1024
        }
    }

    /// The longest key, in UTF-8 bytes: 1,023 for OSS, 1,024 for OBS and S3.
    var maximumKeyLength: Int {
        switch self.kind {
        case .oss: 1023
        case .obs, .s3: 1024
        }
    }

    /// The largest body of one PutObject or UploadPart: 5 GiB for all three services.
    var maximumSinglePutSize: Int64 { 5 * 1024 * 1024 * 1024 }

    /// The largest source one CopyObject copies: 1 GiB for OSS, 5 GiB for OBS and S3 (larger objects are copied
    /// part by part, with UploadPartCopy, whose ranges may each be up to ``maximumSinglePutSize``).
    var maximumCopyObjectSourceSize: Int64 {
        switch self.kind {
        case .oss: 1024 * 1024 * 1024
        case .obs, .s3: 5 * 1024 * 1024 * 1024
        }
    }

    /// The `Server` response header a client of this dialect expects.
    var serverName: String {
        switch self.kind {
        case .oss: "AliyunOSS"
        case .obs: "OBS"
        case .s3: "AmazonS3"
        }
    }

    /// The XML namespace of response documents.
    var xmlNamespace: String? {
        switch self.kind {
        case .oss: nil
        case .obs: "http://obs.myhwclouds.com/doc/2015-06-30/"
        case .s3: "http://s3.amazonaws.com/doc/2006-03-01/"
        }
    }

    /// Formats a stored (lowercase, unquoted) entity tag as this dialect sends it: quoted, and
    /// uppercase for OSS.
    func formatETag(_ etag: String) -> String {
        switch self.kind {
        case .oss: "\"\(etag.uppercased())\""
        case .obs, .s3: "\"\(etag)\""
        }
    }
}
