//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import Logging
import NIOCore
import NIOHTTP1

extension RetryPolicy {
    /// The one retry loop: runs `operation` until it succeeds, fails in a way `classify` does not retry, or the
    /// attempts run out.
    ///
    /// Each failure thrown by `operation` is classified by `classify`; between attempts the loop sleeps on `clock`
    /// with `try await`, so cancelling the task ends the wait at once. The operation receives the attempt number
    /// (1-based, counting every attempt) so it can rebuild and re-sign its request. With `keptBytes`, an attempt
    /// that moved at least ``progressResetBytes`` that the next attempt keeps restores the budget: ``maxAttempts``
    /// more, and `timeLimit` from then. The last error is rethrown unchanged, except that a ``TransportError`` after
    /// retries gets ``TransportError/attempts`` and ``TransportError/elapsed`` filled in when it has none.
    ///
    /// - Parameters:
    ///   - clock: The clock to sleep on (inject a recording clock in tests).
    ///   - timeLimit: No retry starts if its delay would end later than this after the budget began (the first
    ///     attempt, or the last that restored the budget).
    ///   - logger: The logger for `retrying` debug lines (attempt, delay, reason).
    ///   - generator: The source of jitter.
    ///   - keptBytes: How many bytes the request has moved that a next attempt keeps, or `nil`.
    ///   - classify: Whether a failure is worth another attempt.
    ///   - operation: One attempt.
    /// - Returns: What the successful attempt returns.
    /// - Throws: The last attempt's error, or `CancellationError` when cancelled while waiting.
    package func run<Result>(
        clock: some Clock<Duration> = ContinuousClock(),
        timeLimit: Duration? = nil,
        logger: Logger,
        using generator: inout some RandomNumberGenerator,
        keptBytes: (() -> Int64)? = nil,
        classify: (any Error) -> RetryDecision,
        _ operation: (_ attempt: Int) async throws -> Result
    ) async throws -> Result {
        let started = ContinuousClock.now
        var attempt = 1
        // Attempts since the budget was last restored, this one included, and when that was.
        var spent = 1
        var budgetStarted = started
        while true {
            let keptBefore = keptBytes?() ?? 0
            do {
                return try await operation(attempt)
            } catch {
                let decision = Self.isCancellation(error) ? .doNotRetry : classify(error)
                if decision.shouldRetry, self.maxAttempts > 1, let threshold = self.progressResetBytes,
                    let kept = keptBytes?(), kept - keptBefore >= threshold
                {
                    spent = 0
                    budgetStarted = ContinuousClock.now
                }
                let elapsed = ContinuousClock.now - started
                guard decision.shouldRetry, spent < self.maxAttempts else {
                    throw Self.counting(error, attempts: attempt, elapsed: elapsed)
                }
                let delay = self.delay(forRetry: spent == 0 ? 0 : spent - 1, decision: decision, using: &generator)
                if let timeLimit, ContinuousClock.now + delay >= budgetStarted + timeLimit {
                    throw Self.counting(error, attempts: attempt, elapsed: elapsed)
                }
                logger.debug(
                    "retrying",
                    metadata: [
                        "retry.attempt": "\(attempt + 1)", "retry.delay_ms": "\(RetryPolicy.milliseconds(delay))",
                        "retry.reason": "\(Self.reason(error))",
                    ]
                )
                try await clock.sleep(for: delay)
                attempt += 1
                spent += 1
            }
        }
    }

    /// Runs `operation` with retries, using the system's random number generator for jitter.
    ///
    /// - Parameters:
    ///   - clock: The clock to sleep on.
    ///   - timeLimit: No retry starts if its delay would end later than this after the budget began.
    ///   - logger: The logger for `retrying` debug lines.
    ///   - keptBytes: How many bytes the request has moved that a next attempt keeps, or `nil`.
    ///   - classify: Whether a failure is worth another attempt.
    ///   - operation: One attempt, given its 1-based number.
    /// - Returns: What the successful attempt returns.
    /// - Throws: The last attempt's error, or `CancellationError` when cancelled while waiting.
    package func run<Result>(
        clock: some Clock<Duration> = ContinuousClock(),
        timeLimit: Duration? = nil,
        logger: Logger,
        keptBytes: (() -> Int64)? = nil,
        classify: (any Error) -> RetryDecision,
        _ operation: (_ attempt: Int) async throws -> Result
    ) async throws -> Result {
        var generator = SystemRandomNumberGenerator()
        return try await self.run(
            clock: clock,
            timeLimit: timeLimit,
            logger: logger,
            using: &generator,
            keptBytes: keptBytes,
            classify: classify,
            operation
        )
    }

    /// `error` with its attempt count and elapsed time filled in, when it is a ``TransportError`` without them and
    /// was retried.
    static func counting(_ error: any Error, attempts: Int, elapsed: Duration) -> any Error {
        guard attempts > 1, var transportError = error as? TransportError, transportError.attempts == nil else {
            return error
        }
        transportError.attempts = attempts
        transportError.elapsed = elapsed
        return transportError
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        RetryPolicy.nanoseconds(duration) / 1_000_000
    }

    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as TransportError: return "\(error.code)"
        default: return "\(type(of: error))"
        }
    }
}
