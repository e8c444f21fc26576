//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging

extension Logger {
    /// The logger every test hands to the code under test instead of a no-op one: trace level, every
    /// line scanned for secrets by ``SecretScanner/shared``, nothing printed.
    public static let scanning = Logger.scanning(label: "test")

    /// A trace-level logger whose lines are scanned for secrets by `scanner`.
    ///
    /// - Parameters:
    ///   - label: The label (the origin of a hit).
    ///   - scanner: The scanner (the process-wide one by default).
    /// - Returns: The logger.
    public static func scanning(label: String, scanner: SecretScanner = .shared) -> Logger {
        var logger = Logger(label: label) { label in ScanningLogHandler(label: label, scanner: scanner) }
        logger.logLevel = .trace
        return logger
    }

    /// A trace-level logger whose lines are scanned for secrets and also reach `handler` (a test's own
    /// capture, e.g. an `InMemoryLogHandler`) when `handler`'s level lets them through.
    ///
    /// - Parameters:
    ///   - label: The label (the origin of a hit).
    ///   - handler: The test's handler; its level filters only what it receives.
    ///   - scanner: The scanner (the process-wide one by default).
    /// - Returns: The logger.
    public static func scanning(
        label: String,
        alsoTo handler: some LogHandler,
        scanner: SecretScanner = .shared
    ) -> Logger {
        Logger(label: label) { label in ScanningLogHandler(label: label, scanner: scanner, forwardingTo: handler) }
    }
}
