//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The demo's narration: on standard output, or on standard error with `--json` (standard output then
/// carries only the JSON summary).
struct DemoConsole: Sendable {
    var toStandardError: Bool

    /// Writes one line (or several, separated by newlines).
    func say(_ text: String = "") {
        let handle = toStandardError ? FileHandle.standardError : FileHandle.standardOutput
        handle.write(Data((text + "\n").utf8))
    }

    /// Writes a heading preceded by a blank line.
    func heading(_ text: String) {
        say("")
        say(text)
    }

    /// Writes rows as left-aligned columns separated by two spaces, with `indent` before each row.
    func table(_ rows: [[String]], indent: String = "  ") {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            say(indent + cells.joined(separator: "  "))
        }
    }
}
