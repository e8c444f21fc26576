//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A parsed INI file as the AWS shared credentials/config files and Alibaba Cloud's credentials file
/// use it: `[section]` headers, `key = value` lines, `#` and `;` comments.
///
/// - Keys are lowercased; section names are kept as written (trimmed).
/// - A section that appears twice is merged, later values winning.
/// - Indented lines after a property (AWS nested settings such as `s3 =` blocks) are skipped.
/// - A `#` or `;` preceded by whitespace starts an inline comment; secrets never contain whitespace.
/// - Errors name the file and line, never the line's content (it may hold a secret).
struct CredentialsINIFile {
    /// The sections by name, each a dictionary of lowercased keys to trimmed values.
    private(set) var sections: [String: [String: String]] = [:]

    /// Parses `text`.
    ///
    /// - Parameters:
    ///   - text: The file's content.
    ///   - path: The file's path, for error messages.
    /// - Throws: ``CredentialsError/Code/malformedFile`` with the line number.
    init(parsing text: String, path: String) throws {
        var current: String?
        var lastLineWasProperty = false
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            var line = Substring(rawLine)
            if lineNumber == 1, line.first == "\u{FEFF}" {
                line = line.dropFirst()
            }
            let trimmed = CredentialsText.trimmed(line)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") {
                continue
            }
            if trimmed.hasPrefix("[") {
                guard let close = trimmed.firstIndex(of: "]") else {
                    throw CredentialsError.malformedFile(
                        path: path,
                        line: lineNumber,
                        reason: "a section header has no ']'"
                    )
                }
                let rest = CredentialsText.trimmed(trimmed[trimmed.index(after: close)...])
                guard rest.isEmpty || rest.hasPrefix("#") || rest.hasPrefix(";") else {
                    throw CredentialsError.malformedFile(
                        path: path,
                        line: lineNumber,
                        reason: "unexpected text after a section header"
                    )
                }
                let name = CredentialsText.trimmed(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
                guard !name.isEmpty else {
                    throw CredentialsError.malformedFile(
                        path: path,
                        line: lineNumber,
                        reason: "a section name is empty"
                    )
                }
                current = name
                lastLineWasProperty = false
                if self.sections[name] == nil {
                    self.sections[name] = [:]
                }
                continue
            }
            if let first = line.first, first.isWhitespace, lastLineWasProperty {
                // A nested setting under the previous property (e.g. AWS `s3 =` blocks): not credentials.
                continue
            }
            guard let section = current else {
                throw CredentialsError.malformedFile(
                    path: path,
                    line: lineNumber,
                    reason: "a property appears before any [section] header"
                )
            }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw CredentialsError.malformedFile(
                    path: path,
                    line: lineNumber,
                    reason: "expected 'key = value', a [section] header or a comment"
                )
            }
            let key = CredentialsText.trimmed(trimmed[..<equals]).lowercased()
            guard !key.isEmpty else {
                throw CredentialsError.malformedFile(path: path, line: lineNumber, reason: "a property has no name")
            }
            let value = Self.strippingInlineComment(trimmed[trimmed.index(after: equals)...])
            self.sections[section, default: [:]][key] = value
            lastLineWasProperty = true
        }
    }

    /// `value` trimmed, without a `#` or `;` comment that follows whitespace.
    private static func strippingInlineComment(_ value: Substring) -> String {
        var previous: Character?
        for index in value.indices {
            let character = value[index]
            if character == "#" || character == ";", let previous, previous.isWhitespace {
                return CredentialsText.trimmed(value[..<index])
            }
            previous = character
        }
        return CredentialsText.trimmed(value)
    }
}
