//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// Paces the bytes of every request that shares it to a rate, in each direction separately: one token bucket for
/// request bodies (uploads) and one for response bodies (downloads).
///
/// A body asks before each piece it sends (or after each piece it receives) how long to wait, and the bucket
/// answers so that the pieces of every body sharing it, taken together, move at no more than the rate, plus a
/// burst of a tenth of a second's worth. Pieces are at most 64 KiB (sent) or what one read returned (received), so
/// the pace is smooth at any rate of 1 KiB/s or more.
package final class BandwidthLimiter: Sendable {
    /// Which bodies a bucket paces.
    package enum Direction: Sendable {
        /// Request bodies: uploads.
        case send
        /// Response bodies: downloads.
        case receive
    }

    /// The slowest rate a limiter paces to, 1 KiB/s: a lower one is raised to it.
    package static let slowestRate: Int64 = 1024

    /// The rate, in bytes per second in each direction.
    package let bytesPerSecond: Int64
    private let sending: Mutex<TokenBucket>
    private let receiving: Mutex<TokenBucket>

    /// Creates a limiter.
    ///
    /// - Parameters:
    ///   - bytesPerSecond: The rate in each direction (at least ``slowestRate``).
    ///   - now: The clock's current instant (for tests).
    package init(bytesPerSecond: Int64, now: ContinuousClock.Instant = .now) {
        let rate = max(bytesPerSecond, Self.slowestRate)
        self.bytesPerSecond = rate
        self.sending = Mutex(TokenBucket(rate: rate, now: now))
        self.receiving = Mutex(TokenBucket(rate: rate, now: now))
    }

    /// Takes `bytes` from the direction's bucket and says how long to wait before they move (zero when the
    /// bucket holds them).
    ///
    /// - Parameters:
    ///   - bytes: The size of the piece.
    ///   - direction: Which bucket.
    ///   - now: The clock's current instant (for tests).
    /// - Returns: How long to wait.
    package func delay(
        for bytes: Int,
        _ direction: Direction,
        now: ContinuousClock.Instant = .now
    ) -> Duration {
        switch direction {
        case .send: return self.sending.withLock { $0.take(bytes, now: now) }
        case .receive: return self.receiving.withLock { $0.take(bytes, now: now) }
        }
    }

    /// How many bytes have been paced in `direction` so far.
    package func bytesPaced(_ direction: Direction) -> Int64 {
        switch direction {
        case .send: return self.sending.withLock { $0.taken }
        case .receive: return self.receiving.withLock { $0.taken }
        }
    }
}

/// A token bucket that may go into debt: a piece larger than what the bucket holds is taken at once, and the wait
/// it returns is how long the bucket takes to refill to zero, so concurrent takers queue up fairly.
struct TokenBucket: Sendable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant
    private(set) var taken: Int64 = 0

    init(rate: Int64, now: ContinuousClock.Instant) {
        self.rate = Double(rate)
        self.burst = Double(rate) / 10
        self.tokens = self.burst
        self.last = now
    }

    mutating func take(_ bytes: Int, now: ContinuousClock.Instant) -> Duration {
        if now > self.last {
            let elapsed = self.last.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            self.tokens = min(self.burst, self.tokens + seconds * self.rate)
            self.last = now
        }
        self.tokens -= Double(max(0, bytes))
        let (total, overflow) = self.taken.addingReportingOverflow(Int64(max(0, bytes)))
        self.taken = overflow ? .max : total
        guard self.tokens < 0 else { return .zero }
        // At most a century, so that the conversion never traps, however deep the debt.
        let nanoseconds = min((-self.tokens / self.rate * 1e9).rounded(.up), 3.2e18)
        return .nanoseconds(Int64(nanoseconds))
    }
}

/// The limiter one request's bodies obey: the transport's, if it has one.
struct BodyPacing: Sendable {
    let limiter: BandwidthLimiter?

    init(transport: BandwidthLimiter?) {
        self.limiter = transport
    }

    var isEmpty: Bool { self.limiter == nil }

    /// How long to wait before (or after) `bytes` move.
    func delay(for bytes: Int, _ direction: BandwidthLimiter.Direction) -> Duration {
        self.limiter?.delay(for: bytes, direction) ?? .zero
    }

    /// Waits as long as ``delay(for:_:)`` says.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func wait(for bytes: Int, _ direction: BandwidthLimiter.Direction) async throws {
        let delay = self.delay(for: bytes, direction)
        if delay > .zero { try await Task.sleep(for: delay) }
    }
}
