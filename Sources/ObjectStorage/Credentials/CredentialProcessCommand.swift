//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A credential process's command line, split into words as a POSIX shell splits them, and nothing else a shell
/// does: no expansion, no redirection, no pipes, no globbing, no comments.
///
/// - Whitespace (space, tab, newline) outside quotes separates words.
/// - `'...'` keeps everything up to the next `'` as it is.
/// - `"..."` keeps everything up to the next unescaped `"`; in it, a backslash escapes only `$`, `` ` ``, `"`, `\`
///   and a newline (an escaped newline is removed), and is kept before any other character.
/// - Outside quotes a backslash escapes the next character (an escaped newline is removed).
/// - Quotes join what is next to them into one word; `''` and `""` are an empty word.
///
/// So `get-creds --name 'my profile' $(id -u) ; *` is the program `get-creds` with the arguments `--name`,
/// `my profile`, `$(id`, `-u)`, `;` and `*`.
struct CredentialProcessCommand: Sendable, Hashable {
    /// Why a command line cannot be split (messages that never quote the command, whose arguments may be secret).
    enum SplitError: Error, Hashable, Sendable, CustomStringConvertible {
        case empty
        case unterminatedSingleQuote
        case unterminatedDoubleQuote
        case trailingBackslash
        case emptyProgram

        var description: String {
            switch self {
            case .empty: "the command is empty"
            case .unterminatedSingleQuote: "the command has a single quote (') that is not closed"
            case .unterminatedDoubleQuote: "the command has a double quote (\") that is not closed"
            case .trailingBackslash: "the command ends with a backslash that escapes nothing"
            case .emptyProgram: "the command's first word, the program, is empty"
            }
        }
    }

    /// The words: the program as written, then its arguments.
    let words: [String]

    /// Splits a command line.
    ///
    /// - Parameter command: The command line, e.g. `get-creds --profile 'my profile'`.
    /// - Throws: ``SplitError`` for an empty command, an empty program, an unterminated quote or a trailing
    ///   backslash.
    init(splitting command: String) throws(SplitError) {
        let words = try Self.split(Array(command.utf8))
        guard let first = words.first else { throw .empty }
        guard !first.isEmpty else { throw .emptyProgram }
        self.words = words
    }

    /// The program as written: the first word.
    var program: String {
        self.words[0]
    }

    /// The program's name for messages: the first word, or its last path component when it is a path. The
    /// arguments never appear in a message: they may carry secrets.
    var programName: String {
        self.program.split(separator: "/").last.map(String.init) ?? self.program
    }

    /// Whether the program is a path (has a `/`) rather than a name to look up in `PATH`.
    var programIsPath: Bool {
        self.program.utf8.contains(UInt8(ascii: "/"))
    }

    private static func split(_ bytes: [UInt8]) throws(SplitError) -> [String] {
        let backslash = UInt8(ascii: "\\")
        let newline = UInt8(ascii: "\n")
        var words: [String] = []
        var word: [UInt8] = []
        var inWord = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), newline:
                if inWord {
                    words.append(String(decoding: word, as: UTF8.self))
                    word.removeAll(keepingCapacity: true)
                    inWord = false
                }
                index += 1
            case backslash:
                guard index + 1 < bytes.count else { throw .trailingBackslash }
                if bytes[index + 1] != newline {
                    word.append(bytes[index + 1])
                    inWord = true
                }
                index += 2
            case UInt8(ascii: "'"):
                guard let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "'")) else {
                    throw .unterminatedSingleQuote
                }
                word.append(contentsOf: bytes[(index + 1)..<end])
                inWord = true
                index = end + 1
            case UInt8(ascii: "\""):
                index += 1
                inWord = true
                while true {
                    guard index < bytes.count else { throw .unterminatedDoubleQuote }
                    let quoted = bytes[index]
                    if quoted == UInt8(ascii: "\"") {
                        index += 1
                        break
                    }
                    if quoted == backslash, index + 1 < bytes.count, Self.escapableInDoubleQuotes(bytes[index + 1]) {
                        if bytes[index + 1] != newline { word.append(bytes[index + 1]) }
                        index += 2
                    } else {
                        word.append(quoted)
                        index += 1
                    }
                }
            default:
                word.append(byte)
                inWord = true
                index += 1
            }
        }
        if inWord { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// The characters a backslash escapes between double quotes (POSIX.1-2017, XCU 2.2.3).
    private static func escapableInDoubleQuotes(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "$") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\n")
    }
}
