//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An access key pair, with an optional security token and expiration, used to sign requests.
///
/// Long-lived keys have neither a token nor an expiration. Temporary credentials (an STS token from
/// Alibaba Cloud, Huawei Cloud or AWS) carry both.
///
/// The secret and the token never appear in `description` (which `debugPrint` and `String(reflecting:)` use
/// too), so a credentials value is safe to interpolate into a log line:
///
/// <!-- snippet: given secret: String -->
/// ```swift
/// let credentials = Credentials(accessKeyID: "LTAI...", secretAccessKey: secret)
/// print(credentials)  // Credentials(accessKeyID: LTAI..., secretAccessKey: <redacted>)
/// ```
public struct Credentials: Sendable, Hashable, CustomStringConvertible {
    /// The access key id (public; it appears in every signed request).
    public var accessKeyID: String
    /// The secret access key. Never logged or printed.
    public var secretAccessKey: String
    /// The security (session) token of temporary credentials, if any. Never logged or printed.
    public var securityToken: String?
    /// The instant after which the credentials are no longer valid, if they expire.
    public var expiration: Date?

    /// Creates credentials.
    ///
    /// - Parameters:
    ///   - accessKeyID: The access key id.
    ///   - secretAccessKey: The secret access key.
    ///   - securityToken: The security (session) token of temporary credentials.
    ///   - expiration: The instant after which the credentials are no longer valid.
    public init(accessKeyID: String, secretAccessKey: String, securityToken: String? = nil, expiration: Date? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.securityToken = securityToken
        self.expiration = expiration
    }

    /// A description that shows the access key id and redacts the secret and the token.
    public var description: String {
        var parts = ["accessKeyID: \(self.accessKeyID)", "secretAccessKey: <redacted>"]
        if self.securityToken != nil {
            parts.append("securityToken: <redacted>")
        }
        if let expiration = self.expiration {
            parts.append("expiration: \(expiration)")
        }
        return "Credentials(\(parts.joined(separator: ", ")))"
    }
}
