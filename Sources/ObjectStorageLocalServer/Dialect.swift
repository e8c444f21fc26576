//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The wire dialect the server speaks for one request: Alibaba Cloud OSS, Huawei Cloud OBS or Amazon S3.
///
/// The server picks it per request from how the request is signed; an anonymous request gets the S3 dialect,
/// or on a server started by ``LocalObjectServer/withRunning(dialect:faults:logger:configureServer:configureClient:isolation:_:)`` the dialect
/// named there.
public struct Dialect: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case oss
        case obs
        case s3
    }

    let kind: Kind

    /// Alibaba Cloud OSS: `x-oss-` headers, uppercase ETags, `x-oss-hash-crc64ecma`, `<EC>` in errors.
    public static let oss = Dialect(kind: .oss)
    /// Huawei Cloud OBS: `x-obs-` headers.
    public static let obs = Dialect(kind: .obs)
    /// Amazon S3 and S3-compatible services: `x-amz-` headers.
    public static let s3 = Dialect(kind: .s3)

    /// Parses `oss`, `obs` or `s3` (case-insensitive; `aws` is accepted for S3).
    ///
    /// - Parameter name: The dialect name.
    package init?(name: String) {
        switch name.lowercased() {
        case "oss": self = .oss
        case "obs": self = .obs
        case "s3", "aws": self = .s3
        default: return nil
        }
    }

    init(kind: Kind) { self.kind = kind }

    /// `oss`, `obs` or `s3`.
    public var description: String {
        switch kind {
        case .oss: "oss"
        case .obs: "obs"
        case .s3: "s3"
        }
    }

    /// The prefix of the dialect's own headers, such as `x-oss-`.
    var headerPrefix: String {
        switch kind {
        case .oss: "x-oss-"
        case .obs: "x-obs-"
        case .s3: "x-amz-"
        }
    }

    /// The prefix of user-metadata headers.
    var metadataPrefix: String { headerPrefix + "meta-" }

    /// The header carrying the request id.
    var requestIDHeader: String { headerPrefix + "request-id" }

    /// The header carrying the secondary request id, where the dialect has one.
    var hostIDHeader: String? {
        switch kind {
        case .oss: nil
        case .obs: "x-obs-id-2"
        case .s3: "x-amz-id-2"
        }
    }

    /// The storage class of an object stored without one.
    var defaultStorageClass: String {
        switch kind {
        case .oss: "Standard"
        case .obs, .s3: "STANDARD"
        }
    }

    /// The smallest size of a part that is not the last one.
    var minimumPartSize: Int64 {
        switch kind {
        case .s3: 5 * 1024 * 1024
        case .oss, .obs: 100 * 1024
        }
    }

    /// The longest key, in UTF-8 bytes: 1,023 for OSS, 1,024 for OBS and S3.
    var maximumKeyLength: Int {
        switch kind {
        case .oss: 1023
        case .obs, .s3: 1024
        }
    }

    /// The largest body of one PutObject or UploadPart: 5 GiB for all three services.
    var maximumSinglePutSize: Int64 { 5 * 1024 * 1024 * 1024 }

    /// The largest source one CopyObject copies: 1 GiB for OSS, 5 GiB for OBS and S3 (larger objects are copied
    /// part by part, with UploadPartCopy, whose ranges may each be up to ``maximumSinglePutSize``).
    var maximumCopyObjectSourceSize: Int64 {
        switch kind {
        case .oss: 1024 * 1024 * 1024
        case .obs, .s3: 5 * 1024 * 1024 * 1024
        }
    }

    /// The `Server` response header a client of this dialect expects.
    var serverName: String {
        switch kind {
        case .oss: "AliyunOSS"
        case .obs: "OBS"
        case .s3: "AmazonS3"
        }
    }

    /// The XML namespace of response documents.
    var xmlNamespace: String? {
        switch kind {
        case .oss: nil
        case .obs: "http://obs.myhwclouds.com/doc/2015-06-30/"
        case .s3: "http://s3.amazonaws.com/doc/2006-03-01/"
        }
    }

    /// Formats a stored (lowercase, unquoted) entity tag as this dialect sends it: quoted, and
    /// uppercase for OSS.
    func formatETag(_ etag: String) -> String {
        switch kind {
        case .oss: "\"\(etag.uppercased())\""
        case .obs, .s3: "\"\(etag)\""
        }
    }
}
