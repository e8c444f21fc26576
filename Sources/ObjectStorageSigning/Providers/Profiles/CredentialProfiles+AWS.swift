//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The AWS shared credentials and config files, read once, resolved profile by profile as the AWS SDKs resolve them.
///
/// A profile's settings are its `[name]` section of the credentials file over its `[profile name]` (or `[default]`)
/// section of the config file. They are tried in the AWS SDKs' order: `role_arn` (with `source_profile` or
/// `credential_source`, unless `web_identity_token_file` is set), `web_identity_token_file`, SSO (not supported),
/// static keys, `credential_process`.
struct AWSProfiles {
    private let credentialsPath: String
    private let configPath: String
    private let fromCredentials: [String: [String: String]]?
    private let fromConfig: [String: [String: String]]?
    private let environment: [String: String]

    /// The most `source_profile` links followed before giving up (the SDKs have no limit but a cycle check).
    private static let maximumChainLength = 32

    /// Settings that name IAM Identity Center, which needs a browser sign-in this library does not do.
    private static let ssoSettings = ["sso_session", "sso_start_url", "sso_account_id", "login_session"]

    init(credentialsFile: String?, configFile: String?, environment: [String: String]) throws {
        self.environment = environment
        self.credentialsPath = try CredentialProfiles.path(
            explicit: credentialsFile,
            variable: "AWS_SHARED_CREDENTIALS_FILE",
            homeRelative: ".aws/credentials",
            environment: environment
        )
        self.configPath = try CredentialProfiles.path(
            explicit: configFile,
            variable: "AWS_CONFIG_FILE",
            homeRelative: ".aws/config",
            environment: environment
        )
        let credentialsText = try CredentialProfiles.readFile(atPath: self.credentialsPath)
        let configText = try CredentialProfiles.readFile(atPath: self.configPath)
        if credentialsText == nil, configText == nil {
            throw CredentialsError.notFound(
                "no AWS credentials file at \(self.credentialsPath) and no config file at \(self.configPath)"
            )
        }
        let credentialsPath = self.credentialsPath
        let configPath = self.configPath
        self.fromCredentials = try credentialsText.map {
            try CredentialsINIFile(parsing: $0, path: credentialsPath).sections
        }
        self.fromConfig = try configText.map {
            try Self.configProfiles(CredentialsINIFile(parsing: $0, path: configPath))
        }
    }

    /// The source `profile` (or `AWS_PROFILE`, else `default`) describes.
    func resolve(_ profile: String?) throws -> CredentialSource {
        let name = profile ?? CredentialsText.nonEmpty(self.environment["AWS_PROFILE"]) ?? "default"
        return try self.resolve(name, visited: [])
    }

    private func resolve(_ name: String, visited: [String]) throws -> CredentialSource {
        let (settings, location) = try self.settings(of: name)
        let roleARN = CredentialsText.nonEmpty(settings["role_arn"])
        let tokenFile = CredentialsText.nonEmpty(settings["web_identity_token_file"])
        if let roleARN, tokenFile == nil {
            return try self.assumedRole(roleARN, name: name, settings: settings, location: location, visited: visited)
        }
        if let tokenFile {
            guard let roleARN else {
                throw CredentialsError.incomplete("\(location) has web_identity_token_file but no role_arn")
            }
            let request = try self.roleRequest(roleARN, settings: settings, location: location)
            return .webIdentity(request, tokenFile: self.expandingHome(tokenFile), providerARN: nil)
        }
        if let sso = Self.ssoSettings.first(where: { settings[$0] != nil }) {
            throw CredentialsError.unsupported(
                "\(location) uses \(sso) (IAM Identity Center), which needs a browser sign-in; run `aws sso login` "
                    + "and use the role's keys, or give the profile role_arn or credential_process"
            )
        }
        if let keys = try Self.keys(in: settings, location: location) {
            return .keys(keys)
        }
        if let command = CredentialsText.nonEmpty(settings["credential_process"]) {
            return .process(command: command, format: .aws, origin: location)
        }
        throw CredentialsError.notFound(
            "\(location) has no aws_access_key_id and aws_secret_access_key, role_arn or credential_process"
        )
    }

    /// A `role_arn` profile: STS AssumeRole with the credentials of `source_profile` or `credential_source`.
    private func assumedRole(
        _ roleARN: String,
        name: String,
        settings: [String: String],
        location: String,
        visited: [String]
    ) throws -> CredentialSource {
        if settings["mfa_serial"] != nil {
            throw CredentialsError.unsupported(
                "\(location) sets mfa_serial, which needs a code typed at a terminal; this library cannot ask for one"
            )
        }
        let request = try self.roleRequest(roleARN, settings: settings, location: location)
        let sourceProfile = CredentialsText.nonEmpty(settings["source_profile"])
        let credentialSource = CredentialsText.nonEmpty(settings["credential_source"])
        switch (sourceProfile, credentialSource) {
        case (.some, .some):
            throw CredentialsError.incomplete("\(location) has both source_profile and credential_source; keep one")
        case (nil, nil):
            throw CredentialsError.incomplete(
                "\(location) has role_arn but neither source_profile nor credential_source"
            )
        case (nil, let credentialSource?):
            return .assumeRole(request, source: try Self.credentialSource(credentialSource, location: location))
        case (let sourceProfile?, nil):
            let chain = visited + [name]
            if sourceProfile == name {
                // A profile may name itself to sign with its own keys.
                guard let keys = try Self.keys(in: settings, location: location) else {
                    throw CredentialsError.unsupported(
                        "\(location) names itself as source_profile but has no keys: a profile cycle"
                    )
                }
                return .assumeRole(request, source: .keys(keys))
            }
            if chain.contains(sourceProfile) {
                throw CredentialsError.unsupported(
                    "AWS profiles form a cycle: \((chain + [sourceProfile]).joined(separator: " -> "))"
                )
            }
            guard chain.count < Self.maximumChainLength else {
                throw CredentialsError.unsupported("\(location) starts a chain of more than 32 source profiles")
            }
            return .assumeRole(request, source: try self.resolve(sourceProfile, visited: chain))
        }
    }

