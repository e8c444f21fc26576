//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorageSigning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A metadata service's credentials document: a JSON object (or an object inside one) whose string members
/// carry the credentials, under the names its ``Format`` gives.
///
/// Members the format does not name are ignored, whatever their type; a named member that is `null` counts as
/// missing, and one of another type makes the document malformed.
struct InstanceMetadataDocument {
    /// How a service names the document's members.
    struct Format: Sendable {
        /// What the document is called in messages, e.g. `credentials document`.
        var name: String
        /// The member holding the credentials object, or `nil` when they are members of the document itself.
        var container: String?
        /// The member that must read `Success`, if the service sends one.
        var code: String?
        /// The access key id's member.
        var accessKeyID: String
        /// The secret's member.
        var secret: String
        /// The security token's member.
        var securityToken: String
        /// The expiration's member, an RFC 3339 timestamp.
        var expiration: String
    }

    /// One member's value, as far as a credentials document cares.
    private enum Member: Decodable {
        case string(String)
        case object([String: Member])
        case null
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else if let object = try? container.decode([String: Member].self) {
                self = .object(object)
            } else {
                self = .other
            }
        }
    }

    /// The document does not have the expected shape (not an object, or a named member of the wrong type).
    private struct Malformed: Error {}

    /// Parses and checks credentials.
    ///
    /// - Parameters:
    ///   - body: The response body.
    ///   - format: How the service names the members.
    ///   - context: `SOURCE: STEP`, the prefix of every message.
    ///   - now: The current time, to refuse expired credentials.
    /// - Returns: The credentials, with their security token and expiration.
    /// - Throws: `CredentialsError`: `refreshFailed` for a malformed document, a code other than `Success` or an
    ///   expiration that is not a timestamp; `incomplete` for a missing member, or an empty key id or secret;
    ///   `expired` for credentials that have already expired.
    static func credentials(
        from body: ByteBuffer,
        format: Format,
        context: String,
        now: Date
    ) throws(CredentialsError) -> Credentials {
        let malformed = CredentialsError.refreshFailed("\(context): the response is not a \(format.name)")
        let found: [String: Member]?
        do {
            found = try Self.members(of: body, format: format)
        } catch {
            throw malformed
        }
        guard let members = found else {
            throw CredentialsError.incomplete("\(context): the response has no \(format.container ?? "") object")
        }
        let fields: (code: String?, accessKeyID: String?, secret: String?, token: String?, expiration: String?)
        do {
            fields = (
                try format.code.flatMap { try Self.string(members[$0]) },
                try Self.string(members[format.accessKeyID]),
                try Self.string(members[format.secret]),
                try Self.string(members[format.securityToken]),
                try Self.string(members[format.expiration])
            )
        } catch {
            throw malformed
        }
        if let codeName = format.code, let code = fields.code, code != "Success" {
            throw CredentialsError.refreshFailed(
                "\(context): the metadata service answered \(codeName) \(Self.printable(code)) instead of Success"
            )
        }
        guard let accessKeyID = fields.accessKeyID, let secret = fields.secret, let token = fields.token,
            let expirationText = fields.expiration
        else {
            let missing = [
                fields.accessKeyID == nil ? format.accessKeyID : nil,
                fields.secret == nil ? format.secret : nil,
                fields.token == nil ? format.securityToken : nil,
                fields.expiration == nil ? format.expiration : nil,
            ].compactMap { $0 }
            let holder = format.container.map { "the \($0)" } ?? "the response"
            throw CredentialsError.incomplete("\(context): \(holder) lacks \(missing.joined(separator: ", "))")
        }
        guard let expiration = InstanceMetadataTimestamp.parse(expirationText) else {
            throw CredentialsError.refreshFailed(
                "\(context): \(format.expiration) is not an RFC 3339 timestamp"
            )
        }
        guard expiration > now else {
            throw CredentialsError.expired("\(context): the credentials expired at \(expiration) (now \(now))")
        }
        if accessKeyID.isEmpty || secret.isEmpty {
            throw CredentialsError.incomplete("\(context): the access key id or the secret is empty")
        }
        return Credentials(
            accessKeyID: accessKeyID,
            secretAccessKey: secret,
            securityToken: token,
            expiration: expiration
        )
    }

    /// The members holding the credentials: the document's, or its container's (`nil` when it is absent or
    /// `null`).
    private static func members(of body: ByteBuffer, format: Format) throws -> [String: Member]? {
        let document = try JSONDecoder().decode([String: Member].self, from: Data(body.readableBytesView))
        guard let container = format.container else { return document }
        switch document[container] {
        case .object(let members): return members
        case .null, nil: return nil
        case .string, .other: throw Malformed()
        }
    }

    /// A member's text: `nil` when absent or `null`.
    private static func string(_ member: Member?) throws -> String? {
        switch member {
        case .string(let text): return text
        case .null, nil: return nil
        case .object, .other: throw Malformed()
        }
    }

    /// A short, safe rendering of a server-supplied code: identifier characters only, at most 64 of them.
    static func printable(_ text: String) -> String {
        let allowed = text.unicodeScalars.prefix(64).allSatisfy {
            $0.isASCII
                && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "._-".unicodeScalars.contains($0))
        }
        return allowed && !text.isEmpty && text.unicodeScalars.count <= 64 ? text : "<unprintable>"
    }
}
