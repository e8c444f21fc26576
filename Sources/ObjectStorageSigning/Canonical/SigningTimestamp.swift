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

/// A signing instant in whole UTC seconds, with the formats the schemes write, computed by hand
/// (no `DateFormatter`, no locale, no time zone database): the one date codec of the SDK and the local server.
///
/// ```swift
/// let t = SigningTimestamp(secondsSince1970: 1_709_611_506)
/// t.iso8601Basic  // "20240305T040506Z"  (x-oss-date, x-amz-date)
/// t.dateStamp     // "20240305"          (credential scope)
/// t.httpDate      // "Tue, 05 Mar 2024 04:05:06 GMT"  (Date)
/// t.iso8601()     // "2024-03-05T04:05:06.000Z"  (XML timestamps)
/// t.iso8601WholeSeconds  // "2024-03-05T04:05:06Z"  (what the CLI prints)
/// ```
///
/// Parsing is total and validated: every field must be in its calendar range (years 1...9999, a day that exists
/// in its month, hours 0...23 and so on), so hostile text yields `nil`, never an overflow. Formatting is total too:
/// an instant outside ``representableSeconds`` is written as the nearest end of that range, because the wire
/// formats carry four-digit years.
package struct SigningTimestamp: Hashable, Sendable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z.
    package let secondsSince1970: Int64

    /// The instants the wire formats can carry: `0001-01-01T00:00:00Z` through `9999-12-31T23:59:59Z`.
    package static let representableSeconds: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// Creates a timestamp from Unix seconds.
    ///
    /// - Parameter secondsSince1970: Seconds since the Unix epoch (any value; see ``representableSeconds``).
    package init(secondsSince1970: Int64) { self.secondsSince1970 = secondsSince1970 }

    /// The timestamp of `date`, rounded down to the second and clamped to ``representableSeconds``
    /// (`NaN` becomes the epoch).
    ///
    /// - Parameter date: The instant.
    package init(_ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let range = Self.representableSeconds
        if seconds.isNaN {
            self.secondsSince1970 = 0
        } else if seconds <= Double(range.lowerBound) {
            self.secondsSince1970 = range.lowerBound
        } else if seconds >= Double(range.upperBound) {
            self.secondsSince1970 = range.upperBound
        } else {
            self.secondsSince1970 = Int64(seconds)
        }
    }

    /// Creates a timestamp from UTC calendar fields (proleptic Gregorian); `nil` unless every field is in range.
    ///
    /// - Parameters:
    ///   - year: `1...9999`.
    ///   - month: `1...12`.
    ///   - day: A day that exists in that month of that year.
    ///   - hour: `0...23`.
    ///   - minute: `0...59`.
    ///   - second: `0...60` (a leap second reads as the next minute's first second).
    package init?(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = Self.days(fromCivil: year, month, day)
        guard Self.civil(fromDays: days) == (year, month, day) else { return nil }
        self.init(secondsSince1970: days * 86_400 + hour * 3600 + minute * 60 + second)
    }

    /// The instant as a `Date`.
    package var date: Date { Date(timeIntervalSince1970: TimeInterval(self.secondsSince1970)) }

    /// Compares two timestamps.
    ///
    /// - Parameters:
    ///   - lhs: A timestamp.
    ///   - rhs: Another timestamp.
    /// - Returns: Whether `lhs` is earlier than `rhs`.
    package static func < (lhs: SigningTimestamp, rhs: SigningTimestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, days since the epoch)

    struct Fields {
        var year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, weekday: Int64
    }

    /// The calendar fields of the instant clamped to ``representableSeconds``, so that every year has four digits
    /// and no step can overflow.
    var fields: Fields {
        let range = Self.representableSeconds
        let seconds = min(max(self.secondsSince1970, range.lowerBound), range.upperBound)
        let days = Self.floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        let weekday = ((days % 7) + 11) % 7  // 0 = Sunday; 1970-01-01 was a Thursday
        return Fields(
            year: year,
            month: month,
            day: day,
            hour: secondOfDay / 3600,
            minute: secondOfDay % 3600 / 60,
            second: secondOfDay % 60,
            weekday: weekday
        )
    }

    /// `a / b` rounded towards negative infinity, for `b > 0` (never overflows, unlike `(a - b + 1) / b`).
    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return a % b < 0 ? quotient - 1 : quotient
    }

    /// The civil date of a day number; the caller keeps `days` within ``representableSeconds``' days.
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day number of a civil date; the caller keeps the fields in their calendar ranges.
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    // MARK: Formatting

    /// `YYYYMMDDTHHMMSSZ`: `x-oss-date`, `x-amz-date`, `X-Amz-Date`.
    package var iso8601Basic: String {
        var buffer = SigningBuffer(capacity: 16)
        self.appendISO8601Basic(to: &buffer)
        return buffer.string
    }

    /// `YYYYMMDD`: the date of a V4 credential scope.
    package var dateStamp: String {
        let fields = self.fields
        // Eight bytes: a small string, built without a heap allocation.
        return String(unsafeUninitializedCapacity: 8) { output in
            let year = Int(fields.year)
            output[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: year / 1000)
            output[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: year / 100 % 10)
            output[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: year / 10 % 10)
            output[3] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: year % 10)
            output[4] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fields.month / 10)
            output[5] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fields.month % 10)
            output[6] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fields.day / 10)
            output[7] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fields.day % 10)
            return 8
        }
    }

    /// RFC 9110 IMF-fixdate, `Tue, 05 Mar 2024 04:05:06 GMT`: the `Date` header.
    package var httpDate: String {
        var buffer = SigningBuffer(capacity: 32)
        Self.appendHTTPDate(self.fields, to: &buffer)
        return buffer.string
    }

    /// `2024-03-05T04:05:06.000Z`: the timestamps of S3, OSS and OBS XML documents.
    ///
    /// - Parameter milliseconds: The fraction to write, clamped to `0...999`.
    /// - Returns: The extended ISO 8601 text with three fractional digits.
    package func iso8601(milliseconds: Int64 = 0) -> String {
        self.extendedISO8601(milliseconds: min(max(milliseconds, 0), 999))
    }

    /// `2024-03-05T04:05:06Z`: RFC 3339 in whole seconds, the form the CLI prints.
    package var iso8601WholeSeconds: String {
        self.extendedISO8601(milliseconds: nil)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`, with the fraction when `milliseconds` (in `0...999`) is given.
    private func extendedISO8601(milliseconds: Int64?) -> String {
        let fields = self.fields
        var buffer = SigningBuffer(capacity: 24)
        Self.appendTwoDigits(fields.year / 100, to: &buffer)
        Self.appendTwoDigits(fields.year % 100, to: &buffer)
        buffer.append(UInt8(ascii: "-"))
        Self.appendTwoDigits(fields.month, to: &buffer)
        buffer.append(UInt8(ascii: "-"))
        Self.appendTwoDigits(fields.day, to: &buffer)
        buffer.append(UInt8(ascii: "T"))
        Self.appendTime(fields, to: &buffer, separator: UInt8(ascii: ":"))
        if let milliseconds {
            buffer.append(UInt8(ascii: "."))
            buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: milliseconds / 100))
            Self.appendTwoDigits(milliseconds % 100, to: &buffer)
        }
        buffer.append(UInt8(ascii: "Z"))
        return buffer.string
    }

    func appendISO8601Basic(to buffer: inout SigningBuffer) {
        Self.appendISO8601Basic(self.fields, to: &buffer)
    }

    /// Writes `YYYYMMDDTHHMMSSZ` for `fields`.
    static func appendISO8601Basic(_ fields: Fields, to buffer: inout SigningBuffer) {
        appendDateStamp(fields, to: &buffer)
        buffer.append(UInt8(ascii: "T"))
        appendTime(fields, to: &buffer, separator: nil)
        buffer.append(UInt8(ascii: "Z"))
    }

    /// Writes `YYYYMMDD` for `fields`.
    static func appendDateStamp(_ fields: Fields, to buffer: inout SigningBuffer) {
        appendTwoDigits(fields.year / 100, to: &buffer)
        appendTwoDigits(fields.year % 100, to: &buffer)
        appendTwoDigits(fields.month, to: &buffer)
        appendTwoDigits(fields.day, to: &buffer)
    }

    /// Writes `Tue, 05 Mar 2024 04:05:06 GMT` for `fields`.
    static func appendHTTPDate(_ fields: Fields, to buffer: inout SigningBuffer) {
        buffer.append(weekdayNames[Int(fields.weekday)])
        buffer.append(", ")
        appendTwoDigits(fields.day, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        buffer.append(monthNames[Int(fields.month - 1)])
        buffer.append(UInt8(ascii: " "))
        appendTwoDigits(fields.year / 100, to: &buffer)
        appendTwoDigits(fields.year % 100, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        appendTime(fields, to: &buffer, separator: UInt8(ascii: ":"))
        buffer.append(" GMT")
    }

    private static func appendTime(_ fields: Fields, to buffer: inout SigningBuffer, separator: UInt8?) {
        appendTwoDigits(fields.hour, to: &buffer)
        if let separator { buffer.append(separator) }
        appendTwoDigits(fields.minute, to: &buffer)
        if let separator { buffer.append(separator) }
        appendTwoDigits(fields.second, to: &buffer)
    }

    /// Writes `value` (`0...99`) as two digits.
    @inline(__always)
    private static func appendTwoDigits(_ value: Int64, to buffer: inout SigningBuffer) {
        buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }
}
