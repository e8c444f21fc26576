//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The single-flight state behind ``RefreshingCredentialsProvider``.
actor RefreshingCredentialsCache {
    /// Cached credentials with the instants that matter for them.
    struct Entry: Sendable {
        var credentials: Credentials
        /// When to start refreshing; `nil` for credentials that never expire.
        var refreshAt: Date?
        /// When the credentials stop being usable (expiration minus the margin); `nil` if never.
        var validUntil: Date?

        func isValid(at now: Date) -> Bool {
            self.validUntil.map { now < $0 } ?? true
        }

        func needsRefresh(at now: Date) -> Bool {
            self.refreshAt.map { now >= $0 } ?? false
        }
    }

    private let provider: any CredentialsProvider
    private let name: String
    private let configuration: RefreshingCredentialsProvider.Configuration
    private let now: @Sendable () -> Date
    private var randomNumberGenerator: any RandomNumberGenerator

    private var entry: Entry?
    private var refresh: Task<Entry, any Error>?
    private var consecutiveFailures = 0
    private var retryNotBefore: Date?

    /// How many callers are waiting for the refresh in flight (observed by tests).
    private(set) var waitingCallers = 0

    init(
        provider: any CredentialsProvider,
        name: String,
        configuration: RefreshingCredentialsProvider.Configuration,
        now: @escaping @Sendable () -> Date,
        randomNumberGenerator: some RandomNumberGenerator & Sendable
    ) {
        self.provider = provider
        self.name = name
        self.configuration = configuration
        self.now = now
        self.randomNumberGenerator = randomNumberGenerator
    }

    func credentials(logger: Logger) async throws -> Credentials {
        let now = self.now()
        if let entry = self.entry, entry.isValid(at: now) {
            if !entry.needsRefresh(at: now) {
                return entry.credentials
            }
            if let retryNotBefore = self.retryNotBefore, now < retryNotBefore {
                // A recent refresh failed: keep serving the still-valid credentials until the backoff ends.
                return entry.credentials
            }
        }

        let refresh = self.refresh ?? self.startRefresh(logger: logger)
        self.waitingCallers += 1
        let result = await refresh.result
        self.waitingCallers -= 1

        switch result {
        case .success(let entry):
            return entry.credentials
        case .failure(let error):
            if let entry = self.entry, entry.isValid(at: self.now()) {
                return entry.credentials
            }
            throw error
        }
    }

    private func startRefresh(logger: Logger) -> Task<Entry, any Error> {
        let provider = self.provider
        logger.debug(
            "refreshing credentials",
            metadata: ["provider": "\(self.name)", "cached": "\(self.entry == nil ? "none" : "present")"]
        )
        let refresh = Task<Entry, any Error> {
            defer { self.refresh = nil }
            do {
                let credentials = try await provider.credentials(logger: logger)
                return try self.recordSuccess(credentials, logger: logger)
            } catch {
                self.recordFailure(error, logger: logger)
                throw error
            }
        }
        self.refresh = refresh
        return refresh
    }

    private func recordSuccess(_ credentials: Credentials, logger: Logger) throws -> Entry {
        let fetchedAt = self.now()
        var entry = Entry(credentials: credentials, refreshAt: nil, validUntil: nil)
        if let expiration = credentials.expiration {
            let validUntil = expiration.addingTimeInterval(-self.configuration.expiryMargin.timeInterval)
            guard validUntil > fetchedAt else {
                throw CredentialsError.expired(
                    "\(self.name) returned credentials that expire at \(expiration), "
                        + "within \(self.configuration.expiryMargin) of now (\(fetchedAt))"
                )
            }
            let lifetime = expiration.timeIntervalSince(fetchedAt)
            let baseWindow = max(
                self.configuration.refreshBeforeExpiry.timeInterval,
                self.configuration.refreshLifetimeFraction * lifetime
            )
            let jitter = max(0, self.configuration.refreshJitter)
            let jittered = baseWindow * (1 + Double.random(in: 0...jitter, using: &self.randomNumberGenerator))
            let window = min(jittered, lifetime / 2)
            entry.refreshAt = min(expiration.addingTimeInterval(-window), validUntil)
            entry.validUntil = validUntil
        }
        self.entry = entry
        self.consecutiveFailures = 0
        self.retryNotBefore = nil
        logger.debug(
            "refreshed credentials",
            metadata: [
                "provider": "\(self.name)",
                "expiration": "\(credentials.expiration.map { "\($0)" } ?? "never")",
            ]
        )
        return entry
    }

    private func recordFailure(_ error: any Error, logger: Logger) {
        self.consecutiveFailures += 1
        let delay = self.backoff(afterFailures: self.consecutiveFailures)
        let failedAt = self.now()
        self.retryNotBefore = failedAt.addingTimeInterval(delay)
        let servingCached = self.entry?.isValid(at: failedAt) ?? false
        // A source with nothing configured (a chain's container or instance role off the cloud) is not a failure.
        let nothingConfigured = (error as? CredentialsError)?.code == .notFound && self.entry == nil
        logger.log(
            level: nothingConfigured ? .debug : .warning,
            "refreshing credentials failed",
            metadata: [
                "provider": "\(self.name)",
                "error": "\(Self.safeDescription(of: error))",
                "consecutiveFailures": "\(self.consecutiveFailures)",
                "servingCached": "\(servingCached)",
                "nextRefreshIn": "\(delay)s",
            ]
        )
    }

    /// The jittered exponential backoff after `failures` consecutive failures, in seconds: between half
    /// and all of `initialBackoff × 2^(failures − 1)`, capped at `maximumBackoff`.
    private func backoff(afterFailures failures: Int) -> TimeInterval {
        let exponent = min(max(failures - 1, 0), 32)
        let initial = self.configuration.initialBackoff.timeInterval
        let maximum = self.configuration.maximumBackoff.timeInterval
        let ceiling = min(initial * Double(UInt64(1) << UInt64(exponent)), maximum)
        guard ceiling > 0 else { return 0 }
        return ceiling / 2 + Double.random(in: 0...(ceiling / 2), using: &self.randomNumberGenerator)
    }

    /// A description of `error` that cannot contain a secret: our own messages, or the type's name.
    private static func safeDescription(of error: any Error) -> String {
        if let error = error as? CredentialsError {
            return error.description
        }
        return String(reflecting: type(of: error))
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    fileprivate var timeInterval: TimeInterval {
        let components = self.components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
