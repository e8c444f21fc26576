//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Parsing for verifiers and response readers. Every numeric field is read from a bounded number of ASCII
// digits (so reading it cannot overflow) and then checked against its calendar range by
// `init?(year:month:day:hour:minute:second:)`.
extension SigningTimestamp {
    /// Parses `YYYYMMDDTHHMMSSZ`.
    ///
    /// - Parameter text: For example `20240305T040506Z`.
    package init?(iso8601Basic text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z"),
            let year = Self.digits(bytes[0..<4]), let month = Self.digits(bytes[4..<6]),
            let day = Self.digits(bytes[6..<8]), let hour = Self.digits(bytes[9..<11]),
            let minute = Self.digits(bytes[11..<13]), let second = Self.digits(bytes[13..<15])
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS` followed by an optional fraction (ignored: timestamps are whole seconds) and
    /// `Z` or `+00:00`.
    ///
    /// - Parameter text: For example `2024-03-05T04:05:06.000Z`.
    package init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"),
            let year = Self.digits(bytes[0..<4]), let month = Self.digits(bytes[5..<7]),
            let day = Self.digits(bytes[8..<10]), let hour = Self.digits(bytes[11..<13]),
            let minute = Self.digits(bytes[14..<16]), let second = Self.digits(bytes[17..<19])
        else { return nil }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            guard index > start else { return nil }
        }
        let zone = bytes[index...]
        guard zone.elementsEqual("Z".utf8) || zone.elementsEqual("z".utf8) || zone.elementsEqual("+00:00".utf8)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Parses an HTTP date in any of the three forms RFC 9110 §5.6.7 requires recipients to accept:
    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
    /// (`Sun Nov  6 08:49:37 1994`).
    ///
    /// A one-digit day is accepted in each form. A two-digit RFC 850 year is read as 1970...2069. The weekday
    /// name is not checked against the date.
    ///
    /// - Parameter text: The header value.
    package init?(httpDate text: String) {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," })
        let parsed: (year: Int64, month: Int64, day: Int64, time: (Int64, Int64, Int64))?
        switch tokens.count {
        case 6:
            // IMF-fixdate: Sun 06 Nov 1994 08:49:37 GMT
            guard Self.isGMT(tokens[5]), let day = Self.digits(tokens[1], count: 1...2),
                let month = Self.month(tokens[2]), let year = Self.digits(tokens[3], count: 4...4),
                let time = Self.time(tokens[4])
            else { return nil }
            parsed = (year, month, day, time)
        case 4:
            // RFC 850: Sunday 06-Nov-94 08:49:37 GMT
            let date = tokens[1].split(separator: "-", omittingEmptySubsequences: false)
            guard Self.isGMT(tokens[3]), date.count == 3, let day = Self.digits(date[0], count: 1...2),
                let month = Self.month(date[1]), let written = Self.digits(date[2], count: 2...4),
                date[2].utf8.count != 3, let time = Self.time(tokens[2])
            else { return nil }
            let year = date[2].utf8.count == 2 ? written + (written < 70 ? 2000 : 1900) : written
            parsed = (year, month, day, time)
        case 5:
            // asctime: Sun Nov 6 08:49:37 1994
            guard let month = Self.month(tokens[1]), let day = Self.digits(tokens[2], count: 1...2),
                let time = Self.time(tokens[3]), let year = Self.digits(tokens[4], count: 4...4)
            else { return nil }
            parsed = (year, month, day, time)
        default:
            parsed = nil
        }
        guard let parsed else { return nil }
        self.init(
            year: parsed.year,
            month: parsed.month,
            day: parsed.day,
            hour: parsed.time.0,
            minute: parsed.time.1,
            second: parsed.time.2
        )
    }

    private static let monthTokens = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    private static func month(_ token: Substring) -> Int64? {
        monthTokens.firstIndex { $0 == token }.map { Int64($0 + 1) }
    }

    /// The zone names that mean UTC: `GMT` (RFC 9110), `UTC`, `UT`, and the numeric `+0000` / `-0000`
    /// that s3cmd writes in its `x-amz-date`.
    private static func isGMT(_ token: Substring) -> Bool {
        token == "GMT" || token == "UTC" || token == "UT" || token == "+0000" || token == "-0000"
    }

    /// `HH:MM:SS`, two digits each.
    private static func time(_ token: Substring) -> (Int64, Int64, Int64)? {
        let fields = token.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, let hour = digits(fields[0], count: 2...2),
            let minute = digits(fields[1], count: 2...2), let second = digits(fields[2], count: 2...2)
        else { return nil }
        return (hour, minute, second)
    }

    /// The value of `count` ASCII digits (at most four, so no overflow); `nil` for anything else.
    private static func digits(_ token: Substring, count: ClosedRange<Int>) -> Int64? {
        let bytes = Array(token.utf8)
        guard count.contains(bytes.count) else { return nil }
        return digits(bytes[...])
    }

    /// The value of a short run of ASCII digits (callers pass at most four); `nil` if any byte is not a digit.
    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= 4 else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }
}
