//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An object storage service: Alibaba Cloud OSS, Huawei Cloud OBS or Amazon S3 (and S3-compatible servers).
///
/// The one name of the vendor everywhere: a client's configuration, the environment variables it reads, the
/// dialect the local server speaks, and the vendor's conventions (its default region, its signature, its public
/// endpoints). An open set: new vendors may be added without breaking `switch`-free code.
///
/// ```swift
/// import ObjectStorage
///
/// let vendor = StorageVendor.oss
/// print(vendor)  // oss
/// ```
public struct StorageVendor: Hashable, Sendable, CustomStringConvertible {
    /// The vendors this SDK knows, for exhaustive switches inside the package.
    package enum Kind: Hashable, Sendable {
        case oss, obs, s3
    }

    /// Which vendor.
    package let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// Alibaba Cloud Object Storage Service.
    public static let oss = StorageVendor(.oss)
    /// Huawei Cloud Object Storage Service.
    public static let obs = StorageVendor(.obs)
    /// Amazon S3 and S3-compatible servers (MinIO, Ceph, the local server...).
    public static let s3 = StorageVendor(.s3)

    /// The vendor of a URL scheme or a name: `oss`, `obs` or `s3` (`aws` too), case-insensitive; `nil` otherwise.
    ///
    /// - Parameter name: The scheme of an `oss://BUCKET/KEY`-style URL, or a vendor's name.
    package init?(scheme name: String) {
        switch name.lowercased() {
        case "oss": self = .oss
        case "obs": self = .obs
        case "s3", "aws": self = .s3
        default: return nil
        }
    }

    /// The scheme name: `oss`, `obs` or `s3`.
    public var description: String {
        switch self.kind {
        case .oss: "oss"
        case .obs: "obs"
        case .s3: "s3"
        }
    }

    /// The vendor's name in messages: `OSS`, `OBS` or `AWS`.
    package var name: String {
        switch self.kind {
        case .oss: "OSS"
        case .obs: "OBS"
        case .s3: "AWS"
        }
    }

    /// The signature version used when none is chosen: OSS V4, OBS's own `OBS` scheme, SigV4.
    package var defaultSignatureVersion: SignatureVersion {
        switch self.kind {
        case .oss: .ossV4
        case .obs: .obs
        case .s3: .sigV4
        }
    }

    /// The region used when neither a caller nor the environment names one: `cn-hangzhou`, `cn-north-4` or
    /// `us-east-1`.
    package var defaultRegion: String {
        switch self.kind {
        case .oss: "cn-hangzhou"
        case .obs: "cn-north-4"
        case .s3: "us-east-1"
        }
    }

    /// The vendor's public endpoint for `region`.
    ///
    /// - Parameter region: A region id such as `cn-hangzhou`, `cn-north-4` or `us-east-1`.
    /// - Returns: `Endpoint.oss(region:)`, `Endpoint.obs(region:)` or `Endpoint.s3(region:)`.
    package func endpoint(region: String) -> Endpoint {
        switch self.kind {
        case .oss: .oss(region: region)
        case .obs: .obs(region: region)
        case .s3: .s3(region: region)
        }
    }

    /// The prefix of the vendor's own headers: `x-oss-`, `x-obs-` or `x-amz-`.
    package var headerPrefix: String {
        switch self.kind {
        case .oss: "x-oss-"
        case .obs: "x-obs-"
        case .s3: "x-amz-"
        }
    }

    // MARK: The environment

    /// The variable that names the vendor's endpoint: `OSS_ENDPOINT`, `OBS_ENDPOINT` or `AWS_ENDPOINT_URL`.
    package var endpointVariable: String {
        switch self.kind {
        case .oss: "OSS_ENDPOINT"
        case .obs: "OBS_ENDPOINT"
        case .s3: "AWS_ENDPOINT_URL"
        }
    }

    /// The variables that name the region, in the order they are read: `OSS_REGION`, `OBS_REGION`, or
    /// `AWS_REGION` then `AWS_DEFAULT_REGION`.
    package var regionVariables: [String] {
        switch self.kind {
        case .oss: ["OSS_REGION"]
        case .obs: ["OBS_REGION"]
        case .s3: ["AWS_REGION", "AWS_DEFAULT_REGION"]
        }
    }

    /// The access key id variable: `OSS_ACCESS_KEY_ID`, `OBS_ACCESS_KEY_ID` or `AWS_ACCESS_KEY_ID`.
    package var accessKeyIDVariable: String { self.name + "_ACCESS_KEY_ID" }

    /// The secret variable: `OSS_ACCESS_KEY_SECRET`, `OBS_SECRET_ACCESS_KEY` or `AWS_SECRET_ACCESS_KEY`.
    package var secretAccessKeyVariable: String {
        self.kind == .oss ? "OSS_ACCESS_KEY_SECRET" : self.name + "_SECRET_ACCESS_KEY"
    }

    /// The security token variable: `OSS_SESSION_TOKEN`, `OBS_SECURITY_TOKEN` or `AWS_SESSION_TOKEN`.
    package var securityTokenVariable: String {
        self.kind == .obs ? "OBS_SECURITY_TOKEN" : self.name + "_SESSION_TOKEN"
    }
}
