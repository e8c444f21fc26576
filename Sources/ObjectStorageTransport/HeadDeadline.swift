//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import Synchronization

/// The point in time by which a response head must arrive, not counting the time the request body spends on its
/// way to the server: the deadline moves later by as long as the body is in transit.
///
/// A deadline bounds waiting (for a connection, for the server's answer), never a transfer that keeps moving:
/// an upload slower than `length / timeout` would otherwise fail however steadily it moved. While the body moves,
/// the read-idle timeout (silence) and ``MinimumTransferRate`` (too little progress) bound it instead.
final class HeadDeadline: Sendable {
    private struct State {
        var bodyStarted: NIODeadline?
        var bodyEnded: NIODeadline?
    }

    private let deadline: NIODeadline
    /// The longest wait for the head once the body has been handed over (the read-idle timeout), if any.
    private let afterBody: TimeAmount?
    private let state = Mutex(State())

    init(_ deadline: NIODeadline, readIdle: TimeAmount? = nil) {
        self.deadline = deadline
        self.afterBody = readIdle
    }

    /// The request body has started moving (its first piece was asked for); the clock stops.
    func bodyStarted(at now: NIODeadline = .now()) {
        self.state.withLock { state in
            if state.bodyStarted == nil { state.bodyStarted = now }
        }
    }

    /// The whole request body has been handed over; the clock runs again.
    func bodyEnded(at now: NIODeadline = .now()) {
        self.state.withLock { state in
            if state.bodyEnded == nil { state.bodyEnded = now }
        }
    }

    /// The deadline, moved later by the time the body has been in transit so far, and no later than the read-idle
    /// timeout after the body ended.
    func effective(now: NIODeadline = .now()) -> NIODeadline {
        self.state.withLock { state in
            guard let started = state.bodyStarted else { return self.deadline }
            let transit = (state.bodyEnded ?? now) - started
            let moved = self.deadline + TimeAmount.nanoseconds(max(0, transit.nanoseconds))
            guard let ended = state.bodyEnded, let afterBody = self.afterBody else { return moved }
            return min(moved, ended + afterBody)
        }
    }

    /// Returns once the deadline has passed (checking at least once a second while the body moves).
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func wait() async throws {
        while true {
            let now = NIODeadline.now()
            let remaining = self.effective(now: now) - now
            if remaining.nanoseconds <= 0 { return }
            try await Task.sleep(for: .nanoseconds(min(remaining.nanoseconds, 1_000_000_000)))
        }
    }
}
