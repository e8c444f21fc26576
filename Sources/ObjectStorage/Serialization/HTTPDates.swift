//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The two date formats the services use: IMF-fixdate in headers, ISO 8601 in XML.
enum HTTPDates {
    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT` or `2024-05-01T12:00:00.000Z`.
    static func parse(_ text: String) -> Date? {
        // A `-` after four characters is ISO 8601's year (every key of a listing has one); no HTTP date has it there,
        // so each form is tried once, the likelier first.
        if text.utf8.dropFirst(4).first == UInt8(ascii: "-") {
            return self.parseISO8601(text) ?? SigningTimestamp(httpDate: text)?.date
        }
        return SigningTimestamp(httpDate: text)?.date ?? self.parseISO8601(text)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ date: Date) -> String {
        SigningTimestamp(date).httpDate
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z` (or `+00:00`), validated by ``SigningTimestamp``, with its fraction.
    static func parseISO8601(_ text: String) -> Date? {
        guard let timestamp = SigningTimestamp(iso8601: text) else { return nil }
        var fraction = 0.0
        if text.utf8.dropFirst(19).first == UInt8(ascii: ".") {
            var scale = 0.1
            for byte in text.utf8.dropFirst(20) {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                fraction += Double(digit) * scale
                scale /= 10
            }
        }
        return Date(timeIntervalSince1970: Double(timestamp.secondsSince1970) + fraction)
    }
}
