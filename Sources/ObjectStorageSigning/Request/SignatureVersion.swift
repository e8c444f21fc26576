//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A request-signing scheme.
///
/// | value | scheme | Authorization |
/// |---|---|---|
/// | ``ossV1`` | OSS V1, HMAC-SHA1 | `OSS AK:signature` |
/// | ``ossV4`` | OSS V4, HMAC-SHA256, region scope | `OSS4-HMAC-SHA256 Credential=...` |
/// | ``obs`` | OBS, HMAC-SHA1 over `x-obs-*` | `OBS AK:signature` |
/// | ``awsV2`` | AWS signature V2 (OBS accepts it) | `AWS AK:signature` |
/// | ``sigV4`` | AWS SigV4 (S3, and OBS's "V4") | `AWS4-HMAC-SHA256 Credential=...` |
public struct SignatureVersion: Hashable, Sendable, CustomStringConvertible {
    enum Base: Hashable, Sendable {
        case ossV1, ossV4, obs, awsV2, sigV4
    }

    let base: Base

    private init(_ base: Base) { self.base = base }

    /// Alibaba Cloud OSS signature V1 (HMAC-SHA1).
    public static let ossV1 = SignatureVersion(.ossV1)
    /// Alibaba Cloud OSS signature V4 (`OSS4-HMAC-SHA256`).
    public static let ossV4 = SignatureVersion(.ossV4)
    /// Huawei Cloud OBS signature (`OBS AK:signature`).
    public static let obs = SignatureVersion(.obs)
    /// AWS signature V2 (`AWS AK:signature`), as OBS also accepts it.
    public static let awsV2 = SignatureVersion(.awsV2)
    /// AWS signature V4 (`AWS4-HMAC-SHA256`), for S3 and OBS V4.
    public static let sigV4 = SignatureVersion(.sigV4)

    /// The version named on the command line: `v1`, `v4`, `obs`, `v2` or `sigv4` (case-insensitive).
    ///
    /// `v4` means OSS V4; OBS's V4 is the same algorithm as `sigv4`, which callers map themselves.
    ///
    /// - Parameter cliName: The `--signature` value.
    package init?(cliName: String) {
        switch cliName.lowercased() {
        case "v1": self = .ossV1
        case "v4": self = .ossV4
        case "obs": self = .obs
        case "v2": self = .awsV2
        case "sigv4": self = .sigV4
        default: return nil
        }
    }

    /// The command-line name: `v1`, `v4`, `obs`, `v2` or `sigv4`.
    package var cliName: String {
        switch self.base {
        case .ossV1: return "v1"
        case .ossV4: return "v4"
        case .obs: return "obs"
        case .awsV2: return "v2"
        case .sigV4: return "sigv4"
        }
    }

    /// A readable name, e.g. `OSS V4`.
    public var description: String {
        switch self.base {
        case .ossV1: return "OSS V1"
        case .ossV4: return "OSS V4"
        case .obs: return "OBS"
        case .awsV2: return "AWS V2"
        case .sigV4: return "SigV4"
        }
    }

    /// Whether the scheme is region-scoped (and so needs a region).
    package var requiresRegion: Bool { self.base == .ossV4 || self.base == .sigV4 }
}
