//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A signing instant in whole UTC seconds, with the formats the schemes write, computed by hand
/// (no `DateFormatter`, no locale, no time zone database).
///
/// ```swift
/// let t = SigningTimestamp(secondsSince1970: 1_709_611_506)
/// t.iso8601Basic  // "20240305T040506Z"  (x-oss-date, x-amz-date)
/// t.dateStamp     // "20240305"          (credential scope)
/// t.httpDate      // "Tue, 05 Mar 2024 04:05:06 GMT"  (Date)
/// ```
public struct SigningTimestamp: Hashable, Sendable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let secondsSince1970: Int64

    /// Creates a timestamp from Unix seconds.
    ///
    /// - Parameter secondsSince1970: Seconds since the Unix epoch.
    public init(secondsSince1970: Int64) { self.secondsSince1970 = secondsSince1970 }

    /// The timestamp of `date`, rounded down to the second.
    ///
    /// - Parameter date: The instant.
    public init(_ date: Date) {
        self.secondsSince1970 = Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// The instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(self.secondsSince1970)) }

    /// Compares two timestamps.
    ///
    /// - Parameters:
    ///   - lhs: A timestamp.
    ///   - rhs: Another timestamp.
    /// - Returns: Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: SigningTimestamp, rhs: SigningTimestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, days since the epoch)

    struct Fields {
        var year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, weekday: Int64
    }

    var fields: Fields {
        let days = Self.floorDivide(self.secondsSince1970, 86_400)
        let secondOfDay = self.secondsSince1970 - days * 86_400
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

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }

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
    public var iso8601Basic: String {
        var buffer = SigningBuffer(capacity: 16)
        self.appendISO8601Basic(to: &buffer)
        return buffer.string
    }

    /// `YYYYMMDD`: the date of a V4 credential scope.
    public var dateStamp: String {
        let fields = self.fields
        guard (0...9999).contains(fields.year) else {
            var buffer = SigningBuffer(capacity: 16)
            Self.appendDateStamp(fields, to: &buffer)
            return buffer.string
        }
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

    /// RFC 7231 IMF-fixdate, `Tue, 05 Mar 2024 04:05:06 GMT`: the `Date` header.
    public var httpDate: String {
        var buffer = SigningBuffer(capacity: 32)
        Self.appendHTTPDate(self.fields, to: &buffer)
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
        appendDigits(fields.year, count: 4, to: &buffer)
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
        appendDigits(fields.year, count: 4, to: &buffer)
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

    @inline(__always)
    private static func appendTwoDigits(_ value: Int64, to buffer: inout SigningBuffer) {
        buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }

    private static func appendDigits(_ value: Int64, count: Int, to buffer: inout SigningBuffer) {
        if count == 4, (0...9999).contains(value) {
            appendTwoDigits(value / 100, to: &buffer)
            appendTwoDigits(value % 100, to: &buffer)
            return
        }
        var divisor: Int64 = 1
        for _ in 1..<count { divisor *= 10 }
        var value = value
        if value >= divisor * 10 {
            buffer.append(value / (divisor * 10))  // years past 9999: never truncate
            value %= divisor * 10
        }
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    // MARK: Parsing (for verifiers)

    /// Parses `YYYYMMDDTHHMMSSZ`.
    ///
    /// - Parameter text: For example `20240305T040506Z`.
    public init?(iso8601Basic text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z"),
            let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[4..<6]),
            let day = Self.number(bytes[6..<8]), let hour = Self.number(bytes[9..<11]),
            let minute = Self.number(bytes[11..<13]), let second = Self.number(bytes[13..<15])
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Parses an RFC 7231 IMF-fixdate, `Tue, 05 Mar 2024 04:05:06 GMT`.
    ///
    /// - Parameter text: The `Date` header value.
    public init?(httpDate text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[25...] == Array(" GMT".utf8)[...],
            let day = Self.number(bytes[5..<7]), let year = Self.number(bytes[12..<16]),
            let hour = Self.number(bytes[17..<19]), let minute = Self.number(bytes[20..<22]),
            let second = Self.number(bytes[23..<25]),
            let monthIndex = Self.monthNames.firstIndex(where: { Array($0.utf8)[...] == bytes[8..<11] })
        else { return nil }
        self.init(year: year, month: Int64(monthIndex + 1), day: day, hour: hour, minute: minute, second: second)
    }

    private init?(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) {
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        let days = Self.days(fromCivil: year, month, day)
        guard Self.civil(fromDays: days) == (year, month, day) else { return nil }
        self.init(secondsSince1970: days * 86_400 + hour * 3600 + minute * 60 + second)
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for byte in bytes {
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
