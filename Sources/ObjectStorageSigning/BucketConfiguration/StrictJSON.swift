//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A JSON parser that takes RFC 8259 and nothing more, and says where it stopped: the services refuse a trailing
/// comma, which Foundation's parsers accept, and a message naming the line of the error is what a person fixing a
/// policy file needs.
package enum StrictJSON {
    /// Where and why a document is not JSON.
    package struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        package var message: String
        /// 1-based.
        package var line: Int
        /// 1-based, in bytes.
        package var column: Int

        package var description: String { "\(self.message) at line \(self.line), column \(self.column)" }
    }

    /// The deepest nesting parsed (arrays and objects), as deep as an XML document may nest.
    package static let maximumDepth = 64

    /// Parses a whole document (one value, whitespace around it).
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the document") }
        return value
    }

    /// Whether `bytes` hold one JSON object whose only member is `name`, a string; that string if so (aws-cli's
    /// `{"Policy": "..."}`).
    package static func soleStringMember(_ name: String, of bytes: [UInt8]) -> String? {
        guard case .object(let members)? = try? Self.parse(bytes), members.count == 1, members[0].0 == name,
            case .string(let value) = members[0].1
        else { return nil }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ message: String) -> SyntaxError {
            var line = 1
            var lineStart = 0
            for position in 0..<min(self.index, self.bytes.count) where self.bytes[position] == 0x0A {
                line += 1
                lineStart = position + 1
            }
            return SyntaxError(message: message, line: line, column: self.index - lineStart + 1)
        }

        var peek: UInt8? { self.index < self.bytes.count ? self.bytes[self.index] : nil }

        mutating func skipWhitespace() {
            while let byte = self.peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                self.index += 1
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard let byte = self.peek else { throw self.error("the document ends where a value should be") }
            switch byte {
            case UInt8(ascii: "{"): return try self.object(depth: depth + 1)
            case UInt8(ascii: "["): return try self.array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try self.string())
            case UInt8(ascii: "t"): return try self.literal("true", .bool(true))
            case UInt8(ascii: "f"): return try self.literal("false", .bool(false))
            case UInt8(ascii: "n"): return try self.literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try self.number()
            default: throw self.error("unexpected character '\(Self.shown(byte))' where a value should be")
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= StrictJSON.maximumDepth else { throw self.error("nested too deep") }
            self.index += 1
            var members: [(String, JSONValue)] = []
            self.skipWhitespace()
            if self.peek == UInt8(ascii: "}") {
                self.index += 1
                return .object(members)
            }
            while true {
                self.skipWhitespace()
                guard self.peek == UInt8(ascii: "\"") else {
                    throw self.error(
                        members.isEmpty ? "expected a member name in quotes" : "expected a member name after ','"
                    )
                }
                let name = try self.string()
                self.skipWhitespace()
                guard self.peek == UInt8(ascii: ":") else { throw self.error("expected ':' after the member name") }
                self.index += 1
                self.skipWhitespace()
                members.append((name, try self.value(depth: depth)))
                self.skipWhitespace()
                switch self.peek {
                case UInt8(ascii: ","): self.index += 1
                case UInt8(ascii: "}"):
                    self.index += 1
                    return .object(members)
                default: throw self.error("expected ',' or '}' after a member")
                }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= StrictJSON.maximumDepth else { throw self.error("nested too deep") }
            self.index += 1
            var items: [JSONValue] = []
            self.skipWhitespace()
            if self.peek == UInt8(ascii: "]") {
                self.index += 1
                return .array(items)
            }
            while true {
                self.skipWhitespace()
                if self.peek == UInt8(ascii: "]") { throw self.error("a ',' before ']'") }
                items.append(try self.value(depth: depth))
                self.skipWhitespace()
                switch self.peek {
                case UInt8(ascii: ","): self.index += 1
                case UInt8(ascii: "]"):
                    self.index += 1
                    return .array(items)
                default: throw self.error("expected ',' or ']' after an element")
                }
            }
        }

        mutating func literal(_ word: String, _ value: JSONValue) throws(SyntaxError) -> JSONValue {
            let expected = Array(word.utf8)
            guard self.bytes.count - self.index >= expected.count,
                Array(self.bytes[self.index..<self.index + expected.count]) == expected
            else { throw self.error("unexpected word where a value should be") }
            self.index += expected.count
            return value
        }

        mutating func number() throws(SyntaxError) -> JSONValue {
            let start = self.index
            func digits(_ parser: inout Parser) -> Int {
                var count = 0
                while let byte = parser.peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    parser.index += 1
                    count += 1
                }
                return count
            }
            if self.peek == UInt8(ascii: "-") { self.index += 1 }
            if self.peek == UInt8(ascii: "0") {
                self.index += 1
            } else if digits(&self) == 0 {
                throw self.error("a number without digits")
            }
            if self.peek == UInt8(ascii: ".") {
                self.index += 1
                guard digits(&self) > 0 else { throw self.error("a number without digits after '.'") }
            }
            if self.peek == UInt8(ascii: "e") || self.peek == UInt8(ascii: "E") {
                self.index += 1
                if self.peek == UInt8(ascii: "+") || self.peek == UInt8(ascii: "-") { self.index += 1 }
                guard digits(&self) > 0 else { throw self.error("a number without digits in its exponent") }
            }
            let text = String(decoding: self.bytes[start..<self.index], as: UTF8.self)
            return .number(Double(text) ?? .infinity)
        }

        mutating func string() throws(SyntaxError) -> String {
            self.index += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush(_ run: inout [UInt8], into scalars: inout String.UnicodeScalarView) {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll(keepingCapacity: true)
            }
            while true {
                guard let byte = self.peek else { throw self.error("a string that does not end") }
                switch byte {
                case UInt8(ascii: "\""):
                    self.index += 1
                    flush(&run, into: &scalars)
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush(&run, into: &scalars)
                    self.index += 1
                    scalars.append(try self.escape())
                case 0..<0x20:
                    throw self.error("a control character in a string (write it as an escape)")
                default:
                    run.append(byte)
                    self.index += 1
                }
            }
        }

        mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
            guard let byte = self.peek else { throw self.error("a string that does not end") }
            self.index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try self.hexQuad()
                if (0xD800..<0xDC00).contains(high) {
                    guard self.peek == UInt8(ascii: "\\"), self.index + 1 < self.bytes.count,
                        self.bytes[self.index + 1] == UInt8(ascii: "u")
                    else { throw self.error("a lone surrogate in a \\u escape") }
                    self.index += 2
                    let low = try self.hexQuad()
                    guard (0xDC00..<0xE000).contains(low),
                        let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                    else { throw self.error("a lone surrogate in a \\u escape") }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(high) else { throw self.error("a lone surrogate in a \\u escape") }
                return scalar
            default:
                self.index -= 1
                throw self.error("an unknown escape '\\\(Self.shown(byte))'")
            }
        }

        mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = self.peek else { throw self.error("a \\u escape without four hex digits") }
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw self.error("a \\u escape without four hex digits")
                }
                value = value << 4 | digit
                self.index += 1
            }
            return value
        }

        /// A byte as a message shows it: itself when printable ASCII, else its code.
        static func shown(_ byte: UInt8) -> String {
            (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
        }
    }
}
