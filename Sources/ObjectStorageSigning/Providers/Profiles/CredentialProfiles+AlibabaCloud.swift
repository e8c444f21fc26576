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

extension CredentialProfiles {
    /// A section of Alibaba Cloud's credentials file, by its `type`: `access_key`, `sts`, `ram_role_arn`,
    /// `oidc_role_arn` or `ecs_ram_role`, with the keys Alibaba's credentials libraries read.
    static func alibabaCloudSource(
        file: String?,
        profile: String?,
        environment: [String: String]
    ) throws -> CredentialSource {
        let path = try Self.path(
            explicit: file,
            variable: "ALIBABA_CLOUD_CREDENTIALS_FILE",
            homeRelative: ".alibabacloud/credentials",
            environment: environment
        )
        let profile = profile ?? CredentialsText.nonEmpty(environment["ALIBABA_CLOUD_PROFILE"]) ?? "default"
        guard let text = try Self.readFile(atPath: path) else {
            throw CredentialsError.notFound("no Alibaba Cloud credentials file at \(path)")
        }
        guard let settings = try CredentialsINIFile(parsing: text, path: path).sections[profile] else {
            throw CredentialsError.notFound("Alibaba Cloud profile '\(profile)' is not in \(path)")
        }
        let location = "Alibaba Cloud profile '\(profile)' in \(path)"
        let value = { (key: String) in CredentialsText.nonEmpty(settings[key]) }
        let keys = try Self.keyCredentials(
            location: location,
            kind: ("type", value("type")?.lowercased(), key: "access_key", sts: "sts"),
            accessKeyID: value("access_key_id"),
            secret: value("access_key_secret"),
            token: ("security_token", value("security_token") ?? value("sts_token")),
            roleKinds: ["ram_role_arn", "oidc_role_arn", "ecs_ram_role"]
        )
        let service = STSService.alibabaCloud(
            region: value("sts_region"),
            endpoint: value("sts_endpoint"),
            vpc: value("enable_vpc")?.lowercased() == "true",
            environment: environment
        )
        switch value("type")?.lowercased() {
        case "ram_role_arn":
            let request = try Self.alibabaRoleRequest(
                service: service,
                roleARN: (value("role_arn"), "role_arn"),
                sessionName: value("role_session_name"),
                externalID: value("external_id"),
                duration: value("duration_seconds"),
                policy: value("policy"),
                location: location,
                environment: environment
            )
            guard let keys else {
                throw CredentialsError.incomplete("\(location) has type 'ram_role_arn' but no access_key_id")
            }
            return .assumeRole(request, source: .keys(keys))
        case "oidc_role_arn":
            return try Self.alibabaOIDC(
                service: service,
                roleARN: value("role_arn"),
                providerARN: value("oidc_provider_arn"),
                tokenFile: (value("oidc_token_file_path"), "oidc_token_file_path"),
                sessionName: value("role_session_name"),
                duration: value("duration_seconds"),
                policy: value("policy"),
                location: location,
                environment: environment
            )
        case "ecs_ram_role":
            return .instance(.alibabaCloudECS(roleName: value("role_name")))
        default:
            guard let keys else {
                throw CredentialsError.incomplete("\(location) has no access_key_id and access_key_secret")
            }
            return .keys(keys)
        }
    }

    /// A profile of the aliyun CLI's `config.json`, by its `mode`, with `ChainableRamRoleArn` profiles followed to
    /// their source.
    static func aliyunCLISource(
        file: String?,
        profile: String?,
        environment: [String: String]
    ) throws -> CredentialSource {
        let path = try Self.path(
            explicit: file,
            variable: nil,
            homeRelative: ".aliyun/config.json",
            environment: environment
        )
        guard let text = try Self.readFile(atPath: path) else {
            throw CredentialsError.notFound("no aliyun CLI config file at \(path)")
        }
        let configuration: AliyunCLIConfiguration
        do {
            configuration = try JSONDecoder().decode(AliyunCLIConfiguration.self, from: Data(text.utf8))
        } catch {
            throw CredentialsError.malformedFile(
                path: path,
                reason: "is not a valid aliyun CLI config (JSON with 'profiles')"
            )
        }
        let name =
            profile ?? CredentialsText.nonEmpty(environment["ALIBABA_CLOUD_PROFILE"])
            ?? CredentialsText.nonEmpty(configuration.current) ?? "default"
        return try configuration.source(of: name, path: path, environment: environment, visited: [])
    }

