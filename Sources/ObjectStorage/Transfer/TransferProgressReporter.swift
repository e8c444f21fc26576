//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// Turns byte counts from concurrent part transfers into throttled, monotonic progress reports.
///
/// Parts call ``add(_:)`` as bytes land (and ``remove(_:)`` when a part's bytes are discarded, for
/// example after a dropped connection that restarts the part); reports never go backwards, because the
/// reported value is the high-water mark of the kept bytes. A report is due when ``minimumInterval``
/// has passed since the last one or ``reportingStep`` more bytes are done, whichever comes first, so a
/// fast transfer still reports at least every mebibyte and a slow one at least every interval in which
/// bytes move.
final class TransferProgressReporter: Sendable {
    /// The longest a report waits for time to pass while bytes move (the final report is always delivered).
    static let minimumInterval: Duration = .milliseconds(100)
    /// The most bytes that may be done between two reports.
    static let reportingStep: Int64 = 1 << 20

    private struct State {
        var completedBytes: Int64
        var reportedBytes: Int64
        var lastReport: ContinuousClock.Instant?
        /// The total, or `nil` while a stream's length is unknown.
        var totalBytes: Int64?
        /// Bytes read from a stream of unknown length so far.
        var readBytes: Int64 = 0
        /// Whether a report has said the total is known.
        var reportedKnownTotal = false
    }

    private let handler: TransferProgressHandler?
    /// The transfer's size (0 for a stream of unknown length, until ``finish(totalBytes:)``).
    let totalBytes: Int64
    private let resumedBytes: Int64
    private let start = ContinuousClock.now
    private let state: Mutex<State>

    /// - Parameters:
    ///   - totalBytes: The transfer's size.
    ///   - resumedBytes: Bytes already done before this run; the first report includes them.
    ///   - handler: The caller's closure, or `nil` for no reports.
    init(totalBytes: Int64, resumedBytes: Int64, handler: TransferProgressHandler?) {
        self.totalBytes = totalBytes
        self.resumedBytes = resumedBytes
        self.handler = handler
        self.state = Mutex(
            State(completedBytes: resumedBytes, reportedBytes: -1, lastReport: nil, totalBytes: totalBytes)
        )
    }

    /// A reporter for a stream of unknown length: until ``finish(totalBytes:)``, reports say the total is
    /// unknown and give the bytes read so far (``read(_:)``) as the total.
    ///
    /// - Parameter handler: The caller's closure, or `nil` for no reports.
    init(unknownTotalWith handler: TransferProgressHandler?) {
        self.totalBytes = 0
        self.resumedBytes = 0
        self.handler = handler
        self.state = Mutex(State(completedBytes: 0, reportedBytes: -1, lastReport: nil, totalBytes: nil))
    }

    /// Counts bytes read from a stream of unknown length (not yet sent), without reporting.
    func read(_ count: Int64) {
        state.withLock { $0.readBytes += count }
    }

    /// Counts `count` more bytes as done and reports if the throttle interval has passed.
    func add(_ count: Int64) {
        report(force: false) { $0.completedBytes += count }
    }

    /// Takes back bytes counted by ``add(_:)`` that will be transferred again.
    func remove(_ count: Int64) {
        report(force: false) { $0.completedBytes -= count }
    }

    /// Takes back every byte counted: the transfer starts over from zero.
    func rewind() {
        report(force: false) { $0.completedBytes = 0 }
    }

    /// Delivers the first report (resumed bytes) immediately.
    func begin() { report(force: true) { _ in } }

    /// Delivers a final report regardless of the throttle.
    func finish() { report(force: true) { _ in } }

    /// Delivers the final report of a stream, whose total is now known, regardless of the throttle.
    func finish(totalBytes: Int64) { report(force: true) { $0.totalBytes = totalBytes } }

    /// Updates the count and, when due, calls the handler while holding the lock: reports are
    /// therefore delivered one at a time and in order, so they can never appear to go backwards.
    /// Handlers must be quick (update a counter or a progress bar).
    private func report(force: Bool, _ update: (inout State) -> Void) {
        guard let handler else { return }
        let now = ContinuousClock.now
        state.withLock { state in
            update(&state)
            let due =
                state.lastReport.map { now - $0 >= Self.minimumInterval } ?? true
                || state.completedBytes - state.reportedBytes >= Self.reportingStep
            let news =
                state.completedBytes > state.reportedBytes || state.reportedBytes < 0
                || (state.totalBytes != nil && !state.reportedKnownTotal)
            guard force || due, news else { return }
            let reported = max(state.completedBytes, state.reportedBytes, resumedBytes)
            state.reportedBytes = reported
            state.lastReport = now
            state.reportedKnownTotal = state.totalBytes != nil
            let elapsed = (now - start) / .seconds(1)
            let transferred = Double(reported - resumedBytes)
            handler(
                TransferProgress(
                    completedBytes: reported,
                    totalBytes: state.totalBytes ?? max(state.readBytes, reported),
                    resumedBytes: resumedBytes,
                    bytesPerSecond: elapsed > 0.05 && transferred > 0 ? transferred / elapsed : 0,
                    isTotalKnown: state.totalBytes != nil
                )
            )
        }
    }
}
