//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Date formats on the wire, computed with integer calendar arithmetic (proleptic Gregorian, UTC).
///
/// Times are whole seconds since 1970 (`Int64`); HTTP dates have one-second resolution.
enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    struct Civil {
        var year: Int64
        var month: Int64
        var day: Int64
        var hour: Int64
        var minute: Int64
        var second: Int64
    }

    static func civil(_ seconds: Int64) -> Civil {
        let days = floorDiv(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return Civil(
            year: year,
            month: month,
            day: day,
            hour: secondOfDay / 3600,
            minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60
        )
    }

    static func seconds(_ c: Civil) -> Int64 {
        let year = c.month <= 2 ? c.year - 1 : c.year
        let era = floorDiv(year, 400)
        let yearOfEra = year - era * 400
        let monthIndex = c.month > 2 ? c.month - 3 : c.month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + c.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + c.hour * 3600 + c.minute * 60 + c.second
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 IMF-fixdate).
    static func imfFixdate(_ seconds: Int64) -> String {
        let c = civil(seconds)
        let weekday = weekdays[Int(((floorDiv(seconds, 86_400) % 7) + 7) % 7)]
        return "\(weekday), \(pad(c.day, 2)) \(months[Int(c.month - 1)]) \(c.year) "
            + "\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2)) GMT"
    }

    /// `1994-11-06T08:49:37.000Z` (the XML timestamp of S3, OSS and OBS).
    static func iso8601(_ seconds: Int64, milliseconds: Int64 = 0) -> String {
        let c = civil(seconds)
        return "\(c.year)-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):"
            + "\(pad(c.second, 2)).\(pad(milliseconds, 3))Z"
    }

    /// `19941106T084937Z` (the SigV4 and OSS V4 request time).
    static func basicISO8601(_ seconds: Int64) -> String {
        let c = civil(seconds)
        return "\(c.year)\(pad(c.month, 2))\(pad(c.day, 2))T\(pad(c.hour, 2))\(pad(c.minute, 2))\(pad(c.second, 2))Z"
    }

    /// Parses an IMF-fixdate, an RFC 850 date or an asctime date (RFC 9110 §5.6.7).
    static func parseHTTPDate(_ text: String) -> Int64? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        // IMF-fixdate: Sun 06 Nov 1994 08:49:37 GMT
        if parts.count == 6, let day = Int64(parts[1]), let month = monthNumber(parts[2]), let year = Int64(parts[3]) {
            return time(parts[4]).map {
                seconds(Civil(year: year, month: month, day: day, hour: $0.0, minute: $0.1, second: $0.2))
            }
        }
        // RFC 850: Sunday 06-Nov-94 08:49:37 GMT
        if parts.count == 4 {
            let date = parts[1].split(separator: "-").map(String.init)
            if date.count == 3, let day = Int64(date[0]), let month = monthNumber(date[1]), var year = Int64(date[2]) {
                if year < 100 { year += year < 70 ? 2000 : 1900 }
                return time(parts[2]).map {
                    seconds(Civil(year: year, month: month, day: day, hour: $0.0, minute: $0.1, second: $0.2))
                }
            }
        }
        // asctime: Sun Nov  6 08:49:37 1994
        if parts.count == 5, let month = monthNumber(parts[1]), let day = Int64(parts[2]), let year = Int64(parts[4]) {
            return time(parts[3]).map {
                seconds(Civil(year: year, month: month, day: day, hour: $0.0, minute: $0.1, second: $0.2))
            }
        }
        return nil
    }

    /// Parses `19941106T084937Z`.
    static func parseBasicISO8601(_ text: String) -> Int64? {
        let u = Array(text.utf8)
        guard u.count == 16, u[8] == UInt8(ascii: "T"), u[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int64? {
            Int64(String(decoding: u[from..<from + count], as: UTF8.self))
        }
        guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2), let hour = number(9, 2),
            let minute = number(11, 2), let second = number(13, 2)
        else { return nil }
        return seconds(Civil(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }

    private static func monthNumber(_ name: String) -> Int64? {
        months.firstIndex(of: name).map { Int64($0 + 1) }
    }

    private static func time(_ text: String) -> (Int64, Int64, Int64)? {
        let fields = text.split(separator: ":").compactMap { Int64($0) }
        guard fields.count == 3 else { return nil }
        return (fields[0], fields[1], fields[2])
    }
}
