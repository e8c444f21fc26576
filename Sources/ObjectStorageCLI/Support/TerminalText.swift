//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage

/// Lines for people: names that came from a server or a directory (keys, bucket names, paths, metadata, a service's
/// error message) are printed with their control characters escaped, so that none of them can end a line early,
/// rewrite what the terminal shows or send it a command.
///
/// Every human-readable line goes through ``printLine(_:)`` or ``printError(_:)``. `--json` output is JSON, where
/// the encoder escapes them; `cat` and `cp … -` write an object's bytes untouched.
enum TerminalText {
    /// `text` with its control and bidirectional formatting characters escaped, as the SDK quotes names in its
    /// errors (`ObjectNameRules.escapingControls`): `\n`, `\t`, `\u{1B}`, `\u{202E}`.
    static func escaped(_ text: String) -> String {
        ObjectNameRules.escapingControls(text)
    }
}

/// Writes a line to standard output, its control characters escaped (``TerminalText/escaped(_:)``).
func printLine(_ line: String) {
    print(TerminalText.escaped(line))
}

/// Writes a line to standard error, its control characters escaped (``TerminalText/escaped(_:)``).
func printError(_ message: String) {
    FileHandle.standardError.write(Data((TerminalText.escaped(message) + "\n").utf8))
}
