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

extension ProfileCredentialsProvider {
    func alibabaCloudCredentials(file: String?, environment: [String: String]) throws -> Credentials {
        let path = try Self.path(
            explicit: file,
            variable: "ALIBABA_CLOUD_CREDENTIALS_FILE",
            homeRelative: ".alibabacloud/credentials",
            environment: environment
        )
        let profile = self.profile ?? CredentialsText.nonEmpty(environment["ALIBABA_CLOUD_PROFILE"]) ?? "default"
        guard let text = try Self.readFile(atPath: path) else {
            throw CredentialsError.notFound("no Alibaba Cloud credentials file at \(path)")
        }
        guard let settings = try CredentialsINIFile(parsing: text, path: path).sections[profile] else {
            throw CredentialsError.notFound("Alibaba Cloud profile '\(profile)' is not in \(path)")
        }
        return try Self.keyCredentials(
            location: "Alibaba Cloud profile '\(profile)' in \(path)",
            kind: ("type", settings["type"]?.lowercased(), key: "access_key", sts: "sts"),
            accessKeyID: settings["access_key_id"],
            secret: settings["access_key_secret"],
            token: ("security_token", settings["security_token"] ?? settings["sts_token"])
        )
    }

    func aliyunCLICredentials(file: String?, environment: [String: String]) throws -> Credentials {
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
        let profile =
            self.profile ?? CredentialsText.nonEmpty(environment["ALIBABA_CLOUD_PROFILE"])
            ?? CredentialsText.nonEmpty(configuration.current) ?? "default"
        guard let entry = configuration.profiles.first(where: { $0.name == profile }) else {
            throw CredentialsError.notFound("aliyun CLI profile '\(profile)' is not in \(path)")
        }
        return try Self.keyCredentials(
            location: "aliyun CLI profile '\(profile)' in \(path)",
            kind: ("mode", entry.mode, key: "AK", sts: "StsToken"),
            accessKeyID: entry.accessKeyID,
            secret: entry.accessKeySecret,
            token: ("sts_token", entry.stsToken)
        )
    }

    /// The credentials of a profile holding an access key, or an access key with an STS token.
    ///
    /// - Parameters:
    ///   - location: The profile and its file, for messages.
    ///   - kind: The field naming the profile's kind (`type`, `mode`), its value, and the values for an access
    ///     key and for STS credentials. The field is required by both formats; when it is absent or empty, the
    ///     kind follows from whether a token is set.
    ///   - accessKeyID: The access key id, if set (empty counts as unset, here and below).
    ///   - secret: The secret, if set.
    ///   - token: The field naming the STS token (for messages) and its value, if set.
    /// - Returns: The credentials, with the token only for the STS kind.
    /// - Throws: `CredentialsError.Code.incomplete` when a key the kind needs is missing,
    ///   `CredentialsError.Code.unsupported` for another kind.
    private static func keyCredentials(
        location: String,
        kind: (field: String, value: String?, key: String, sts: String),
        accessKeyID: String?,
        secret: String?,
        token: (field: String, value: String?)
    ) throws(CredentialsError) -> Credentials {
        let (accessKeyID, secret) = (CredentialsText.nonEmpty(accessKeyID), CredentialsText.nonEmpty(secret))
        let tokenValue = CredentialsText.nonEmpty(token.value)
        let kindValue = CredentialsText.nonEmpty(kind.value) ?? (tokenValue == nil ? kind.key : kind.sts)
        guard kindValue == kind.key || kindValue == kind.sts else {
            throw CredentialsError.unsupported(
                "\(location) has \(kind.field) '\(kindValue)'; only '\(kind.key)' and '\(kind.sts)' are supported "
                    + "here (use a federated provider for roles)"
            )
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

/// The parts of the aliyun CLI's `config.json` that hold credentials.
private struct AliyunCLIConfiguration: Decodable {
    struct Profile: Decodable {
        var name: String
        var mode: String?
        var accessKeyID: String?
        var accessKeySecret: String?
        var stsToken: String?

        enum CodingKeys: String, CodingKey {
            case name
            case mode
            case accessKeyID = "access_key_id"
            case accessKeySecret = "access_key_secret"
            case stsToken = "sts_token"
        }
    }

    var current: String?
    var profiles: [Profile]
}
