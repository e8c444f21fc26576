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

/// What an external credential process writes to its standard output: the JSON of AWS's `credential_process` or
/// of Alibaba Cloud's `External` profile mode.
///
/// The process provider of the `ObjectStorage` module (`.process(_:format:timeout:)`) takes one.
public struct CredentialProcessFormat: Sendable, Hashable {
    fileprivate enum Base: String, Hashable, Sendable {
        case aws
        case alibabaCloud
    }

    fileprivate let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    /// The JSON of AWS's `credential_process`: `Version` (the number 1), `AccessKeyId`, `SecretAccessKey`, and the
    /// optional `SessionToken` and `Expiration` (ISO 8601 in UTC, e.g. `2030-01-02T03:04:05Z`, with or without
    /// fractional seconds). Without `Expiration` the credentials do not expire.
    public static let aws = CredentialProcessFormat(.aws)

    /// The JSON of Alibaba Cloud's `External` profile mode: `access_key_id`, `access_key_secret`, and the optional
    /// `mode` (`AK` or `StsToken`), `sts_token` (required in mode `StsToken`, ignored in mode `AK`) and
    /// `expiration` (`2030-01-02T03:04:05Z`). Without `expiration` the credentials do not expire.
    public static let alibabaCloud = CredentialProcessFormat(.alibabaCloud)

    /// The format's name, `aws` or `alibabaCloud`.
    package var name: String {
        self.base.rawValue
    }
}

