//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Small text helpers for the credentials providers (kept in a namespace so they cannot clash).
package enum CredentialsText {
    /// `text` without leading and trailing whitespace and newlines.
    package static func trimmed(_ text: some StringProtocol) -> String {
        guard let start = text.firstIndex(where: { !$0.isWhitespace }),
            let end = text.lastIndex(where: { !$0.isWhitespace })
        else {
            return ""
        }
        return String(text[start...end])
    }

    /// `value` if it is not empty after trimming, else `nil`.
    package static func nonEmpty(_ value: (some StringProtocol)?) -> String? {
        guard let value else { return nil }
        let trimmed = Self.trimmed(value)
        return trimmed.isEmpty ? nil : trimmed
    }
}
