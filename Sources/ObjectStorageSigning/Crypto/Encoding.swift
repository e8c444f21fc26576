//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Hex and base64 encodings used by signatures, Content-MD5 and ETags.
package enum ByteEncoding {
    private static let lowerHexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
    private static let base64Alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8
    )

    /// Lowercase (or uppercase) hexadecimal.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to encode.
    ///   - uppercase: Whether to use `A-F` instead of `a-f`.
    /// - Returns: Two hex digits per byte.
    package static func hex<Bytes: Collection>(_ bytes: Bytes, uppercase: Bool = false) -> String
    where Bytes.Element == UInt8 {
        let digits = uppercase ? upperHexDigits : lowerHexDigits
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            var index = 0
            for byte in bytes {
                buffer[index] = digits[Int(byte >> 4)]
                buffer[index + 1] = digits[Int(byte & 0x0f)]
                index += 2
            }
            return index
        }
    }

    /// Decodes hexadecimal (either case); `nil` for odd length or a non-hex character.
    ///
    /// - Parameter hex: The hexadecimal text.
    /// - Returns: The bytes, or `nil` when `hex` is not valid hexadecimal.
    package static func bytes(fromHex hex: String) -> [UInt8]? {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var result = [UInt8]()
        result.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = hexValue(utf8[index]), let low = hexValue(utf8[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }

    static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Standard base64 (RFC 4648 §4) with `=` padding.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The base64 text.
    package static func base64<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        let outputCount = (input.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: outputCount) { output in
            var inputIndex = 0
            var outputIndex = 0
            while inputIndex + 3 <= input.count {
                let chunk =
                    UInt32(input[inputIndex]) << 16 | UInt32(input[inputIndex + 1]) << 8
                    | UInt32(input[inputIndex + 2])
                output[outputIndex] = base64Alphabet[Int(chunk >> 18 & 0x3f)]
                output[outputIndex + 1] = base64Alphabet[Int(chunk >> 12 & 0x3f)]
                output[outputIndex + 2] = base64Alphabet[Int(chunk >> 6 & 0x3f)]
                output[outputIndex + 3] = base64Alphabet[Int(chunk & 0x3f)]
                inputIndex += 3
                outputIndex += 4
            }
            let remaining = input.count - inputIndex
            if remaining > 0 {
                let second = remaining == 2 ? UInt32(input[inputIndex + 1]) << 8 : 0
                let chunk = UInt32(input[inputIndex]) << 16 | second
                output[outputIndex] = base64Alphabet[Int(chunk >> 18 & 0x3f)]
                output[outputIndex + 1] = base64Alphabet[Int(chunk >> 12 & 0x3f)]
                output[outputIndex + 2] = remaining == 2 ? base64Alphabet[Int(chunk >> 6 & 0x3f)] : UInt8(ascii: "=")
                output[outputIndex + 3] = UInt8(ascii: "=")
                outputIndex += 4
            }
            return outputIndex
        }
    }

    /// Decodes standard base64 (padding optional); `nil` when malformed.
    ///
    /// - Parameter text: The base64 text.
    /// - Returns: The bytes, or `nil` when `text` is not valid base64.
    package static func bytes(fromBase64 text: String) -> [UInt8]? {
        var result = [UInt8]()
        var accumulator: UInt32 = 0
        var bits = 0
        var sawPadding = false
        for character in text.utf8 {
            if character == UInt8(ascii: "=") {
                sawPadding = true
                continue
            }
            guard !sawPadding, let value = base64Value(character) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                result.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return bits < 6 ? result : nil
    }

    private static func base64Value(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
