//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The percent-encoding the signature schemes use, over the UTF-8 bytes of a string.
///
/// Everything except the RFC 3986 unreserved characters `A-Z a-z 0-9 - _ . ~` is written as `%XX`
/// with uppercase hex; ``Style/path`` also keeps `/`. `~` is never encoded, the sub-delimiters
/// `!$'()*,;:@[]` always are, and a `%` in the input is always encoded (`%2F` in a key stays a
/// literal `%2F`, signed as `%252F`). No Unicode normalization happens: NFC and NFD spellings of
/// the same text encode differently, as they are different keys.
package enum PercentEncoding {
    /// Which characters stay unencoded.
    package enum Style: Sendable {
        /// Unreserved characters and `/`: object keys in URL paths and canonical URIs.
        case path
        /// Unreserved characters only: query names and values.
        case component
    }

    // Constant bit sets rather than a table, so the hot loop reads no lazily initialized global.
    /// The unreserved bytes below 64 (`-`, `.`, `0-9`).
    @inline(__always) private static var unreservedLow: UInt64 { 0x03FF_6000_0000_0000 }
    /// `/` in the low bit set.
    @inline(__always) private static var slashLow: UInt64 { 0x0000_8000_0000_0000 }
    /// The unreserved bytes in 64..<128 (`A-Z`, `_`, `a-z`, `~`), offset by 64.
    @inline(__always) private static var unreservedHigh: UInt64 { 0x47FF_FFFE_87FF_FFFE }

    /// Whether `byte` stays as is: an RFC 3986 unreserved character, or `/` when `keepingSlash`.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8, keepingSlash: Bool) -> Bool {
        if byte < 64 {
            let set = keepingSlash ? unreservedLow | slashLow : unreservedLow
            return set &>> UInt64(byte) & 1 != 0
        }
        return byte < 128 && unreservedHigh &>> UInt64(byte &- 64) & 1 != 0
    }

    /// The uppercase hex digit for a nibble (0...15).
    @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "A") &- 10 &+ nibble
    }

    /// Percent-encodes `text`.
    ///
    /// - Parameters:
    ///   - text: The raw text.
    ///   - style: Whether `/` stays as is.
    /// - Returns: The encoded text.
    package static func encode(_ text: String, style: Style) -> String {
        var buffer = SigningBuffer(capacity: text.utf8.count * 3)
        buffer.appendPercentEncoded(text, style: style)
        return buffer.string
    }

    /// Decodes `%XX` sequences (either hex case). `+` stays `+`.
    ///
    /// - Parameter text: Percent-encoded text, e.g. a URL path or query component as received.
    /// - Returns: The decoded text, or `nil` for a malformed escape or bytes that are not UTF-8.
    package static func decode<Text: StringProtocol>(_ text: Text) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(ByteEncoding.hexValue),
                    let low = iterator.next().flatMap(ByteEncoding.hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
