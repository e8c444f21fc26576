//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging

/// A provider that asks the app for credentials, e.g. an STS token fetched from the app's own server.
///
/// This is the "federation" pattern of the mobile SDKs: the app server holds the long-lived keys,
/// calls STS, and hands out short-lived credentials. Every call runs the closure, so put the provider
/// behind ``CredentialsProvider/refreshing(_:)`` to cache the
/// token until shortly before it expires:
///
/// <!-- snippet: given fetchSTSToken: @escaping @Sendable () async throws
///      -> (accessKeyID: String, accessKeySecret: String, securityToken: String, expiration: Date) -->
/// ```swift
/// let provider: some CredentialsProvider = .refreshing(
///     .federated {
///         let token = try await fetchSTSToken()  // from your app server
///         return Credentials(
///             accessKeyID: token.accessKeyID,
///             secretAccessKey: token.accessKeySecret,
///             securityToken: token.securityToken,
///             expiration: token.expiration
///         )
///     }
/// )
/// ```
public struct FederatedCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    private let fetch: @Sendable () async throws -> Credentials

    /// Creates a provider that calls `fetch` for credentials.
    ///
    /// - Parameter fetch: Returns fresh credentials; errors it throws reach the caller unchanged.
    package init(_ fetch: @escaping @Sendable () async throws -> Credentials) {
        self.fetch = fetch
    }

    /// Calls the app's closure.
    ///
    /// - Parameter logger: A logger for diagnostics.
    /// - Returns: The closure's credentials.
    /// - Throws: What the closure throws, or ``CredentialsError/Code/incomplete`` when it returns an
    ///   empty access key id or secret.
    public func credentials(logger: Logger) async throws -> Credentials {
        logger.trace("fetching federated credentials")
        return try await self.fetch().validated(source: "federated credentials")
    }

    /// `federated`.
    public var description: String {
        "federated"
    }
}

extension CredentialsProvider where Self == FederatedCredentialsProvider {
    /// A provider that calls an app-supplied closure for credentials (e.g. an STS token from the app server).
    ///
    /// - Parameter fetch: Returns fresh credentials.
    /// - Returns: A federated provider; wrap it in
    ///   ``CredentialsProvider/refreshing(_:)`` to cache expiring credentials.
    public static func federated(
        _ fetch: @escaping @Sendable () async throws -> Credentials
    ) -> FederatedCredentialsProvider {
        FederatedCredentialsProvider(fetch)
    }
}
