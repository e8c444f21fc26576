//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A provider that reads a named profile from a credentials file the vendors define.
///
/// ```swift
/// let aws: some CredentialsProvider = .profile(.aws())                  // ~/.aws/credentials + ~/.aws/config
/// let alibaba: some CredentialsProvider = .profile(.alibabaCloud())     // ~/.alibabacloud/credentials
/// let cli: some CredentialsProvider = .profile(.aliyunCLI(), name: "dev") // ~/.aliyun/config.json
/// ```
///
/// Files are read on every call, so edits are picked up; wrap the provider in
/// ``CredentialsProvider/refreshing(_:)`` to read them once.
/// Only key-based profiles are resolved (static keys and STS tokens). Profiles that need a network
/// call (assume-role, SSO, ECS RAM role, ...) throw ``CredentialsError/Code/unsupported``; use
/// ``CredentialsProvider/federated(_:)`` for those.
public struct ProfileCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    /// Which file format to read, and where.
    public struct Source: Sendable, Hashable {
        enum Kind: Hashable {
            case aws(credentialsFile: String?, configFile: String?)
            case alibabaCloud(file: String?)
            case aliyunCLI(file: String?)
        }

        let kind: Kind

        /// The AWS shared credentials and config files.
        ///
        /// The files default to `AWS_SHARED_CREDENTIALS_FILE` (else `~/.aws/credentials`) and
        /// `AWS_CONFIG_FILE` (else `~/.aws/config`); the profile to `AWS_PROFILE`, else `default`.
        /// Reads `aws_access_key_id`, `aws_secret_access_key` and `aws_session_token`, from
        /// `[name]` in the credentials file and `[profile name]` (or `[default]`) in the config
        /// file, the credentials file winning.
        ///
        /// - Parameters:
        ///   - credentialsFile: The shared credentials file's path, overriding the environment.
        ///   - configFile: The config file's path, overriding the environment.
        /// - Returns: A source.
        public static func aws(credentialsFile: String? = nil, configFile: String? = nil) -> Source {
            Source(kind: .aws(credentialsFile: credentialsFile, configFile: configFile))
        }

        /// Alibaba Cloud's credentials file, an INI file with `type = access_key` or `type = sts` sections.
        ///
        /// The file defaults to `ALIBABA_CLOUD_CREDENTIALS_FILE`, else `~/.alibabacloud/credentials`;
        /// the profile to `ALIBABA_CLOUD_PROFILE`, else `default`. Reads `access_key_id`,
        /// `access_key_secret` and (for `sts`) `security_token`.
        ///
        /// - Parameter file: The file's path, overriding the environment.
        /// - Returns: A source.
        public static func alibabaCloud(file: String? = nil) -> Source {
            Source(kind: .alibabaCloud(file: file))
        }

        /// The aliyun CLI's `config.json`, with profiles in mode `AK` or `StsToken`.
        ///
        /// The file defaults to `~/.aliyun/config.json`; the profile to `ALIBABA_CLOUD_PROFILE`,
        /// else the file's `current` profile, else `default`.
        ///
        /// - Parameter file: The file's path.
        /// - Returns: A source.
        public static func aliyunCLI(file: String? = nil) -> Source {
            Source(kind: .aliyunCLI(file: file))
        }

        /// The source's name, e.g. `aws`.
        var name: String {
            switch self.kind {
            case .aws: "aws"
            case .alibabaCloud: "alibabaCloud"
            case .aliyunCLI: "aliyunCLI"
            }
        }
    }

    /// Which file format to read, and where.
    package let source: Source
    /// The profile to read; `nil` picks it from the environment or the file, then `default`.
    package let profile: String?
    private let environment: [String: String]?

    /// Creates a profile provider.
    ///
    /// - Parameters:
    ///   - source: Which file format to read, and where.
    ///   - profile: The profile to read; `nil` picks it from the environment or the file.
    ///   - environment: The variables to read instead of the process environment (for tests),
    ///     including `HOME`.
    package init(_ source: Source, profile: String? = nil, environment: [String: String]? = nil) {
        self.source = source
        self.profile = CredentialsText.nonEmpty(profile)
        self.environment = environment
    }

    /// Reads the profile's credentials.
    ///
    /// - Parameter logger: A logger for diagnostics (paths and profile names only).
    /// - Returns: The profile's credentials.
    /// - Throws: ``CredentialsError`` with code `notFound` (no file, or no such profile),
    ///   `incomplete` (an id without a secret, ...), `malformedFile`, `unreadableFile` or `unsupported`.
    public func credentials(logger: Logger) async throws -> Credentials {
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let credentials: Credentials
        switch self.source.kind {
        case .aws(let credentialsFile, let configFile):
            credentials = try self.awsCredentials(
                credentialsFile: credentialsFile,
                configFile: configFile,
                environment: environment
            )
        case .alibabaCloud(let file):
            credentials = try self.alibabaCloudCredentials(file: file, environment: environment)
        case .aliyunCLI(let file):
            credentials = try self.aliyunCLICredentials(file: file, environment: environment)
        }
        logger.trace("credentials from profile", metadata: ["source": "\(self.source.name)"])
        return credentials
    }

    /// `profile(aws, name)`.
    public var description: String {
        "profile(\(self.source.name)\(self.profile.map { ", \($0)" } ?? ""))"
    }
}

extension CredentialsProvider where Self == ProfileCredentialsProvider {
    /// A provider that reads a named profile from a vendor's credentials file.
    ///
    /// - Parameters:
    ///   - source: `.aws()`, `.alibabaCloud()` or `.aliyunCLI()`, optionally with explicit paths.
    ///   - name: The profile; `nil` picks it from the environment (`AWS_PROFILE`,
    ///     `ALIBABA_CLOUD_PROFILE`) or the file, then `default`.
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

extension ProfileCredentialsProvider {
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
