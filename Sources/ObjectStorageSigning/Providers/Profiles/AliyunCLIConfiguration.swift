//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The parts of the aliyun CLI's `config.json` that say where credentials come from.
struct AliyunCLIConfiguration: Decodable {
    struct Profile: Decodable {
        var name: String
        var mode: String?
        var accessKeyID: String?
        var accessKeySecret: String?
        var stsToken: String?
        var roleARN: String?
        var roleSessionName: String?
        var oidcSessionName: String?
        var expiredSeconds: Int?
        var policy: String?
        var externalID: String?
        var stsRegion: String?
        var stsEndpoint: String?
        var enableVPC: Bool?
        var roleName: String?
        var oidcProviderARN: String?
        var oidcTokenFile: String?
        var sourceProfile: String?
        var processCommand: String?

        enum CodingKeys: String, CodingKey {
            case name
            case mode
            case accessKeyID = "access_key_id"
            case accessKeySecret = "access_key_secret"
            case stsToken = "sts_token"
            case roleARN = "ram_role_arn"
            case roleSessionName = "ram_session_name"
            case oidcSessionName = "role_session_name"
            case expiredSeconds = "expired_seconds"
            case policy
            case externalID = "external_id"
            case stsRegion = "sts_region"
            case stsEndpoint = "sts_endpoint"
            case enableVPC = "enable_vpc"
            case roleName = "ram_role_name"
            case oidcProviderARN = "oidc_provider_arn"
            case oidcTokenFile = "oidc_token_file"
            case sourceProfile = "source_profile"
            case processCommand = "process_command"
        }
    }

    var current: String?
    var profiles: [Profile]

    /// The most `source_profile` links followed.
    private static let maximumChainLength = 32

    /// The source profile `name` describes, following `ChainableRamRoleArn` profiles to their source.
    func source(
        of name: String,
        path: String,
        environment: [String: String],
        visited: [String]
    ) throws -> CredentialSource {
        guard let entry = self.profiles.first(where: { $0.name == name }) else {
            throw CredentialsError.notFound("aliyun CLI profile '\(name)' is not in \(path)")
        }
        let location = "aliyun CLI profile '\(name)' in \(path)"
        let mode = CredentialsText.nonEmpty(entry.mode)
        let service = STSService.alibabaCloud(
            region: entry.stsRegion,
            endpoint: entry.stsEndpoint,
            vpc: entry.enableVPC ?? false,
            environment: environment
        )
        let duration = entry.expiredSeconds.map(String.init)
        switch mode {
        case "RamRoleArn", "ChainableRamRoleArn":
            let request = try CredentialProfiles.alibabaRoleRequest(
                service: service,
                roleARN: (CredentialsText.nonEmpty(entry.roleARN), "ram_role_arn"),
                sessionName: CredentialsText.nonEmpty(entry.roleSessionName),
                externalID: CredentialsText.nonEmpty(entry.externalID),
                duration: duration,
                policy: CredentialsText.nonEmpty(entry.policy),
                location: location,
                environment: environment
            )
            if mode == "RamRoleArn" {
                guard let keys = try self.keys(of: entry, location: location, mode: "RamRoleArn") else {
                    throw CredentialsError.incomplete("\(location) has mode 'RamRoleArn' but no access_key_id")
                }
                return .assumeRole(request, source: .keys(keys))
            }
            guard let sourceName = CredentialsText.nonEmpty(entry.sourceProfile) else {
                throw CredentialsError.incomplete("\(location) has mode 'ChainableRamRoleArn' but no source_profile")
            }
            let chain = visited + [name]
            if chain.contains(sourceName) {
                throw CredentialsError.unsupported(
                    "aliyun CLI profiles form a cycle: \((chain + [sourceName]).joined(separator: " -> "))"
                )
            }
            guard chain.count < Self.maximumChainLength else {
                throw CredentialsError.unsupported("\(location) starts a chain of more than 32 source profiles")
            }
            let source = try self.source(of: sourceName, path: path, environment: environment, visited: chain)
            return .assumeRole(request, source: source)
        case "OIDC":
            return try CredentialProfiles.alibabaOIDC(
                service: service,
                roleARN: CredentialsText.nonEmpty(entry.roleARN),
                providerARN: CredentialsText.nonEmpty(entry.oidcProviderARN),
                tokenFile: (CredentialsText.nonEmpty(entry.oidcTokenFile), "oidc_token_file"),
                sessionName: CredentialsText.nonEmpty(entry.oidcSessionName),
                duration: duration,
                policy: CredentialsText.nonEmpty(entry.policy),
                location: location,
                environment: environment
            )
        case "EcsRamRole":
            return .instance(.alibabaCloudECS(roleName: CredentialsText.nonEmpty(entry.roleName)))
        case "External":
            guard let command = CredentialsText.nonEmpty(entry.processCommand) else {
                throw CredentialsError.incomplete("\(location) has mode 'External' but no process_command")
            }
            return .process(command: command, format: .alibabaCloud, origin: location)
        case "CloudSSO", "OAuth":
            throw CredentialsError.unsupported(
                "\(location) has mode '\(mode ?? "")', which needs a browser sign-in; this library does not do it"
            )
        default:
            guard let keys = try self.keys(of: entry, location: location, mode: mode) else {
                throw CredentialsError.incomplete("\(location) has no access_key_id and access_key_secret")
            }
            return .keys(keys)
        }
    }

    private func keys(of entry: Profile, location: String, mode: String?) throws(CredentialsError) -> Credentials? {
        try CredentialProfiles.keyCredentials(
            location: location,
            kind: ("mode", mode, key: "AK", sts: "StsToken"),
            accessKeyID: entry.accessKeyID,
            secret: entry.accessKeySecret,
            token: ("sts_token", entry.stsToken),
            roleKinds: ["RamRoleArn"]
        )
    }
}
