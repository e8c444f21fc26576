//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging

/// A provider that always returns the same credentials.
///
/// Use it for keys the app already holds; prefer the environment or a profile file for keys an
/// operator configures.
public struct StaticCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    /// The credentials returned by every call.
    package let staticCredentials: Credentials

    /// Creates a provider that always returns `credentials`.
    ///
    /// - Parameter credentials: The credentials to return.
    package init(_ credentials: Credentials) {
        self.staticCredentials = credentials
    }

    /// Returns the static credentials.
    ///
    /// - Parameter logger: Unused.
    /// - Returns: The credentials given at creation.
    /// - Throws: ``CredentialsError/Code/incomplete`` when the access key id or the secret is empty.
    public func credentials(logger: Logger) async throws -> Credentials {
        try self.staticCredentials.validated(source: "static credentials")
    }

    /// `static(accessKeyID: …)`, without the secret.
    public var description: String {
        "static(accessKeyID: \(self.staticCredentials.accessKeyID))"
    }
}

extension CredentialsProvider where Self == StaticCredentialsProvider {
    /// A provider that always returns the given keys.
    ///
    /// <!-- snippet: given id: String, secret: String -->
    /// ```swift
    /// let provider: some CredentialsProvider = .static(accessKeyID: id, secretAccessKey: secret)
    /// ```
    ///
    /// - Parameters:
    ///   - accessKeyID: The access key id.
    ///   - secretAccessKey: The secret access key.
    ///   - securityToken: The security token, for temporary credentials.
    /// - Returns: A static provider.
    public static func `static`(
        accessKeyID: String,
        secretAccessKey: String,
        securityToken: String? = nil
    ) -> StaticCredentialsProvider {
        StaticCredentialsProvider(
            Credentials(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey, securityToken: securityToken)
        )
    }
}
