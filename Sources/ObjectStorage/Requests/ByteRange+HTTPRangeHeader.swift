//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension ByteRange {
    /// Parses the value of an HTTP `Range` header holding one byte range, as a server that streams an object
    /// out receives it from its own client.
    ///
    /// The three single-range forms are accepted (RFC 9110 §14.1.2): `bytes=0-99` (first and last byte),
    /// `bytes=100-` (from an offset to the end) and `bytes=-500` (the last 500 bytes). The unit is matched
    /// without regard to case and spaces around the value are ignored.
    ///
    /// <!-- snippet: given request: Request, key: String -->
    /// ```swift
    /// import Hummingbird
    ///
    /// var get = GetObjectRequest(bucket: "b", key: key)
    /// get.range = request.headers[.range].flatMap(ByteRange.init(httpRangeHeader:))
    /// ```
    ///
    /// The value is untrusted input: a number too large for `Int64` is refused, never wrapped or trapped on.
    ///
    /// - Parameter value: The header's value.
    /// - Returns: The range, or `nil` when the value is not one well-formed byte range: another unit, several
    ///   ranges (`bytes=0-1,5-6`), a sign, a reversed pair, an empty suffix (`bytes=-0`) or a number out of range.
    public init?(httpRangeHeader value: String) {
        let trimmed = value.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let spec = trimmed.reversed().drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.reversed()
        let unit = Array("bytes=".utf8)
        let bytes = Array(spec)
        guard bytes.count > unit.count,
            zip(bytes, unit).allSatisfy({ Self.asciiLowercased($0) == $1 }),
            let dash = bytes[unit.count...].firstIndex(of: UInt8(ascii: "-"))
        else { return nil }
        let first = Self.decimal(bytes[unit.count..<dash])
        let last = Self.decimal(bytes[(dash + 1)...])
        switch (dash == unit.count, dash == bytes.count - 1) {
        case (true, false):
            guard let count = last, count > 0 else { return nil }
            self.init(kind: .suffix(count))
        case (false, true):
            guard let first else { return nil }
            self.init(kind: .from(first))
        case (false, false):
            guard let first, let last, last >= first else { return nil }
            self.init(kind: .closed(first, last))
        case (true, true):
            return nil
        }
    }

    /// A run of ASCII digits as a non-negative `Int64`; `nil` for anything else or a value that overflows.
    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflowedMultiply) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAdd) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflowedMultiply, !overflowedAdd else { return nil }
            value = sum
        }
        return value
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
