//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Parses the `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
package enum RetryAfter {
    /// The delay a `Retry-After` value asks for.
    ///
    /// Accepts delay-seconds (`120`) and the three HTTP-date forms: IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
    /// (`Sun Nov  6 08:49:37 1994`). A date in the past gives zero.
    ///
    /// - Parameters:
    ///   - value: The header's value.
    ///   - now: The current time, to turn a date into a delay (default the system clock).
    /// - Returns: The delay, or `nil` when the value is neither form.
    package static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingHTTPWhitespace()
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let seconds = Int64(trimmed) else { return .seconds(Int64.max / 1_000_000_000) }
            return .seconds(seconds)
        }
        guard let epochSeconds = Self.parseHTTPDate(trimmed) else { return nil }
        let delta = Double(epochSeconds) - now.timeIntervalSince1970
        guard delta > 0 else { return .zero }
        return .milliseconds(Int64((delta * 1000).rounded(.up)))
    }

    /// Seconds since 1970 for an HTTP-date in any of its three forms, or `nil`.
    static func parseHTTPDate(_ text: String) -> Int64? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        // IMF-fixdate: Sun 06 Nov 1994 08:49:37 GMT
        if tokens.count == 6, tokens[5] == "GMT", let day = Int(tokens[1]), let year = Int(tokens[3]),
            tokens[1].count == 2, tokens[3].count == 4
        {
            return Self.epochSeconds(year: year, month: tokens[2], day: day, time: tokens[4])
        }
        // RFC 850: Sunday 06-Nov-94 08:49:37 GMT
        if tokens.count == 4, tokens[3] == "GMT" {
            let parts = tokens[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let day = Int(parts[0]), let shortYear = Int(parts[2]), parts[2].count == 2 else {
                return nil
            }
            // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
            let year = shortYear < 70 ? 2000 + shortYear : 1900 + shortYear
            return Self.epochSeconds(year: year, month: parts[1], day: day, time: tokens[2])
        }
        // asctime: Sun Nov 6 08:49:37 1994
        if tokens.count == 5, let day = Int(tokens[2]), let year = Int(tokens[4]), tokens[4].count == 4 {
            return Self.epochSeconds(year: year, month: tokens[1], day: day, time: tokens[3])
        }
        return nil
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func epochSeconds(year: Int, month: String, day: Int, time: String) -> Int64? {
        guard let monthIndex = Self.months.firstIndex(of: month) else { return nil }
        let clock = time.split(separator: ":").map { Int($0) }
        guard clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2],
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second), (1...31).contains(day),
            (1...9999).contains(year)
        else { return nil }
        let days = Self.daysFromCivil(year: year, month: monthIndex + 1, day: day)
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension String {
    fileprivate func trimmingHTTPWhitespace() -> String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return String(view)
    }
}
