//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A security token service's answer: the credentials of a 200, or the code and message of an error, never
/// quoting a secret.
///
/// - AWS (query protocol, XML): `<…Response><…Result><Credentials>` with `AccessKeyId`, `SecretAccessKey`,
///   `SessionToken`, `Expiration`, and `<AssumedRoleUser><Arn>`; errors are `<ErrorResponse><Error><Code>`,
///   `<Message>`.
/// - Alibaba Cloud (JSON): `{"Credentials": {"AccessKeyId", "AccessKeySecret", "SecurityToken", "Expiration"},
///   "AssumedRoleUser": {"Arn"}}`; errors are `{"Code", "Message", "RequestId"}`.
package enum STSResponse {
    /// What a 200 answer grants.
    package struct Grant: Sendable, Hashable {
        /// The temporary credentials, with their security token and expiration.
        package var credentials: Credentials
        /// The assumed role's session ARN, when the answer names it.
        package var assumedRoleARN: String?
    }

    /// The largest answer read (real ones are about 2 KiB).
    package static let maximumBodySize = 64 * 1024

    /// Parses a 200 answer.
    ///
    /// - Parameters:
    ///   - body: The answer's body.
    ///   - vendor: `.s3` for AWS, `.oss` for Alibaba Cloud.
    ///   - context: The prefix of every message, e.g. `STS AssumeRole for arn:…`.
    ///   - now: The current time, to refuse credentials that have already expired.
    /// - Throws: `CredentialsError`: `refreshFailed` for an answer of another shape, `incomplete` for a missing
    ///   field, `expired` for credentials already expired.
    package static func grant(
        from body: [UInt8],
        vendor: StorageVendor,
        context: String,
        now: Date
    ) throws(CredentialsError) -> Grant {
        let fields: Fields?
        if vendor == .oss {
            fields = Self.alibabaFields(body)
        } else {
            fields = Self.awsFields(body)
        }
        guard let fields else {
            throw CredentialsError.refreshFailed("\(context): the answer is not an STS credentials document")
        }
        let names = vendor == .oss ? Self.alibabaNames : Self.awsNames
        let values = [fields.accessKeyID, fields.secret, fields.token, fields.expiration]
        let missing = zip(names, values).filter { CredentialsText.nonEmpty($0.1) == nil }.map(\.0)
        guard missing.isEmpty, let accessKeyID = fields.accessKeyID, let secret = fields.secret,
            let token = fields.token, let expirationText = fields.expiration
        else {
            throw CredentialsError.incomplete("\(context): the answer lacks \(missing.joined(separator: ", "))")
        }
        guard let expiration = SigningTimestamp(iso8601: expirationText)?.date else {
            throw CredentialsError.refreshFailed("\(context): Expiration is not an ISO 8601 timestamp")
        }
        guard expiration > now else {
            throw CredentialsError.expired("\(context): the credentials expired at \(expiration) (now \(now))")
        }
        return Grant(
            credentials: Credentials(
                accessKeyID: accessKeyID,
                secretAccessKey: secret,
                securityToken: token,
                expiration: expiration
            ),
            assumedRoleARN: fields.roleARN.flatMap(CredentialsText.nonEmpty)
        )
    }

    /// The error's code and message, e.g. `AccessDenied: Not authorized to perform sts:AssumeRole`, or `nil` when
    /// the body is not an error document. The message is cut to 200 characters and stripped of control characters.
    package static func errorSummary(from body: [UInt8], vendor: StorageVendor) -> String? {
        var code: String?
        var message: String?
        if vendor == .oss {
            let document = try? JSONDecoder().decode(AlibabaError.self, from: Data(body))
            (code, message) = (document?.Code, document?.Message)
        } else if let root = try? XMLNode.parse(body) {
            let error = root.name == "Error" ? root : root.child("Error")
            (code, message) = (error?["Code"], error?["Message"])
        }
        guard let code = code.map(Self.printable), !code.isEmpty else { return nil }
        guard let message = message.map(Self.printable), !message.isEmpty else { return code }
        return "\(code): \(message)"
    }

    private struct Fields {
        var accessKeyID: String?
        var secret: String?
        var token: String?
        var expiration: String?
        var roleARN: String?
    }

    private static let awsNames = ["AccessKeyId", "SecretAccessKey", "SessionToken", "Expiration"]
    private static let alibabaNames = ["AccessKeyId", "AccessKeySecret", "SecurityToken", "Expiration"]

    private static func awsFields(_ body: [UInt8]) -> Fields? {
        guard let root = try? XMLNode.parse(body),
            let result = root.children.first(where: { $0.name.hasSuffix("Result") })
        else { return nil }
        guard let credentials = result.child("Credentials") else { return Fields() }
        return Fields(
            accessKeyID: credentials["AccessKeyId"],
            secret: credentials["SecretAccessKey"],
            token: credentials["SessionToken"],
            expiration: credentials["Expiration"],
            roleARN: result.child("AssumedRoleUser")?["Arn"]
        )
    }

    private struct AlibabaGrant: Decodable {
        struct Keys: Decodable {
            var AccessKeyId: String?
            var AccessKeySecret: String?
            var SecurityToken: String?
            var Expiration: String?
        }
        struct User: Decodable {
            var Arn: String?
        }
        var Credentials: Keys?
        var AssumedRoleUser: User?
    }

    private struct AlibabaError: Decodable {
        var Code: String?
        var Message: String?
    }

    private static func alibabaFields(_ body: [UInt8]) -> Fields? {
        guard let document = try? JSONDecoder().decode(AlibabaGrant.self, from: Data(body)) else { return nil }
        let keys = document.Credentials
        return Fields(
            accessKeyID: keys?.AccessKeyId,
            secret: keys?.AccessKeySecret,
            token: keys?.SecurityToken,
            expiration: keys?.Expiration,
            roleARN: document.AssumedRoleUser?.Arn
        )
    }

    /// `text` without control characters, trimmed, at most 200 characters.
    private static func printable(_ text: String) -> String {
        let kept = text.unicodeScalars.filter { !$0.properties.generalCategory.isControl }
        let trimmed = CredentialsText.trimmed(String(String.UnicodeScalarView(kept)))
        return trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isControl: Bool {
        self == .control || self == .format || self == .lineSeparator || self == .paragraphSeparator
    }
}