    /// An STS AssumeRole request from a profile's settings.
    static func alibabaRoleRequest(
        service: STSService,
        roleARN: (value: String?, key: String),
        sessionName: String?,
        externalID: String?,
        duration: String?,
        policy: String?,
        location: String,
        environment: [String: String]
    ) throws -> RoleRequest {
        guard let arn = roleARN.value else {
            throw CredentialsError.incomplete("\(location) has no \(roleARN.key)")
        }
        var seconds: Int?
        if let duration, duration != "0" {
            guard let parsed = Int(duration), RoleRequest.durationRange.contains(parsed) else {
                throw CredentialsError.incomplete(
                    "\(location): the role's duration must be a whole number of seconds from 900 to 43200"
                )
            }
            seconds = parsed
        }
        return RoleRequest(
            service: service,
            roleARN: arn,
            sessionName: sessionName ?? CredentialsText.nonEmpty(environment["ALIBABA_CLOUD_ROLE_SESSION_NAME"]),
            externalID: externalID,
            durationSeconds: seconds,
            policy: policy,
            origin: location
        )
    }

    /// An STS AssumeRoleWithOIDC source from a profile's settings.
    static func alibabaOIDC(
        service: STSService,
        roleARN: String?,
        providerARN: String?,
        tokenFile: (value: String?, key: String),
        sessionName: String?,
        duration: String?,
        policy: String?,
        location: String,
        environment: [String: String]
    ) throws -> CredentialSource {
        let request = try Self.alibabaRoleRequest(
            service: service,
            roleARN: (roleARN, "role ARN"),
            sessionName: sessionName,
            externalID: nil,
            duration: duration,
            policy: policy,
            location: location,
            environment: environment
        )
        guard let providerARN else {
            throw CredentialsError.incomplete("\(location) has no OIDC provider ARN")
        }
        guard let file = tokenFile.value else {
            throw CredentialsError.incomplete("\(location) has no \(tokenFile.key)")
        }
        return .webIdentity(request, tokenFile: file, providerARN: providerARN)
    }

    /// The credentials of a profile holding an access key, or an access key with an STS token.
    ///
    /// - Parameters:
    ///   - location: The profile and its file, for messages.
    ///   - kind: The field naming the profile's kind (`type`, `mode`), its value, and the values for an access
    ///     key and for STS credentials. When it is absent or empty, the kind follows from whether a token is set.
    ///   - accessKeyID: The access key id, if set.
    ///   - secret: The secret, if set.
    ///   - token: The field naming the STS token (for messages) and its value, if set.
    ///   - roleKinds: The other kinds, whose keys (if any) sign a role request.
    /// - Returns: The keys, with the token only for the STS kind; `nil` for a role kind without keys.
    /// - Throws: `CredentialsError.Code.incomplete` when a key the kind needs is missing,
    ///   `CredentialsError.Code.unsupported` for a kind that is not known.
    static func keyCredentials(
        location: String,
        kind: (field: String, value: String?, key: String, sts: String),
        accessKeyID: String?,
        secret: String?,
        token: (field: String, value: String?),
        roleKinds: Set<String>
    ) throws(CredentialsError) -> Credentials? {
        let (accessKeyID, secret) = (CredentialsText.nonEmpty(accessKeyID), CredentialsText.nonEmpty(secret))
        let tokenValue = CredentialsText.nonEmpty(token.value)
        let kindValue = CredentialsText.nonEmpty(kind.value) ?? (tokenValue == nil ? kind.key : kind.sts)
        if roleKinds.contains(kindValue) {
            guard let accessKeyID, let secret else { return nil }
            return Credentials(accessKeyID: accessKeyID, secretAccessKey: secret, securityToken: tokenValue)
        }
        guard kindValue == kind.key || kindValue == kind.sts else {
            let known = ([kind.key, kind.sts] + roleKinds.sorted()).map { "'\($0)'" }.joined(separator: ", ")
            throw CredentialsError.unsupported("\(location) has \(kind.field) '\(kindValue)'; supported: \(known)")
        }
        let isSTS = kindValue == kind.sts
        var missing: [String] = []
        if accessKeyID == nil { missing.append("access_key_id") }
        if secret == nil { missing.append("access_key_secret") }
        if isSTS, tokenValue == nil { missing.append(token.field) }
        guard missing.isEmpty, let accessKeyID, let secret else {
            throw CredentialsError.incomplete(
                "\(location) has \(kind.field) '\(kindValue)' but no \(missing.joined(separator: " and "))"
            )
        }
        return Credentials(accessKeyID: accessKeyID, secretAccessKey: secret, securityToken: isSTS ? tokenValue : nil)
    }
}
