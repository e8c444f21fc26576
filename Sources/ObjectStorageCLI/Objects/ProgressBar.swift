//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import ObjectStorage
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `cp`'s progress on standard error: on a terminal, one line redrawn with `\r` (bytes, %, rate, ETA) and erased
/// at the end; otherwise (a log file, a pipe) a plain progress line every ``plainLineInterval``. The engines' notices and warnings (a checkpoint discarded and why, a restart
/// because the object changed) are written there too. `--only-show-errors` keeps only the warnings and
/// `--quiet` nothing at all (see ``OutputLevel``).
final class ProgressBar: Sendable {
    private struct State {
        var last: TransferProgress?
        var drawn = false
        var lastPlainLine: ContinuousClock.Instant?
        var lastDraw: ContinuousClock.Instant?
    }

    /// The shortest interval between two redraws of the bar on a terminal.
    static let redrawInterval = Duration.milliseconds(100)

    /// How often a plain progress line is written when standard error is not a terminal.
    static let plainLineInterval = Duration.seconds(5)

    /// Whether the bar is drawn (standard error is a terminal).
    let isTerminal: Bool
    /// What is printed besides errors.
    let output: OutputLevel
    private let label: String
    private let indent: String
    private let start = ContinuousClock.now
    private let state = Mutex(State())

    /// - Parameters:
    ///   - label: The first word of each line (`upload`, `download`).
    ///   - isTerminal: Whether to draw the bar; by default whether standard error is a terminal.
    ///   - output: What to print besides errors.
    ///   - indent: What each line starts with (the demo indents its transfers like its other lines).
    init(
        label: String,
        isTerminal: Bool = isatty(STDERR_FILENO) == 1,
        output: OutputLevel = .normal,
        indent: String = ""
    ) {
        self.label = label
        self.indent = indent
        self.isTerminal = isTerminal
        self.output = output
    }

    /// The closure to hand the transfer engine.
    var handler: TransferProgressHandler {
        { [self] progress in self.update(progress) }
    }

    /// The logger to hand the transfer engine: notices and warnings as `objstore: warning: MESSAGE (k=v)`
    /// lines on standard error, each starting on a fresh line.
    var logger: Logger {
        var logger = Logger(label: "objstore") { _ in LogLines(bar: self) }
        switch output {
        case .normal: logger.logLevel = .notice
        case .warnings: logger.logLevel = .warning
        case .errors: logger.logLevel = .critical
        }
        return logger
    }

    /// Records a report and, on a terminal, redraws the line; elsewhere writes a plain line when
    /// ``plainLineInterval`` has passed since the last one (or since the start).
    func update(_ progress: TransferProgress) {
        guard output == .normal else { return }
        let now = ContinuousClock.now
        let (draw, plain) = state.withLock { state in
            state.last = progress
            if isTerminal {
                let finished = progress.completedBytes >= progress.totalBytes
                guard finished || state.lastDraw.map({ now - $0 >= Self.redrawInterval }) ?? true else {
                    return (false, false)
                }
                state.drawn = true
                state.lastDraw = now
                return (true, false)
            }
            guard now - (state.lastPlainLine ?? start) >= Self.plainLineInterval else { return (false, false) }
            state.lastPlainLine = now
            return (false, true)
        }
        if draw { Self.write("\r" + line(progress) + "\u{1B}[K") }
        if plain { Self.write(line(progress, bar: false) + "\n") }
    }

    /// The figures of a finished transfer, e.g. `3.0 MiB, 3158073 bytes in 0.12 s at 17.55 MB/s` for a fresh one
    /// (`6 bytes in ...` below 1 KiB);
    /// a resumed one adds `; resumed: 1 of 4 parts, 1048576 bytes reused`, one that started over `; started over
    /// once` (the object or file changed, the upload was gone).
    ///
    /// - Parameters:
    ///   - totalBytes: The transfer's size.
    ///   - reusedBytes: Bytes kept from an earlier, interrupted run.
    ///   - transferredBytes: Bytes moved over the network by this run (without discarded ones).
    ///   - parts: `(reused, total)` part counts, when the transfer was in parts.
    ///   - restarts: How many times the transfer started over.
    func figures(
        totalBytes: Int64,
        reusedBytes: Int64,
        transferredBytes: Int64,
        parts: (reused: Int, total: Int)?,
        restarts: Int = 0
    ) -> String {
        let seconds = Self.seconds(ContinuousClock.now - start)
        let rate = seconds > 0 ? Double(transferredBytes) / seconds / 1e6 : 0
        let size = totalBytes < 1024 ? "" : "\(Self.size(totalBytes)), "
        var text = "\(size)\(totalBytes) bytes in \(String(format: "%.2f", seconds)) s at "
        text += "\(String(format: "%.2f", rate)) MB/s"
        if reusedBytes > 0 || (parts?.reused ?? 0) > 0 {
            let partsReused = parts.map { "\($0.reused) of \($0.total) parts, " } ?? ""
            text += "; resumed: \(partsReused)\(reusedBytes) bytes reused"
        }
        if restarts > 0 { text += "; started over " + (restarts == 1 ? "once" : "\(restarts) times") }
        return text
    }

    /// Ends the transfer: replaces the bar (if any) with `label: figures` on standard error (the demo's line).
    ///
    /// - Parameter figures: What ``figures(totalBytes:reusedBytes:transferredBytes:parts:restarts:)`` says, and
    ///   anything the caller adds.
    func finish(_ figures: String) {
        guard output == .normal else { return }
        let drawn = state.withLock { $0.drawn }
        let text = "\(indent)\(label): \(figures)"
        Self.write((drawn ? "\r" : "") + text + (drawn ? "\u{1B}[K\n" : "\n"))
    }

    /// Erases the bar, if drawn, so that the line that reports the transfer takes its place.
    func erase() {
        let drawn = state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
        if drawn { Self.write("\r\u{1B}[K") }
    }

    /// Ends the bar's line after a failure or Ctrl-C, so the error message starts on a fresh line.
    func interrupt() {
        let drawn = state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
        if drawn { Self.write("\n") }
    }

    /// Writes one log line, ending the bar's line first so the bar is redrawn below it.
    fileprivate func logLine(_ text: String) {
        let drawn = state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
        Self.write((drawn ? "\n" : "") + TerminalText.escaped(text) + "\n")
    }

    /// `download [#######-----------]  1.5 MiB / 3.0 MiB  50%  12.3 MB/s  ETA 0:02`, or without the bar
    /// (`download: 1.5 MiB / 3.0 MiB  50%  12.3 MB/s  ETA 0:02`) for a log file.
    func line(_ progress: TransferProgress, bar drawsBar: Bool = true) -> String {
        let fraction = min(max(progress.fractionCompleted, 0), 1)
        let width = 20
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var text = indent + (drawsBar ? "\(label) [\(bar)] " : "\(label): ")
        text += "\(Self.size(progress.completedBytes)) / \(Self.size(progress.totalBytes))"
        text += String(format: "  %3d%%", Int(fraction * 100))
        // A rate measured over less than a second (a part still in flight, a resumed start) misleads.
        guard ContinuousClock.now - start >= .seconds(1) else { return text }
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

extension ProgressBar {
    /// Writes the engines' log events through the bar: `objstore: LEVEL: MESSAGE (key=value, ...)`.
    fileprivate struct LogLines: LogHandler {
        let bar: ProgressBar
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .notice

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            var text = "objstore: \(event.level): \(event.message)"
            if !all.isEmpty {
                let pairs = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                text += " (" + pairs.joined(separator: ", ") + ")"
            }
            bar.logLine(text)
        }
    }
}
