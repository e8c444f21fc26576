//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension CredentialsProvider where Self == ChainCredentialsProvider {
    /// A vendor's standard credentials chain, the one `objstore` reads: the environment first, then the vendor's
    /// profile files.
    ///
    /// - OSS: `OSS_ACCESS_KEY_ID` / `OSS_ACCESS_KEY_SECRET` / `OSS_SESSION_TOKEN`, then Alibaba Cloud's
    ///   credentials file, then the aliyun CLI's `config.json`.
    /// - OBS: `OBS_ACCESS_KEY_ID` / `OBS_SECRET_ACCESS_KEY` / `OBS_SECURITY_TOKEN` (OBS has no profile files).
    /// - S3: `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN`, then the AWS shared credentials
    ///   and config files (`AWS_PROFILE`).
    ///
    /// Each call of `credentials(logger:)` reads them again; wrap the chain in `.refreshing(...)` to read once.
    ///
    /// - Parameters:
    ///   - provider: The vendor.
    ///   - environment: The variables to read instead of the process environment (for tests), `HOME` included.
    /// - Returns: The chain.
    public static func standard(
        _ provider: StorageVendor,
        environment: [String: String]? = nil
    ) -> ChainCredentialsProvider {
        switch provider {
        case .oss:
            .chain(
                .environment(.oss, environment: environment),
                .profile(.alibabaCloud(), environment: environment),
                .profile(.aliyunCLI(), environment: environment)
            )
        case .obs:
            .chain(.environment(.obs, environment: environment))
        default:
            .chain(.environment(.s3, environment: environment), .profile(.aws(), environment: environment))
        }
    }
}