/// Reads the credentials a credential process printed, in a ``CredentialProcessFormat``.
///
/// The output holds secrets, so no message quotes it: a message names the member that is missing or invalid, never
/// its value (the `Version` of the AWS format, a small number, is the one exception).
package enum CredentialProcessOutput {
    /// Parses and checks the credentials a process wrote.
    ///
    /// Members the format does not name are ignored, whatever their type; a named member that is `null` counts as
    /// missing; when a member appears twice, the last one counts (as in Python's `json`).
    ///
    /// - Parameters:
    ///   - stdout: Everything the process wrote to its standard output.
    ///   - format: The output's format.
    ///   - context: What ran, the prefix of every message, e.g.
    ///     `AWS profile 'dev' in /home/u/.aws/config: credential process get-creds`.
    ///   - now: The current time, to refuse credentials that have already expired.
    /// - Returns: The credentials, with a security token and an expiration when the output has them (an empty
    ///   token counts as none).
    /// - Throws: `CredentialsError`: ``CredentialsError/Code/refreshFailed`` when the output is not a JSON object,
    ///   a member has the wrong type or an expiration is not a timestamp; ``CredentialsError/Code/incomplete`` when
    ///   a required member is missing or empty; ``CredentialsError/Code/unsupported`` for an AWS `Version` other
    ///   than 1 or an Alibaba Cloud `mode` other than `AK` and `StsToken`; ``CredentialsError/Code/expired`` when
    ///   the expiration is not after `now`.
    package static func credentials(
        parsing stdout: [UInt8],
        format: CredentialProcessFormat,
        context: String,
        now: Date
    ) throws(CredentialsError) -> Credentials {
        let members = try Members(parsing: stdout, context: context)
        switch format.base {
        case .aws:
            return try Self.aws(members, context: context, now: now)
        case .alibabaCloud:
            return try Self.alibabaCloud(members, context: context, now: now)
        }
    }

    /// botocore's `ProcessProvider`.
    private static func aws(_ members: Members, context: String, now: Date) throws(CredentialsError) -> Credentials {
        guard let version = members["Version"] else {
            throw CredentialsError.incomplete("\(context): the output lacks Version (it must be 1)")
        }
        guard version.integer == 1 else {
            if let number = version.integer, number < 1_000_000 {
                throw CredentialsError.unsupported("\(context): Version \(number) is not supported (only Version 1 is)")
            }
            throw CredentialsError.unsupported("\(context): Version is not the number 1")
        }
        let accessKeyID = try members.string("AccessKeyId")
        let secret = try members.string("SecretAccessKey")
        let token = try members.string("SessionToken")
        let expiration = try members.string("Expiration")
        guard let accessKeyID, let secret else {
            let missing = [accessKeyID == nil ? "AccessKeyId" : nil, secret == nil ? "SecretAccessKey" : nil]
            throw CredentialsError.incomplete(
                "\(context): the output lacks \(missing.compactMap { $0 }.joined(separator: ", "))"
            )
        }
        return try Self.credentials(
            accessKeyID: (accessKeyID, "AccessKeyId"),
            secret: (secret, "SecretAccessKey"),
            token: token,
            expiration: expiration.map { ($0, "Expiration") },
            context: context,
            now: now
        )
    }

    /// `alibabacloud_credentials` `provider/external.py`, with the mode checked as the Alibaba Cloud CLI checks it.
    private static func alibabaCloud(
        _ members: Members,
        context: String,
        now: Date
    ) throws(CredentialsError) -> Credentials {
        let accessKeyID = try members.string("access_key_id")
        let secret = try members.string("access_key_secret")
        let token = try members.string("sts_token")
        let mode = try members.string("mode")
        // external.py reads an empty expiration as none.
        let expiration = try members.string("expiration").flatMap { $0.isEmpty ? nil : $0 }
        guard let accessKeyID, let secret else {
            let missing = [accessKeyID == nil ? "access_key_id" : nil, secret == nil ? "access_key_secret" : nil]
            throw CredentialsError.incomplete(
                "\(context): the output lacks \(missing.compactMap { $0 }.joined(separator: ", "))"
            )
        }
        let securityToken: String?
        switch mode {
        case "AK":
            securityToken = nil
        case "StsToken":
            guard let token, !token.isEmpty else {
                throw CredentialsError.incomplete("\(context): mode is StsToken but sts_token is missing or empty")
            }
            securityToken = token
        case nil:
            securityToken = token
        default:
            throw CredentialsError.unsupported("\(context): mode is neither AK nor StsToken")
        }
        return try Self.credentials(
            accessKeyID: (accessKeyID, "access_key_id"),
            secret: (secret, "access_key_secret"),
            token: securityToken,
            expiration: expiration.map { ($0, "expiration") },
            context: context,
            now: now
        )
    }

    /// The checks both formats share, on values that are present.
    private static func credentials(
        accessKeyID: (value: String, name: String),
        secret: (value: String, name: String),
        token: String?,
        expiration: (value: String, name: String)?,
        context: String,
        now: Date
    ) throws(CredentialsError) -> Credentials {
        for field in [accessKeyID, secret] where field.value.isEmpty {
            throw CredentialsError.incomplete("\(context): \(field.name) is empty")
        }
        var expires: Date?
        if let expiration {
            guard let timestamp = SigningTimestamp(iso8601: expiration.value) else {
                throw CredentialsError.refreshFailed(
                    "\(context): \(expiration.name) is not a timestamp such as 2030-01-02T03:04:05Z"
                )
            }
            guard timestamp.date > now else {
                throw CredentialsError.expired(
                    "\(context): the credentials expired at \(timestamp.iso8601WholeSeconds) "
                        + "(now \(SigningTimestamp(now).iso8601WholeSeconds))"
                )
            }
            expires = timestamp.date
        }
        return Credentials(
            accessKeyID: accessKeyID.value,
            secretAccessKey: secret.value,
            securityToken: token.flatMap { $0.isEmpty ? nil : $0 },
            expiration: expires
        )
    }

    /// The members of the output's JSON object.
    private struct Members {
        private let values: [String: JSONValue]
        private let context: String

        init(parsing stdout: [UInt8], context: String) throws(CredentialsError) {
            let document: JSONValue
            do {
                document = try StrictJSON.parse(stdout)
            } catch {
                // The position only: the syntax error's text may show a character of the output.
                throw CredentialsError.refreshFailed(
                    "\(context): the output is not the expected JSON (invalid at line \(error.line), "
                        + "column \(error.column))"
                )
            }
            guard case .object(let members) = document else {
                throw CredentialsError.refreshFailed("\(context): the output is not the expected JSON object")
            }
            self.values = Dictionary(members, uniquingKeysWith: { _, last in last })
            self.context = context
        }

        /// The member `name`, `nil` when absent or `null`.
        subscript(name: String) -> JSONValue? {
            switch self.values[name] {
            case .null, nil: return nil
            case let value?: return value
            }
        }

        /// The string member `name`: `nil` when absent or `null`.
        ///
        /// - Throws: ``CredentialsError/Code/refreshFailed`` when it is not a string.
        func string(_ name: String) throws(CredentialsError) -> String? {
            switch self[name] {
            case .string(let text): return text
            case nil: return nil
            case .number, .bool, .null, .array, .object:
                throw CredentialsError.refreshFailed("\(self.context): \(name) in the output is not a string")
            }
        }
    }
}
