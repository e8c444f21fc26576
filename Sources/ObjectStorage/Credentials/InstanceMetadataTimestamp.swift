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

/// Parses the RFC 3339 timestamps of metadata services: `2017-11-01T05:20:01Z` (Alibaba Cloud) and
/// `2020-07-03T08:21:24.583000Z` (Huawei Cloud), with `Z` or a `±HH:MM` offset and any number of
/// fractional digits. The fields are validated (and the calendar computed) by ``SigningTimestamp``.
enum InstanceMetadataTimestamp {
    static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.skip("-"),
            let month = scanner.digits(2), scanner.skip("-"),
            let day = scanner.digits(2), scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
            let hour = scanner.digits(2), scanner.skip(":"),
            let minute = scanner.digits(2), scanner.skip(":"),
            let second = scanner.digits(2)
        else { return nil }
        var fraction = 0.0
        if scanner.skip(".") {
            var scale = 0.1
            var count = 0
            while let digit = scanner.digits(1) {
                fraction += Double(digit) * scale
                scale /= 10
                count += 1
            }
            guard count > 0 else { return nil }
        }
        var offset = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offset = 0
        } else if let sign = scanner.sign(), let hours = scanner.digits(2), scanner.skip(":"),
            let minutes = scanner.digits(2)
        {
            guard hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard scanner.isAtEnd,
            let timestamp = SigningTimestamp(
                year: Int64(year),
                month: Int64(month),
                day: Int64(day),
                hour: Int64(hour),
                minute: Int64(minute),
                second: Int64(second)
            )
        else { return nil }
        return Date(timeIntervalSince1970: Double(timestamp.secondsSince1970 - Int64(offset)) + fraction)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isAtEnd: Bool {
            self.index == self.bytes.count
        }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: character) else {
                return false
            }
            self.index += 1
            return true
        }

        mutating func sign() -> Int? {
            if self.skip("+") { return 1 }
            if self.skip("-") { return -1 }
            return nil
        }

        mutating func digits(_ count: Int) -> Int? {
            guard self.index + count <= self.bytes.count else { return nil }
            var value = 0
            for byte in self.bytes[self.index..<(self.index + count)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            self.index += count
            return value
        }
    }
}
