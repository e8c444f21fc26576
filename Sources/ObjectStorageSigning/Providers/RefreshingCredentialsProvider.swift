//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A cache over an expiring provider: it refreshes credentials before they expire, runs one refresh
/// at a time however many callers wait, and never sticks in an error state.
///
/// - Credentials without an expiration are fetched once and kept.
/// - Expiring credentials are refreshed once they enter the refresh window (see ``CredentialsProvider/refreshing(_:)``).
///   Callers that arrive while a refresh runs wait for that same refresh: the wrapped provider is
///   called once.
/// - When a refresh fails while the cached credentials are still valid, callers keep getting the
///   cached credentials, and the next refresh waits for a jittered exponential backoff.
/// - When no valid credentials remain, the refresh's error reaches the caller unchanged, and the
///   next call tries again: one failure never poisons the cache.
///
/// There is no background task: refreshes run when a caller asks for credentials.
///
/// <!-- snippet: given fetchCredentials: @escaping @Sendable () async throws -> Credentials -->
/// ```swift
/// let provider: some CredentialsProvider = .refreshing(.federated { try await fetchCredentials() })
/// ```
public struct RefreshingCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    /// When to refresh, and how long to back off after a failed refresh.
    package struct Configuration: Sendable, Hashable {
        /// Refresh once the remaining lifetime falls below this duration (default 5 minutes).
        package var refreshBeforeExpiry: Duration
        /// Refresh once the remaining lifetime falls below this fraction of the whole lifetime
        /// (default 0.2), when that is longer than ``refreshBeforeExpiry``.
        ///
        /// The refresh window is capped at half the lifetime, so short-lived credentials are not
        /// refreshed on every call.
        package var refreshLifetimeFraction: Double
        /// The refresh window is widened by a random share of itself, up to this fraction (default 0.5), so that
        /// processes that fetched credentials together do not all refresh together. The window stays capped at
        /// half the lifetime.
        package var refreshJitter: Double
        /// Credentials count as expired this long before their expiration (default 10 seconds), to
        /// leave time for a signed request to reach the server and to absorb clock skew.
        package var expiryMargin: Duration
        /// The backoff after the first failed refresh (default 1 second); it doubles per consecutive
        /// failure, with jitter between half and all of it.
        package var initialBackoff: Duration
        /// The longest backoff between failed refreshes (default 2 minutes).
        package var maximumBackoff: Duration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - refreshBeforeExpiry: Refresh once the remaining lifetime falls below this duration.
        ///   - refreshLifetimeFraction: Refresh once the remaining lifetime falls below this fraction of it.
        ///   - refreshJitter: Widen the refresh window by a random share of itself, up to this fraction.
        ///   - expiryMargin: Credentials count as expired this long before their expiration.
        ///   - initialBackoff: The backoff after the first failed refresh.
        ///   - maximumBackoff: The longest backoff between failed refreshes.
        package init(
            refreshBeforeExpiry: Duration = .seconds(300),
            refreshLifetimeFraction: Double = 0.2,
            refreshJitter: Double = 0.5,
            expiryMargin: Duration = .seconds(10),
            initialBackoff: Duration = .seconds(1),
            maximumBackoff: Duration = .seconds(120)
        ) {
            self.refreshBeforeExpiry = refreshBeforeExpiry
            self.refreshLifetimeFraction = refreshLifetimeFraction
            self.refreshJitter = refreshJitter
            self.expiryMargin = expiryMargin
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
        }
    }

    let cache: RefreshingCredentialsCache
    private let name: String

    /// Creates a cache over `provider`.
    ///
    /// - Parameters:
    ///   - provider: The provider to cache, typically one that returns expiring credentials.
    ///   - configuration: When to refresh and how to back off.
    ///   - now: The current time (inject a fixed clock in tests).
    ///   - randomNumberGenerator: The source of the refresh's and the backoff's jitter (inject a seeded generator
    ///     in tests).
    package init(
        _ provider: any CredentialsProvider,
        configuration: Configuration = Configuration(),
        now: @escaping @Sendable () -> Date = { Date() },
        randomNumberGenerator: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.name = (provider as? any CustomStringConvertible)?.description ?? String(describing: type(of: provider))
        self.cache = RefreshingCredentialsCache(
            provider: provider,
            name: self.name,
            configuration: configuration,
            now: now,
            randomNumberGenerator: randomNumberGenerator
        )
    }

    /// Returns cached credentials, refreshing them first when they are due.
    ///
    /// - Parameter logger: A logger for refreshes and failures (never a secret).
    /// - Returns: Valid credentials.
    /// - Throws: The wrapped provider's error when no valid credentials remain, or
    ///   ``CredentialsError/Code/expired`` when it returned credentials that had already expired.
    public func credentials(logger: Logger) async throws -> Credentials {
        try await self.cache.credentials(logger: logger)
    }

    /// `refreshing(<wrapped provider>)`.
    public var description: String {
        "refreshing(\(self.name))"
    }
}

extension CredentialsProvider where Self == RefreshingCredentialsProvider {
    /// A cache over `provider` that refreshes expiring credentials five minutes (or a fifth of their lifetime,
    /// whichever is longer), plus a random share of up to half that again, before they expire (at most half the
    /// lifetime before), and backs off from 1 second to 2 minutes,
    /// with jitter, after a failed refresh.
    ///
    /// - Parameter provider: The provider to cache.
    /// - Returns: A refreshing provider.
    public static func refreshing(_ provider: any CredentialsProvider) -> RefreshingCredentialsProvider {
        RefreshingCredentialsProvider(provider)
    }
}
