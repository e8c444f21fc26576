//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// An instant given on the command line (`revert --to`, `--version-at`): ISO 8601 with a zone, with or without
/// fractional seconds, and not in the future.
enum Instant {
    /// `text` as an instant.
    ///
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - flag: The option's name and command, as messages show them (`revert: --to`).
    /// - Throws: ``CLIError/usage(_:)`` for text that is not such a time; ``CLIError/invalidInput(_:)`` for one in
    ///   the future.
    static func past(_ text: String, flag: String) throws(CLIError) -> Date {
        let formats: [Date.ISO8601FormatStyle] = [.iso8601, .iso8601.time(includingFractionalSeconds: true)]
        guard let date = formats.lazy.compactMap({ try? Date(text, strategy: $0) }).first else {
            throw .usage("\(flag) '\(text)' is not an ISO 8601 time with a zone, such as 2026-11-28T09:30:00Z")
        }
        guard date <= Date() else {
            throw .invalidInput("\(flag) \(text) is in the future; versions are kept of times that have passed")
        }
        return date
    }
}