    private func roleRequest(_ roleARN: String, settings: [String: String], location: String) throws -> RoleRequest {
        var duration: Int?
        if let text = CredentialsText.nonEmpty(settings["duration_seconds"]) {
            guard let seconds = Int(text), RoleRequest.durationRange.contains(seconds) else {
                throw CredentialsError.malformedFile(
                    path: self.configPath,
                    reason: "\(location): duration_seconds must be a whole number of seconds from 900 to 43200"
                )
            }
            duration = seconds
        }
        return RoleRequest(
            service: .aws(region: CredentialsText.nonEmpty(settings["region"]), environment: self.environment),
            roleARN: roleARN,
            sessionName: CredentialsText.nonEmpty(settings["role_session_name"]),
            externalID: CredentialsText.nonEmpty(settings["external_id"]),
            durationSeconds: duration,
            policy: nil,
            origin: location
        )
    }

    /// `credential_source`: where the keys that sign AssumeRole come from.
    private static func credentialSource(_ value: String, location: String) throws -> CredentialSource {
        switch value {
        case "Environment": return .environment(.s3)
        case "Ec2InstanceMetadata": return .instance(.awsEC2)
        case "EcsContainer": return .instance(.awsContainer)
        default:
            throw CredentialsError.unsupported(
                "\(location) has credential_source '\(value)'; the values are Environment, Ec2InstanceMetadata "
                    + "and EcsContainer"
            )
        }
    }

    /// The profile's merged settings and where they are, for messages.
    private func settings(of name: String) throws -> ([String: String], String) {
        let fromCredentials = self.fromCredentials?[name]
        let fromConfig = self.fromConfig?[name]
        var files: [String] = []
        if fromCredentials != nil { files.append(self.credentialsPath) }
        if fromConfig != nil { files.append(self.configPath) }
        guard !files.isEmpty else {
            let searched = [
                self.fromCredentials.map { _ in self.credentialsPath }, self.fromConfig.map { _ in self.configPath },
            ]
            .compactMap { $0 }.joined(separator: " and ")
            throw CredentialsError.notFound("AWS profile '\(name)' is not in \(searched)")
        }
        // The shared credentials file takes precedence over the config file.
        let settings = (fromConfig ?? [:]).merging(fromCredentials ?? [:]) { _, credentials in credentials }
        return (settings, "AWS profile '\(name)' in \(files.joined(separator: " and "))")
    }

    /// The profile's static keys, `nil` when it has neither an id nor a secret.
    private static func keys(in settings: [String: String], location: String) throws -> Credentials? {
        let accessKeyID = CredentialsText.nonEmpty(settings["aws_access_key_id"])
        let secret = CredentialsText.nonEmpty(settings["aws_secret_access_key"])
        let token = CredentialsText.nonEmpty(settings["aws_session_token"] ?? settings["aws_security_token"])
        switch (accessKeyID, secret) {
        case (let accessKeyID?, let secret?):
            return Credentials(accessKeyID: accessKeyID, secretAccessKey: secret, securityToken: token)
        case (.some, nil):
            throw CredentialsError.incomplete("\(location) has aws_access_key_id but no aws_secret_access_key")
        case (nil, .some):
            throw CredentialsError.incomplete("\(location) has aws_secret_access_key but no aws_access_key_id")
        case (nil, nil):
            return nil
        }
    }

    private func expandingHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = CredentialsText.nonEmpty(self.environment["HOME"]) else {
            return path
        }
        return home + path.dropFirst()
    }

    /// The config file's profiles by name: `[default]`, `[profile default]` and `[profile NAME]`.
    ///
    /// Other sections (`[sso-session x]`, `[services x]`, a bare `[x]`) are not profiles.
    private static func configProfiles(_ file: CredentialsINIFile) -> [String: [String: String]] {
        var profiles: [String: [String: String]] = [:]
        // `[profile default]` wins over `[default]`, as in the AWS CLI.
        for (section, settings) in file.sections.sorted(by: { $0.key < $1.key }) {
            if section == "default" {
                profiles["default"] = (profiles["default"] ?? [:]).merging(settings) { existing, _ in existing }
                continue
            }
            let words = section.split(whereSeparator: \.isWhitespace)
            guard words.count == 2, words[0] == "profile" else { continue }
            let name = String(words[1])
            profiles[name] = settings.merging(profiles[name] ?? [:]) { new, _ in new }
        }
        return profiles
    }
}
