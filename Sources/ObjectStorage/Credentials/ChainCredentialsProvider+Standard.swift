//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorageSigning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CredentialsProvider where Self == ChainCredentialsProvider {
    /// A vendor's default credentials chain, in the order the vendor's own SDKs use, the one `objstore` and
    /// `ObjectStorageClient.Configuration`'s defaults read. See <doc:Credentials> for every source.
    ///
    /// - S3 (botocore's order): `AWS_ACCESS_KEY_ID`…; the profile's `role_arn`; web identity
    ///   (`AWS_ROLE_ARN`, `AWS_WEB_IDENTITY_TOKEN_FILE`); the rest of the profile (keys, `web_identity_token_file`,
    ///   `credential_process`); container credentials (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` / `FULL_URI`); the
    ///   EC2 instance role (IMDSv2; off with `AWS_EC2_METADATA_DISABLED=true`).
    /// - OSS (Alibaba's credentials library's order): `OSS_ACCESS_KEY_ID`…; RRSA (`ALIBABA_CLOUD_ROLE_ARN`,
    ///   `ALIBABA_CLOUD_OIDC_PROVIDER_ARN`, `ALIBABA_CLOUD_OIDC_TOKEN_FILE`); the aliyun CLI's `config.json` (off
    ///   with `ALIBABA_CLOUD_CLI_PROFILE_DISABLED=true`); `~/.alibabacloud/credentials`; the ECS RAM role (off
    ///   with `ALIBABA_CLOUD_ECS_METADATA_DISABLED=true`); `ALIBABA_CLOUD_CREDENTIALS_URI`.
    /// - OBS (esdk-obs's order): `OBS_ACCESS_KEY_ID`…; the ECS agency's security key (off with
    ///   `OBS_ECS_METADATA_DISABLED=true`).
    ///
    /// With a `profile`, the chain reads only that profile (and, for S3, what it leads to), as `aws --profile`
    /// does. A metadata service that does not answer (the process is not on a cloud instance) costs at most
    /// about a second and counts as not found; when nothing is found, the error names every source tried.
    ///
    /// Files and variables are read at each call; roles, processes and metadata services are asked once per
    /// credentials lifetime and refreshed before expiry.
    ///
    /// - Parameters:
    ///   - vendor: The vendor.
    ///   - profile: A profile to read instead of the environment's keys (`--profile`).
    ///   - environment: The variables to read instead of the process environment (for tests), `HOME` included.
    /// - Returns: The chain.
    public static func standard(
        _ vendor: StorageVendor,
        profile: String? = nil,
        environment: [String: String]? = nil
    ) -> ChainCredentialsProvider {
        let variables = environment ?? ProcessInfo.processInfo.environment
        let profile = CredentialsText.nonEmpty(profile)
        var chain: [any CredentialsProvider] = []
        switch vendor {
        case .oss:
            if profile == nil {
                chain.append(EnvironmentCredentialsProvider(.oss, environment: environment))
                chain.append(
                    ResolvedCredentialsProvider("webIdentity(ALIBABA_CLOUD_ROLE_ARN)", environment: environment) {
                        try CredentialSource.alibabaCloudOIDC(environment: variables)
                    }
                )
            }
            if !CredentialSource.isDisabled("ALIBABA_CLOUD_CLI_PROFILE_DISABLED", environment: variables) {
                chain.append(ProfileCredentialsProvider(.aliyunCLI(), profile: profile, environment: environment))
            }
            chain.append(ProfileCredentialsProvider(.alibabaCloud(), profile: profile, environment: environment))
            if profile == nil {
                if !CredentialSource.isDisabled("ALIBABA_CLOUD_ECS_METADATA_DISABLED", environment: variables) {
                    let roleName = CredentialsText.nonEmpty(variables["ALIBABA_CLOUD_ECS_METADATA"])
                    chain.append(Self.probe(.alibabaCloudECS(roleName: roleName), environment: environment))
                }
                if variables["ALIBABA_CLOUD_CREDENTIALS_URI"].map({ !$0.isEmpty }) ?? false {
                    chain.append(RefreshingCredentialsProvider(.alibabaCloudCredentialsURI(environment: environment)))
                }
            }
        case .obs:
            chain.append(EnvironmentCredentialsProvider(.obs, environment: environment))
            if !CredentialSource.isDisabled("OBS_ECS_METADATA_DISABLED", environment: variables) {
                chain.append(Self.probe(.huaweiCloudECS, environment: environment))
            }
        default:
            if let profile {
                chain.append(ProfileCredentialsProvider(.aws(), profile: profile, environment: environment))
            } else {
                chain.append(EnvironmentCredentialsProvider(.s3, environment: environment))
                chain.append(Self.awsProfileOrWebIdentity(environment: environment))
            }
            if profile == nil {
                chain.append(RefreshingCredentialsProvider(.awsContainer(environment: environment)))
                if !CredentialSource.isDisabled("AWS_EC2_METADATA_DISABLED", environment: variables) {
                    chain.append(Self.probe(.awsEC2, environment: environment))
                }
            }
        }
        return ChainCredentialsProvider(chain)
    }

    /// The AWS profile and the environment's web identity as botocore orders them: the profile's `role_arn` first,
    /// then `AWS_ROLE_ARN` with `AWS_WEB_IDENTITY_TOKEN_FILE`, then the rest of the profile. One element, so the
    /// files are read once per call.
    private static func awsProfileOrWebIdentity(environment: [String: String]?) -> ResolvedCredentialsProvider {
        ResolvedCredentialsProvider("profile(aws) or AWS_ROLE_ARN", environment: environment) {
            let variables = environment ?? ProcessInfo.processInfo.environment
            var profileSource: CredentialSource?
            var reasons: [String] = []
            do {
                profileSource = try CredentialProfiles.resolve(
                    ProfileCredentialsProvider.Source.aws().file,
                    profile: nil,
                    environment: variables
                )
            } catch let error as CredentialsError where error.code == .notFound {
                reasons.append(error.message)
            }
            if let profileSource, case .assumeRole = profileSource {
                return profileSource
            }
            do {
                return try CredentialSource.awsWebIdentity(environment: variables)
            } catch let error as CredentialsError where error.code == .notFound {
                reasons.append(error.message)
            }
            if let profileSource {
                return profileSource
            }
            throw CredentialsError.notFound(reasons.joined(separator: ", and "))
        }
    }

    /// A metadata service as a chain asks it: a 1 s timeout per request, and any failure counts as not found (the
    /// process is not on such an instance), as the vendors' chains treat it.
    private static func probe(
        _ role: CredentialSource.InstanceRole,
        environment: [String: String]?
    ) -> any CredentialsProvider {
        NotFoundOnFailureCredentialsProvider(
            RefreshingCredentialsProvider(role.makeProvider(environment: environment, timeout: .seconds(1)))
        )
    }
}
