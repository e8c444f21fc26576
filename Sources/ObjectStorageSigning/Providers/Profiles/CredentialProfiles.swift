//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The profile files the vendors define, resolved to a ``CredentialSource`` without a network call: what
/// `ObjectStorage`'s profile provider acts on.
///
/// - AWS: the shared credentials file and the config file (static keys, `role_arn` with `source_profile` or
///   `credential_source`, `web_identity_token_file`, `credential_process`), chained profiles followed to their
///   source with a cycle reported as an error.
/// - Alibaba Cloud: `~/.alibabacloud/credentials.ini` (types `access_key`, `sts`, `ram_role_arn`,
///   `oidc_role_arn`, `ecs_ram_role`) and the aliyun CLI's `~/.aliyun/config.json` (modes `AK`, `StsToken`,
///   `RamRoleArn`, `ChainableRamRoleArn`, `OIDC`, `EcsRamRole`, `External`).
package enum CredentialProfiles {
    /// Which file format to read, and where (`nil` paths come from the variables, then the home directory).
    package enum File: Sendable, Hashable {
        /// The AWS shared credentials and config files.
        case aws(credentialsFile: String?, configFile: String?)
        /// Alibaba Cloud's credentials file.
        case alibabaCloud(file: String?)
        /// The aliyun CLI's `config.json`.
        case aliyunCLI(file: String?)

        /// The format's name, e.g. `aws`.
        package var name: String {
            switch self {
            case .aws: "aws"
            case .alibabaCloud: "alibabaCloud"
            case .aliyunCLI: "aliyunCLI"
            }
        }
    }

    /// Reads `profile` from `file` and says where its credentials come from.
    ///
    /// - Parameters:
    ///   - file: The file format and paths.
    ///   - profile: The profile; `nil` picks it from the variables (`AWS_PROFILE`, `ALIBABA_CLOUD_PROFILE`) or the
    ///     file, then `default`.
    ///   - environment: The variables, `HOME` included.
    /// - Returns: The source the profile describes.
    /// - Throws: ``CredentialsError`` with code `notFound` (no file, or no such profile), `incomplete` (an id
    ///   without a secret, a role without a source, ...), `malformedFile`, `unreadableFile` or `unsupported` (SSO,
    ///   a profile cycle, a mode no library can act on here).
    package static func resolve(
        _ file: File,
        profile: String?,
        environment: [String: String]
    ) throws -> CredentialSource {
        let profile = CredentialsText.nonEmpty(profile)
        switch file {
        case .aws(let credentialsFile, let configFile):
            return try AWSProfiles(
                credentialsFile: credentialsFile,
                configFile: configFile,
                environment: environment
            ).resolve(profile)
        case .alibabaCloud(let path):
            return try self.alibabaCloudSource(file: path, profile: profile, environment: environment)
        case .aliyunCLI(let path):
            return try self.aliyunCLISource(file: path, profile: profile, environment: environment)
        }
    }
}

extension CredentialProfiles {
    /// Expands a leading `~` and picks `explicit`, else the variable, else `fallback` under `HOME`.
    static func path(
        explicit: String?,
        variable: String?,
        homeRelative fallback: String,
        environment: [String: String]
    ) throws -> String {
        let home = CredentialsText.nonEmpty(environment["HOME"])
        if let chosen = CredentialsText.nonEmpty(explicit)
            ?? variable.flatMap({ CredentialsText.nonEmpty(environment[$0]) })
        {
            if chosen == "~" || chosen.hasPrefix("~/"), let home {
                return home + chosen.dropFirst()
            }
            return chosen
        }
        guard let home else {
            throw CredentialsError.notFound("HOME is not set, so ~/\(fallback) cannot be located")
        }
        return home.hasSuffix("/") ? home + fallback : home + "/" + fallback
    }

    /// The file's content, or `nil` when no file exists at `path`.
    static func readFile(atPath path: String) throws -> String? {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return nil
        }
        if isDirectory {
            throw CredentialsError.unreadableFile(path: path, reason: "is a directory")
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw CredentialsError.unreadableFile(path: path, reason: "could not be read")
        }
    }
}
