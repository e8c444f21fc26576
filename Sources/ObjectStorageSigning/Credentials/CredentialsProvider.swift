//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging

/// A source of ``Credentials``: static keys, the environment, an app's own token service, a cache over any of
/// these, or (in `ObjectStorage`) a profile file, a role, a process or a cloud instance's metadata service.
///
/// Providers are values that can be shared across tasks. Create one with a static member:
///
/// ```swift
/// import Logging
///
/// let provider: some CredentialsProvider = .chain(
///     .environment(.oss),
///     .static(accessKeyID: "LTAI-fallback", secretAccessKey: "fallback-secret")
/// )
/// let credentials = try await provider.credentials(logger: Logger(label: "credentials"))
/// ```
///
/// Expiring credentials (STS tokens) belong behind ``refreshing(_:)``,
/// which caches them and refreshes them before they expire.
public protocol CredentialsProvider: Sendable {
    /// Returns credentials to sign a request with.
    ///
    /// Call this for every request (or every attempt of a request), so rotated credentials reach
    /// long transfers; put an expensive source behind ``refreshing(_:)``.
    ///
    /// - Parameter logger: A logger for diagnostics; providers never log a secret or a token.
    /// - Returns: Credentials.
    /// - Throws: ``CredentialsError`` (``CredentialsError/Code/notFound`` when nothing is configured),
    ///   or whatever an app-supplied source throws.
    func credentials(logger: Logger) async throws -> Credentials
}

extension Credentials {
    /// Checks that the access key id and the secret are not empty, and drops an empty token.
    ///
    /// - Parameter source: The provider's name, for the error message.
    /// - Returns: The credentials, with an empty security token replaced by `nil`.
    /// - Throws: ``CredentialsError/Code/incomplete`` naming the empty field.
    func validated(source: String) throws -> Credentials {
        if self.accessKeyID.isEmpty {
            throw CredentialsError.incomplete("\(source): the access key id is empty")
        }
        if self.secretAccessKey.isEmpty {
            throw CredentialsError.incomplete("\(source): the secret access key is empty")
        }
        var credentials = self
        if credentials.securityToken?.isEmpty == true {
            credentials.securityToken = nil
        }
        return credentials
    }
}
