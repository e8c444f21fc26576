//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import NIOCore
import Synchronization

/// The two waits of a response, told apart and bounded separately:
/// - waiting for the server with room to read (from the request's end, between body parts while the consumer
///   has room): ``HTTPConfiguration/readIdleTimeout``, then ``TransportError/Code/readTimeout``;
/// - waiting for the consumer (the body's buffer is full and the application reads nothing of it):
///   ``HTTPConfiguration/unreadBodyTimeout``, then ``TransportError/Code/bodyUnread``.
///
/// A consumer that reads slowly is never cut: each time it reads, the server's clock starts afresh. One timer at
/// a time is scheduled on the request's event loop; a body part only records the time, and the timer, when it
/// fires, looks at the latest time before deciding.
final class BodyIdleWatch: Sendable {
    private struct State {
        var task: HTTPClient.Task<Void>?
        /// When the current wait started; `nil` before the request is sent and after the response ended.
        var since: NIODeadline?
        /// Whether the wait is for the consumer (the body is paused) rather than the server.
        var paused = false
        var finished = false
        var timer: Scheduled<Void>?
    }

    private let readIdle: TimeAmount?
    private let unread: TimeAmount?
    private let state = Mutex(State())

    /// A watch with these limits, or `nil` when there is none.
    static func make(readIdle: Duration?, unread: Duration?) -> BodyIdleWatch? {
        guard readIdle != nil || unread != nil else { return nil }
        return BodyIdleWatch(readIdle: readIdle.map { TimeAmount($0) }, unread: unread.map { TimeAmount($0) })
    }

    private init(readIdle: TimeAmount?, unread: TimeAmount?) {
        self.readIdle = readIdle
        self.unread = unread
    }

    /// The request that the watch fails when a wait runs out.
    func attach(_ task: HTTPClient.Task<Void>) {
        self.state.withLock { $0.task = task }
        self.rearm()
    }

    /// The request has been sent: the wait for the server begins.
    func requestSent() {
        self.state.withLock { state in
            state.since = .now()
            state.paused = false
        }
        self.rearm()
    }

    /// Bytes arrived: the server's clock starts afresh (the timer reads this when it fires).
    func received() {
        self.state.withLock { state in
            if !state.paused { state.since = .now() }
        }
    }

    /// The consumer's buffer is full: the wait is for the consumer now.
    func paused() {
        self.state.withLock { state in
            state.since = .now()
            state.paused = true
        }
        self.rearm()
    }

    /// The consumer wants more: the wait is for the server again.
    func resumed() {
        self.state.withLock { state in
            state.since = .now()
            state.paused = false
        }
        self.rearm()
    }

    /// The response ended (or failed): nothing more to watch.
    func finished() {
        let timer = self.state.withLock { state in
            state.finished = true
            state.task = nil
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    /// The limit of the current wait.
    private func limit(paused: Bool) -> TimeAmount? {
        paused ? self.unread : self.readIdle
    }

    /// Replaces the timer with one for the current wait's end.
    private func rearm() {
        let (old, new) = self.state.withLock { state -> (Scheduled<Void>?, (HTTPClient.Task<Void>, NIODeadline)?) in
            let old = state.timer
            state.timer = nil
            guard !state.finished, let task = state.task, let since = state.since,
                let limit = self.limit(paused: state.paused)
            else { return (old, nil) }
            return (old, (task, since + limit))
        }
        old?.cancel()
        guard let (task, deadline) = new else { return }
        let timer = task.eventLoop.scheduleTask(deadline: deadline) { self.expired() }
        let keep = self.state.withLock { state in
            guard !state.finished, state.timer == nil else { return false }
            state.timer = timer
            return true
        }
        if !keep { timer.cancel() }
    }

    /// The timer fired: fails the request if the wait has really run out, else waits for the rest.
    private func expired() {
        let verdict = self.state.withLock { state -> (HTTPClient.Task<Void>, TransportError)? in
            state.timer = nil
            guard !state.finished, let task = state.task, let since = state.since,
                let limit = self.limit(paused: state.paused), NIODeadline.now() >= since + limit
            else { return nil }
            state.finished = true
            return (task, Self.error(paused: state.paused, limit: limit))
        }
        guard let (task, error) = verdict else {
            self.rearm()
            return
        }
        task.fail(reason: error)
    }

    private static func error(paused: Bool, limit: TimeAmount) -> TransportError {
        let seconds = Double(limit.nanoseconds) / 1e9
        if paused {
            return TransportError(
                code: .bodyUnread,
                message: "the application read nothing of the response body for \(seconds) s "
                    + "(HTTPConfiguration.unreadBodyTimeout); the request was cancelled to free its connection"
            )
        }
        return TransportError(
            code: .readTimeout,
            message: "no data received within the read-idle timeout (\(seconds) s)"
        )
    }
}
