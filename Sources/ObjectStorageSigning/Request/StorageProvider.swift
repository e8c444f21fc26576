//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An object storage service: Alibaba Cloud OSS, Huawei Cloud OBS or Amazon S3 (and S3-compatible
/// servers).
///
/// An open set: new providers may be added without breaking `switch`-free code.
public struct StorageProvider: Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case oss, obs, s3
    }

    private let base: Base

    private init(_ base: Base) { self.base = base }

    /// Alibaba Cloud Object Storage Service.
    public static let oss = StorageProvider(.oss)
    /// Huawei Cloud Object Storage Service.
    public static let obs = StorageProvider(.obs)
    /// Amazon S3 and S3-compatible servers (MinIO, the local server...).
    public static let s3 = StorageProvider(.s3)

    /// The provider for a URL scheme: `oss`, `obs` or `s3` (case-insensitive); `nil` otherwise.
    ///
    /// - Parameter scheme: The scheme of an `oss://BUCKET/KEY`-style URL.
    package init?(scheme: String) {
        switch scheme.lowercased() {
        case "oss": self = .oss
        case "obs": self = .obs
        case "s3": self = .s3
        default: return nil
        }
    }

    /// The scheme name: `oss`, `obs` or `s3`.
    public var description: String {
        switch self.base {
        case .oss: return "oss"
        case .obs: return "obs"
        case .s3: return "s3"
        }
    }

    /// The signature version used when none is chosen: OSS V4, OBS's own `OBS` scheme, SigV4.
    public var defaultSignatureVersion: SignatureVersion {
        switch self.base {
        case .oss: return .ossV4
        case .obs: return .obs
        case .s3: return .sigV4
        }
    }

    /// The vendor's public endpoint for `region`.
    ///
    /// - Parameter region: A region id such as `cn-hangzhou`, `cn-north-4` or `us-east-1`.
    /// - Returns: `Endpoint.oss(region:)`, `Endpoint.obs(region:)` or `Endpoint.s3(region:)`.
    package func endpoint(region: String) -> Endpoint {
        switch self.base {
        case .oss: return .oss(region: region)
        case .obs: return .obs(region: region)
        case .s3: return .s3(region: region)
        }
    }
}
