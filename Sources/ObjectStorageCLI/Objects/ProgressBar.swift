//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `cp`'s progress on standard error: on a terminal, one line redrawn with `\r` (bytes, %, rate, ETA);
/// otherwise nothing until the one-line summary at the end.
final class ProgressBar: Sendable {
    private struct State {
        var last: TransferProgress?
        var drawn = false
    }

    /// Whether the bar is drawn (standard error is a terminal).
    let isTerminal: Bool
    private let label: String
    private let start = ContinuousClock.now
    private let state = Mutex(State())

    /// - Parameters:
    ///   - label: The first word of each line (`upload`, `download`).
    ///   - isTerminal: Whether to draw the bar; by default whether standard error is a terminal.
    init(label: String, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.isTerminal = isTerminal
    }

    /// The closure to hand the transfer engine.
    var handler: TransferProgressHandler {
        { [self] progress in self.update(progress) }
    }

    /// Records a report and, on a terminal, redraws the line.
    func update(_ progress: TransferProgress) {
        let draw = state.withLock { state in
            state.last = progress
            if isTerminal { state.drawn = true }
            return isTerminal
        }
        if draw { Self.write("\r" + line(progress) + "\u{1B}[K") }
    }

    /// Ends the transfer: replaces the bar (if any) with the summary line.
    ///
    /// - Parameters:
    ///   - totalBytes: The transfer's size.
    ///   - reusedBytes: Bytes kept from an earlier, interrupted run.
    ///   - parts: `(reused, total)` part counts, when the transfer was in parts.
    func finish(totalBytes: Int64, reusedBytes: Int64, parts: (reused: Int, total: Int)?) {
        let seconds = Self.seconds(ContinuousClock.now - start)
        let moved = max(totalBytes - reusedBytes, 0)
        var text = "\(label): \(Self.size(totalBytes)) (\(totalBytes) bytes) in \(String(format: "%.2f", seconds)) s"
        text += ", \(String(format: "%.2f", seconds > 0 ? Double(moved) / seconds / 1e6 : 0)) MB/s"
        if let parts {
            text += ", \(parts.reused) of \(parts.total) parts reused"
        } else if reusedBytes > 0 {
            text += ", \(reusedBytes) bytes reused"
        }
        let drawn = state.withLock { $0.drawn }
        Self.write((drawn ? "\r" : "") + text + (drawn ? "\u{1B}[K\n" : "\n"))
    }

    /// Ends the bar's line after a failure or Ctrl-C, so the error message starts on a fresh line.
    func interrupt() {
        let drawn = state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
        if drawn { Self.write("\n") }
    }

    /// `download [#######-----------]  1.5 MiB / 3.0 MiB  50%  12.3 MB/s  ETA 0:02`.
    func line(_ progress: TransferProgress) -> String {
        let fraction = min(max(progress.fractionCompleted, 0), 1)
        let width = 20
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var text = "\(label) [\(bar)] \(Self.size(progress.completedBytes)) / \(Self.size(progress.totalBytes))"
        text += String(format: "  %3d%%", Int(fraction * 100))
        if progress.bytesPerSecond > 0 {
            text += String(format: "  %.1f MB/s", progress.bytesPerSecond / 1e6)
        }
        if let eta = progress.estimatedSecondsRemaining, eta.isFinite, eta < 360_000 {
            let total = Int(eta.rounded(.up))
            text +=
                total >= 3600
                ? String(format: "  ETA %d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
                : String(format: "  ETA %d:%02d", total / 60, total % 60)
        }
        return text
    }

    /// `512 B`, `1.5 KiB`, `3.0 MiB`, `1.2 GiB`.
    static func size(_ bytes: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
