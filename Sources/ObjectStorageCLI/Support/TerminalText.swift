//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Lines for people: names that came from a server or a directory (keys, bucket names, paths, metadata, a service's
/// error message) are printed with their control characters escaped, so that none of them can end a line early,
/// rewrite what the terminal shows or send it a command.
///
/// Every human-readable line goes through ``printLine(_:)`` or ``printError(_:)``. `--json` output is JSON, where
/// the encoder escapes them; `cat` and `cp … -` write an object's bytes untouched.
enum TerminalText {
    /// `text` with each C0 and C1 control character, DEL and bidirectional formatting character written as its
    /// Swift escape (`\n`, `\t`, `\u{1B}`, `\u{202E}`); every other character as it is.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                result += scalar.escaped(asASCII: true)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` controls a terminal or the direction of the text around it rather than showing a glyph.
    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // Embeddings and overrides (U+202A...U+202E) and isolates (U+2066...U+2069) reorder what follows them.
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
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
