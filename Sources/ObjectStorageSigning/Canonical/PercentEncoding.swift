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
public enum PercentEncoding {
    /// Which characters stay unencoded.
    public enum Style: Sendable {
        /// Unreserved characters and `/`: object keys in URL paths and canonical URIs.
        case path
        /// Unreserved characters only: query names and values.
        case component
    }

    /// 0 = encode, 1 = keep in both styles, 2 = keep only in the path style (`/`).
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = 1 }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = 1 }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = 1 }
        for byte in "-_.~".utf8 { table[Int(byte)] = 1 }
        table[Int(UInt8(ascii: "/"))] = 2
        return table
    }()

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes `text`.
    ///
    /// - Parameters:
    ///   - text: The raw text.
    ///   - style: Whether `/` stays as is.
    /// - Returns: The encoded text.
    public static func encode(_ text: String, style: Style) -> String {
        var buffer = SigningBuffer(capacity: text.utf8.count * 3)
        buffer.appendPercentEncoded(text, style: style)
        return buffer.string
    }

    /// Decodes `%XX` sequences (either hex case). `+` stays `+`.
    ///
    /// - Parameter text: Percent-encoded text, e.g. a URL path or query component as received.
    /// - Returns: The decoded text, or `nil` for a malformed escape or bytes that are not UTF-8.
    public static func decode<Text: StringProtocol>(_ text: Text) -> String? {
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

    /// Encodes `source` into `destination` from `offset`; returns the end offset. `destination`
    /// must have room for three bytes per input byte.
    static func encode(
        _ source: UnsafeBufferPointer<UInt8>,
        style: Style,
        into destination: UnsafeMutableBufferPointer<UInt8>,
        at offset: Int
    ) -> Int {
        let keepSlash: UInt8 = style == .path ? 2 : 1
        return self.table.withUnsafeBufferPointer { table in
            self.hexDigits.withUnsafeBufferPointer { hex in
                var index = offset
                for byte in source {
                    let kind = table[Int(byte)]
                    if kind != 0 && kind <= keepSlash {
                        destination[index] = byte
                        index += 1
                    } else {
                        destination[index] = UInt8(ascii: "%")
                        destination[index + 1] = hex[Int(byte >> 4)]
                        destination[index + 2] = hex[Int(byte & 0x0f)]
                        index += 3
                    }
                }
                return index
            }
        }
    }
}
