//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress of `cp -r` and `sync` on a terminal: one line on standard error (objects done of those found so
/// far, bytes moved), redrawn at most every ``ProgressBar/redrawInterval`` and cleared before any other line is
/// printed. Inactive when standard error is not a terminal, and with `--quiet`, `--only-show-errors` or `--json`.
final class DirectoryProgressLine: Sendable {
    private struct State {
        var drawn = false
        var lastDraw: ContinuousClock.Instant?
        var objectsDone = 0
        var objectsFound = 0
        var isListingComplete = false
    }

    private let isActive: Bool
    private let state = Mutex(State())

    /// - Parameter isActive: Whether to draw at all.
    init(isActive: Bool) {
        self.isActive = isActive
    }

    /// A line for a job printing at `level`, drawn only on a terminal and without `--json`.
    convenience init(level: OutputLevel, json: Bool) {
        self.init(isActive: level == .normal && !json && isatty(STDERR_FILENO) == 1)
    }

    /// Redraws the line, unless it was drawn less than ``ProgressBar/redrawInterval`` ago.
    ///
    /// - Parameters:
    ///   - objectsDone: The objects finished so far.
    ///   - objectsFound: The objects found so far.
    ///   - bytesTransferred: The bytes transferred so far.
    ///   - isListingComplete: Whether `objectsFound` is the total.
    func update(objectsDone: Int, objectsFound: Int, bytesTransferred: Int64, isListingComplete: Bool) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.objectsDone = objectsDone
            state.objectsFound = objectsFound
            state.isListingComplete = isListingComplete
            guard isActive else { return }
            // Most events come within the redraw interval: they return before any text is built.
            if let last = state.lastDraw, now - last < ProgressBar.redrawInterval { return }
            state.lastDraw = now
            state.drawn = true
            let text =
                "\(objectsDone) of \(objectsFound)\(isListingComplete ? "" : "+") objects, "
                + "\(ProgressBar.size(bytesTransferred)) transferred"
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
        }
    }

    /// The objects done and found at the last update, drawn or not (for the message after an interruption).
    var counts: (done: Int, found: Int, isListingComplete: Bool) {
        state.withLock { ($0.objectsDone, $0.objectsFound, $0.isListingComplete) }
    }

    /// Erases the line, so that the next line printed starts on a clean one.
    func clear() {
        guard isActive else { return }
        state.withLock { state in
            guard state.drawn else { return }
            state.drawn = false
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        }
    }
}
