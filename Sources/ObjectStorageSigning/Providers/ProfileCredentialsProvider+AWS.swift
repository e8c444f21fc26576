//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension ProfileCredentialsProvider {
    /// Settings that name a way of getting credentials this provider does not implement.
    private static let awsUnsupportedSettings: [(key: String, meaning: String)] = [
        ("role_arn", "an assumed role"),
        ("credential_process", "an external credential process"),
        ("sso_session", "IAM Identity Center (SSO)"),
        ("sso_start_url", "IAM Identity Center (SSO)"),
        ("web_identity_token_file", "a web identity token"),
        ("login_session", "a console login session"),
    ]

    func awsCredentials(
        credentialsFile: String?,
        configFile: String?,
        environment: [String: String]
    ) throws -> Credentials {
        let credentialsPath = try Self.path(
            explicit: credentialsFile,
            variable: "AWS_SHARED_CREDENTIALS_FILE",
            homeRelative: ".aws/credentials",
            environment: environment
        )
        let configPath = try Self.path(
            explicit: configFile,
            variable: "AWS_CONFIG_FILE",
            homeRelative: ".aws/config",
            environment: environment
        )
        let profile = self.profile ?? CredentialsText.nonEmpty(environment["AWS_PROFILE"]) ?? "default"

        let credentialsText = try Self.readFile(atPath: credentialsPath)
        let configText = try Self.readFile(atPath: configPath)
        if credentialsText == nil, configText == nil {
            throw CredentialsError.notFound(
                "no AWS credentials file at \(credentialsPath) and no config file at \(configPath)"
            )
        }
        let fromCredentials =
            try credentialsText.map {
                try CredentialsINIFile(parsing: $0, path: credentialsPath).sections[profile]
            } ?? nil
        let fromConfig =
            try configText.map {
                try Self.awsConfigProfiles(CredentialsINIFile(parsing: $0, path: configPath))[profile]
            } ?? nil

        var files: [String] = []
        if fromCredentials != nil { files.append(credentialsPath) }
        if fromConfig != nil { files.append(configPath) }
        guard !files.isEmpty else {
            let searched = [credentialsText.map { _ in credentialsPath }, configText.map { _ in configPath }]
                .compactMap { $0 }.joined(separator: " and ")
            throw CredentialsError.notFound("AWS profile '\(profile)' is not in \(searched)")
        }
        // The shared credentials file takes precedence over the config file.
        let settings = (fromConfig ?? [:]).merging(fromCredentials ?? [:]) { _, credentials in credentials }
        let location = "AWS profile '\(profile)' in \(files.joined(separator: " and "))"

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
            if let unsupported = Self.awsUnsupportedSettings.first(where: { settings[$0.key] != nil }) {
                throw CredentialsError.unsupported(
                    "\(location) uses \(unsupported.key) (\(unsupported.meaning)), which this provider does not "
                        + "resolve; use static keys in the profile or a federated provider"
                )
            }
            throw CredentialsError.notFound("\(location) has no aws_access_key_id and aws_secret_access_key")
        }
    }

    /// The config file's profiles by name: `[default]`, `[profile default]` and `[profile NAME]`.
    ///
    /// Other sections (`[sso-session x]`, `[services x]`, a bare `[x]`) are not profiles.
    private static func awsConfigProfiles(_ file: CredentialsINIFile) -> [String: [String: String]] {
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
