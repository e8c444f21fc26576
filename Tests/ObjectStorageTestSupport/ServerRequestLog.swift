//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import InMemoryLogging
import Logging

/// The local server's request lines (one at info level as each request ends, with its operation, outcome and the
/// bytes sent), as the tests that watch a GET end read them.
public enum ServerRequestLog {
    /// One GetObject line.
    public struct Line: Sendable, CustomStringConvertible {
        /// `complete`, or how the request ended early (`write-failed`...).
        public var outcome: String
        /// The body bytes the server sent.
        public var sent: Int?

        public var description: String { "\(self.outcome) after \(self.sent.map(String.init) ?? "?") bytes" }
    }

    /// The GetObject lines `handler` holds, oldest first.
    public static func getObjectLines(in handler: InMemoryLogHandler) -> [Line] {
        handler.entries.compactMap { entry in
            let metadata = entry.metadata
            guard "\(metadata["operation"] ?? "")" == "GetObject" else { return nil }
            return Line(outcome: "\(metadata["outcome"] ?? "")", sent: Int("\(metadata["sent"] ?? "")"))
        }
    }

    /// Waits, for at most 30 s, until a GetObject of an object of `size` bytes has ended, cut short or complete
    /// (a machine running the whole suite may be slow to cancel), and returns the GetObject lines then.
    public static func waitForGetObjectToEnd(in handler: InMemoryLogHandler, size: Int) async throws -> [Line] {
        for _ in 0..<300 {
            let lines = Self.getObjectLines(in: handler)
            if lines.contains(where: { $0.outcome != "complete" || $0.sent == size }) { return lines }
            try await Task.sleep(for: .milliseconds(100))
        }
        return Self.getObjectLines(in: handler)
    }
}
