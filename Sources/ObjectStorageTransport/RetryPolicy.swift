//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import NIOHTTP1

/// When and how often to retry: attempts, full-jitter exponential backoff with a cap, and `Retry-After`.
///
/// The policy is the mechanism; what is worth another attempt is decided by the client, in one place: transient
/// connection failures (refused, reset, closed mid-exchange, connect/read/write timeouts, a per-attempt deadline,
/// a body below the minimum transfer rate), the statuses 408, 429 and 5xx, and what the client itself knows to be
/// worth another attempt (a `RequestTimeTooSkewed` answer once the clock is corrected, a body the service refused
/// as damaged on the way, a checksum mismatch on a body it can send again). A cancelled task is never retried.
///
/// ```swift
/// var policy = RetryPolicy.exponentialJitter(maxAttempts: 5)
/// policy.maxRetryAfter = .seconds(10)
/// ```
public struct RetryPolicy: Sendable {
    /// The most attempts in total, the first included (1 = no retries).
    public var maxAttempts: Int
    /// The backoff base: the ceiling of the delay before the first retry.
    public var baseDelay: Duration
    /// The backoff cap: no computed delay exceeds it.
    public var maxDelay: Duration
    /// The most a server's `Retry-After` is honoured for; longer values are cut to this.
    public var maxRetryAfter: Duration
    /// Whether a request whose body the service refused as damaged on the way (`BadDigest`: its bytes do not match
    /// the digest sent with them) is sent again, its body read again from its source with a fresh digest, within
    /// ``maxAttempts``.
    package var resendsDamagedBodies = true
    /// An attempt that moved at least this many bytes that the next attempt keeps (a download resumed from the byte
    /// reached) gives the request a fresh budget of ``maxAttempts``; `nil`: never. Only such progress counts, so a
    /// peer that sends a few bytes per attempt (a stall) still runs out of attempts; the client's timeout bounds
    /// the whole.
    package var progressResetBytes: Int64? = 64 << 10

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maxAttempts: The most attempts, the first included (default 3, at least 1).
    ///   - baseDelay: The backoff base (default 200 ms).
    ///   - maxDelay: The backoff cap (default 20 s).
    ///   - maxRetryAfter: The longest `Retry-After` honoured (default 60 s).
    package init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(200),
        maxDelay: Duration = .seconds(20),
        maxRetryAfter: Duration = .seconds(60)
    ) {
        self.maxAttempts = Swift.max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// Full-jitter exponential backoff: the delay before retry `n` (0-based) is uniform in
    /// `0...min(cap, base * 2^n)`.
    ///
    /// - Parameters:
    ///   - maxAttempts: The most attempts, the first included (default 3).
    ///   - base: The backoff base (default 200 ms).
    ///   - cap: The backoff cap (default 20 s).
    /// - Returns: The policy.
    public static func exponentialJitter(
        maxAttempts: Int = 3,
        base: Duration = .milliseconds(200),
        cap: Duration = .seconds(20)
    ) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, baseDelay: base, maxDelay: cap)
    }

    /// A policy that never retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The ceiling of the backoff before retry `retry` (0-based): `min(maxDelay, baseDelay * 2^retry)`.
    ///
    /// - Parameter retry: The retry's index: 0 before the second attempt, 1 before the third, and so on.
    /// - Returns: The ceiling, never negative.
    package func backoffCeiling(forRetry retry: Int) -> Duration {
        let base = Self.nanoseconds(self.baseDelay)
        let cap = Self.nanoseconds(self.maxDelay)
        guard base > 0, cap > 0 else { return .zero }
        let shift = Swift.max(0, retry)
        // base * 2^shift without overflow: stop doubling once past the cap.
        var ceiling = base
        for _ in 0..<Swift.min(shift, 63) {
            if ceiling >= cap { break }
            ceiling = ceiling > Int64.max / 2 ? Int64.max : ceiling * 2
        }
        return .nanoseconds(Swift.min(ceiling, cap))
    }

    /// A random backoff before retry `retry` (0-based), uniform in `0...backoffCeiling(forRetry: retry)`.
    ///
    /// - Parameters:
    ///   - retry: The retry's index: 0 before the second attempt.
    ///   - generator: The source of randomness (inject a seeded one in tests).
    /// - Returns: The delay.
    package func backoffDelay(forRetry retry: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let ceiling = Self.nanoseconds(self.backoffCeiling(forRetry: retry))
        guard ceiling > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...ceiling, using: &generator))
    }

    /// The delay before retry `retry`: the server's `Retry-After` (capped at ``maxRetryAfter``) when the decision
    /// carries one, otherwise the jittered backoff.
    ///
    /// - Parameters:
    ///   - retry: The retry's index: 0 before the second attempt.
    ///   - decision: The decision that asked for the retry.
    ///   - generator: The source of randomness.
    /// - Returns: The delay.
    package func delay(
        forRetry retry: Int,
        decision: RetryDecision,
        using generator: inout some RandomNumberGenerator
    ) -> Duration {
        if let retryAfter = decision.retryAfter {
            return Swift.max(.zero, Swift.min(retryAfter, self.maxRetryAfter))
        }
        return self.backoffDelay(forRetry: retry, using: &generator)
    }

    /// Whether a status is retryable by default: 408, 429 or 5xx.
    ///
    /// - Parameter status: The response status.
    /// - Returns: `true` for 408, 429 and 500–599.
    package static func isRetryableStatus(_ status: HTTPResponseStatus) -> Bool {
        status.code == 408 || status.code == 429 || (500...599).contains(status.code)
    }

    /// Whether `error` is a cancellation (never retried).
    package static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? TransportError, error.code == .cancelled { return true }
        return false
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return Int64.max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow2 ? Int64.max : sum
    }
}

/// Whether to retry a failed attempt.
package struct RetryDecision: Sendable, Hashable {
    /// Whether to retry.
    package var shouldRetry: Bool
    /// The delay the server asked for (`Retry-After`), used instead of the backoff.
    package var retryAfter: Duration?

    /// Creates a decision.
    ///
    /// - Parameters:
    ///   - shouldRetry: Whether to retry.
    ///   - retryAfter: The delay the server asked for, if any.
    package init(shouldRetry: Bool, retryAfter: Duration? = nil) {
        self.shouldRetry = shouldRetry
        self.retryAfter = retryAfter
    }

    /// Retry after the policy's backoff.
    package static let retry = RetryDecision(shouldRetry: true)
    /// Do not retry.
    package static let doNotRetry = RetryDecision(shouldRetry: false)

    /// Retry after the given delay (capped by ``RetryPolicy/maxRetryAfter``).
    ///
    /// - Parameter delay: The delay.
    /// - Returns: The decision.
    package static func retry(after delay: Duration) -> RetryDecision {
        RetryDecision(shouldRetry: true, retryAfter: delay)
    }
}
