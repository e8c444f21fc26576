//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
package import ObjectStorageSigning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A provider that reads a named profile from a credentials file the vendors define, and acts on whatever the
/// profile says: static keys, an assumed role, a web identity token, an external process or the instance's role.
///
/// ```swift
/// let aws: some CredentialsProvider = .profile(.aws())                  // ~/.aws/credentials + ~/.aws/config
/// let alibaba: some CredentialsProvider = .profile(.alibabaCloud())     // ~/.alibabacloud/credentials
/// let cli: some CredentialsProvider = .profile(.aliyunCLI(), name: "dev") // ~/.aliyun/config.json
/// ```
///
/// | File | Keys | Assumed role | Web identity | Process | Instance |
/// |---|---|---|---|---|---|
/// | AWS | `aws_access_key_id`… | `role_arn` + `source_profile` / `credential_source` | `web_identity_token_file` | `credential_process` | `credential_source` |
/// | Alibaba Cloud | `access_key`, `sts` | `ram_role_arn` | `oidc_role_arn` | | `ecs_ram_role` |
/// | aliyun CLI | `AK`, `StsToken` | `RamRoleArn`, `ChainableRamRoleArn` | `OIDC` | `External` | `EcsRamRole` |
///
/// The files are read at every call, so edits are seen at once; the role, process or metadata provider a profile
/// names is built once per distinct profile content and refreshes its credentials before they expire. A chain of
/// `source_profile`s that loops is an error naming the loop. SSO and MFA profiles are refused with a message
/// saying why (they need a person at a browser or a terminal).
public struct ProfileCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    /// Which file format to read, and where.
    public struct Source: Sendable, Hashable {
        let file: CredentialProfiles.File

        /// The AWS shared credentials and config files.
        ///
        /// The files default to `AWS_SHARED_CREDENTIALS_FILE` (else `~/.aws/credentials`) and `AWS_CONFIG_FILE`
        /// (else `~/.aws/config`); the profile to `AWS_PROFILE`, else `default`. A profile is `[name]` in the
        /// credentials file and `[profile name]` (or `[default]`) in the config file, the credentials file winning.
        ///
        /// - Parameters:
        ///   - credentialsFile: The shared credentials file's path, overriding the environment.
        ///   - configFile: The config file's path, overriding the environment.
        /// - Returns: A source.
        public static func aws(credentialsFile: String? = nil, configFile: String? = nil) -> Source {
            Source(file: .aws(credentialsFile: credentialsFile, configFile: configFile))
        }

        /// Alibaba Cloud's credentials file, an INI file whose sections have a `type`: `access_key`, `sts`,
        /// `ram_role_arn`, `oidc_role_arn` or `ecs_ram_role`.
        ///
        /// The file defaults to `ALIBABA_CLOUD_CREDENTIALS_FILE`, else `~/.alibabacloud/credentials`; the profile
        /// to `ALIBABA_CLOUD_PROFILE`, else `default`.
        ///
        /// - Parameter file: The file's path, overriding the environment.
        /// - Returns: A source.
        public static func alibabaCloud(file: String? = nil) -> Source {
            Source(file: .alibabaCloud(file: file))
        }

        /// The aliyun CLI's `config.json`, whose profiles have a `mode`: `AK`, `StsToken`, `RamRoleArn`,
        /// `ChainableRamRoleArn`, `OIDC`, `EcsRamRole` or `External`.
        ///
        /// The file defaults to `~/.aliyun/config.json`; the profile to `ALIBABA_CLOUD_PROFILE`, else the file's
        /// `current` profile, else `default`.
        ///
        /// - Parameter file: The file's path.
        /// - Returns: A source.
        public static func aliyunCLI(file: String? = nil) -> Source {
            Source(file: .aliyunCLI(file: file))
        }
    }

    /// Which file format to read, and where.
    package let source: Source
    /// The profile to read; `nil` picks it from the environment or the file, then `default`.
    package let profile: String?
    private let resolved: ResolvedCredentialsProvider

    /// Creates a profile provider.
    ///
    /// - Parameters:
    ///   - source: Which file format to read, and where.
    ///   - profile: The profile to read; `nil` picks it from the environment or the file.
    ///   - environment: The variables to read instead of the process environment (for tests), `HOME` included.
    package init(_ source: Source, profile: String? = nil, environment: [String: String]? = nil) {
        let profile = CredentialsText.nonEmpty(profile)
        self.source = source
        self.profile = profile
        let name = "profile(\(source.file.name)\(profile.map { ", \($0)" } ?? ""))"
        self.resolved = ResolvedCredentialsProvider(name, environment: environment) {
            let variables = environment ?? ProcessInfo.processInfo.environment
            return try CredentialProfiles.resolve(source.file, profile: profile, environment: variables)
        }
    }

    /// Reads the profile and returns the credentials it leads to.
    ///
    /// - Parameter logger: A logger for diagnostics (paths, profile names and roles only).
    /// - Returns: The profile's credentials.
    /// - Throws: `CredentialsError` with code `notFound` (no file, or no such profile), `incomplete` (an id
    ///   without a secret, a role without a source, ...), `malformedFile`, `unreadableFile` or `unsupported` (SSO,
    ///   MFA, a cycle of source profiles), or what the role's STS, the process or the metadata service reported.
    public func credentials(logger: Logger) async throws -> Credentials {
        try await self.resolved.credentials(logger: logger)
    }

    /// The provider the profile leads to now.
    package func currentProvider() throws -> any CredentialsProvider {
        try self.resolved.currentProvider()
    }

    /// `profile(aws, name)`.
    public var description: String {
        self.resolved.description
    }
}

extension CredentialsProvider where Self == ProfileCredentialsProvider {
    /// A provider that reads a named profile from a vendor's credentials file and acts on what it says.
    ///
    /// - Parameters:
    ///   - source: `.aws()`, `.alibabaCloud()` or `.aliyunCLI()`, optionally with explicit paths.
    ///   - name: The profile; `nil` picks it from the environment (`AWS_PROFILE`, `ALIBABA_CLOUD_PROFILE`) or the
    ///     file, then `default`.
    ///   - environment: The variables to read instead of the process environment (for tests).
    /// - Returns: A profile provider.
    public static func profile(
        _ source: ProfileCredentialsProvider.Source,
        name: String? = nil,
        environment: [String: String]? = nil
    ) -> ProfileCredentialsProvider {
        ProfileCredentialsProvider(source, profile: name, environment: environment)
    }
}

extension ProfileCredentialsProvider: DelegatingCredentialsProvider {}
