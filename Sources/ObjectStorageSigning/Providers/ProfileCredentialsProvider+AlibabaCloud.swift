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
        let location = "Alibaba Cloud profile '\(profile)' in \(path)"
        let accessKeyID = CredentialsText.nonEmpty(settings["access_key_id"])
        let secret = CredentialsText.nonEmpty(settings["access_key_secret"])
        let token = CredentialsText.nonEmpty(settings["security_token"] ?? settings["sts_token"])
        // `type` is required by the format; infer it when absent, from which keys are present.
        let type = CredentialsText.nonEmpty(settings["type"])?.lowercased() ?? (token == nil ? "access_key" : "sts")

        switch type {
        case "access_key", "sts":
            var missing: [String] = []
            if accessKeyID == nil { missing.append("access_key_id") }
            if secret == nil { missing.append("access_key_secret") }
            if type == "sts", token == nil { missing.append("security_token") }
            guard missing.isEmpty, let accessKeyID, let secret else {
                throw CredentialsError.incomplete(
                    "\(location) has type '\(type)' but no \(missing.joined(separator: " and "))"
                )
            }
            return Credentials(
                accessKeyID: accessKeyID,
                secretAccessKey: secret,
                securityToken: type == "sts" ? token : nil
            )
        default:
            throw CredentialsError.unsupported(
                "\(location) has type '\(type)'; only 'access_key' and 'sts' are supported here "
                    + "(use a federated provider for roles)"
            )
        }
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
        let location = "aliyun CLI profile '\(profile)' in \(path)"
        let accessKeyID = CredentialsText.nonEmpty(entry.accessKeyID)
        let secret = CredentialsText.nonEmpty(entry.accessKeySecret)
        let token = CredentialsText.nonEmpty(entry.stsToken)
        let mode = CredentialsText.nonEmpty(entry.mode) ?? (token == nil ? "AK" : "StsToken")

        switch mode {
        case "AK", "StsToken":
            var missing: [String] = []
            if accessKeyID == nil { missing.append("access_key_id") }
            if secret == nil { missing.append("access_key_secret") }
            if mode == "StsToken", token == nil { missing.append("sts_token") }
            guard missing.isEmpty, let accessKeyID, let secret else {
                throw CredentialsError.incomplete(
                    "\(location) has mode '\(mode)' but no \(missing.joined(separator: " and "))"
                )
            }
            return Credentials(
                accessKeyID: accessKeyID,
                secretAccessKey: secret,
                securityToken: mode == "StsToken" ? token : nil
            )
        default:
            throw CredentialsError.unsupported(
                "\(location) has mode '\(mode)'; only 'AK' and 'StsToken' are supported here "
                    + "(use a federated provider for roles)"
            )
        }
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
