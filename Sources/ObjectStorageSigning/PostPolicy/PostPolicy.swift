//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A POST policy document: until when a browser form may be posted, and the conditions its fields and its
/// file must meet. The same JSON shape for OSS, OBS and S3:
///
/// ```
/// {"expiration":"2024-03-05T04:20:06.000Z","conditions":[{"bucket":"b"},["starts-with","$key","p/"],
///  ["content-length-range",1,1048576]]}
/// ```
package struct PostPolicy: Sendable, Hashable {
    /// One condition of the policy.
    package enum Condition: Sendable, Hashable {
        /// The field must equal the value (`{"name":"value"}` or `["eq","$name","value"]`).
        case equals(field: String, value: String)
        /// The field must start with the prefix (`["starts-with","$name","prefix"]`); an empty prefix allows
        /// any value.
        case startsWith(field: String, prefix: String)
        /// The file's size in bytes must lie in the range (`["content-length-range",min,max]`).
        case contentLengthRange(ClosedRange<Int64>)
    }

    /// When the policy stops being valid.
    package var expiration: SigningTimestamp
    /// The conditions, in document order.
    package var conditions: [Condition]

    /// The longest policy document the local server reads, and this module writes: 20 KiB, S3's bound on the
    /// form fields before the file.
    package static let maximumDocumentSize = 20 * 1024

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - expiration: When the policy stops being valid.
    ///   - conditions: The conditions.
    package init(expiration: SigningTimestamp, conditions: [Condition]) {
        self.expiration = expiration
        self.conditions = conditions
    }

    /// The JSON document, compact, with the expiration as `YYYY-MM-DDTHH:MM:SS.000Z`.
    package var json: String {
        var text = "{\"expiration\":\"" + self.expiration.iso8601() + "\",\"conditions\":["
        for (index, condition) in self.conditions.enumerated() {
            if index > 0 { text += "," }
            switch condition {
            case .equals(let field, let value):
                text += "{" + Self.quoted(field) + ":" + Self.quoted(value) + "}"
            case .startsWith(let field, let prefix):
                text += "[\"starts-with\"," + Self.quoted("$" + field) + "," + Self.quoted(prefix) + "]"
            case .contentLengthRange(let range):
                text += "[\"content-length-range\",\(range.lowerBound),\(range.upperBound)]"
            }
        }
        return text + "]}"
    }

    /// The `policy` form field: base64 of the UTF-8 JSON, which is also the string every scheme signs.
    package var base64: String { ByteEncoding.base64(Array(self.json.utf8)) }

    /// A JSON string literal: quotes, backslashes and control characters escaped, everything else verbatim.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension PostPolicy {
    /// Why a policy document was refused.
    package struct DecodingError: Error, Sendable {
        /// A sentence for the error response.
        package var reason: String
    }

    /// Parses a policy document (the decoded `policy` form field).
    ///
    /// Accepts the three condition forms (`{"field":"value"}`, `["eq"|"starts-with","$field","value"]`,
    /// `["content-length-range",min,max]`); field names are matched case-insensitively later, as the services
    /// do. `in` and `not-in` are refused: no SDK here writes them.
    ///
    /// - Parameter bytes: The UTF-8 JSON, at most ``maximumDocumentSize`` bytes.
    /// - Throws: ``DecodingError`` naming what is wrong.
    package init(decoding bytes: [UInt8]) throws(DecodingError) {
        guard bytes.count <= Self.maximumDocumentSize else {
            throw DecodingError(reason: "the policy document is larger than \(Self.maximumDocumentSize) bytes")
        }
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw DecodingError(reason: "the policy is not a valid JSON document")
        }
        guard case .object(let members) = document else {
            throw DecodingError(reason: "the policy is not a JSON object")
        }
        guard case .string(let expirationText)? = members.first(where: { $0.0 == "expiration" })?.1,
            let expiration = SigningTimestamp(iso8601: expirationText)
        else {
            throw DecodingError(reason: "Invalid Policy: Invalid 'expiration' value")
        }
        guard case .array(let items)? = members.first(where: { $0.0 == "conditions" })?.1 else {
            throw DecodingError(reason: "Invalid Policy: Missing 'conditions' array")
        }
        var conditions: [Condition] = []
        for item in items {
            conditions.append(try Self.condition(item))
        }
        self.init(expiration: expiration, conditions: conditions)
    }

    private static func condition(_ item: JSONValue) throws(DecodingError) -> Condition {
        switch item {
        case .object(let members):
            guard members.count == 1, case .string(let value) = members[0].1 else {
                throw DecodingError(reason: "Invalid Policy: a condition object must have exactly one string member")
            }
            return .equals(field: members[0].0, value: value)
        case .array(let parts):
            guard parts.count == 3, case .string(let operation) = parts[0] else {
                throw DecodingError(reason: "Invalid Policy: a condition array must have three elements")
            }
            switch operation.lowercased() {
            case "content-length-range":
                guard let minimum = parts[1].integer, let maximum = parts[2].integer, minimum >= 0,
                    minimum <= maximum
                else {
                    throw DecodingError(reason: "Invalid Policy: Invalid content-length-range")
                }
                return .contentLengthRange(minimum...maximum)
            case "eq", "starts-with":
                guard case .string(let name) = parts[1], name.hasPrefix("$"), case .string(let value) = parts[2]
                else {
                    throw DecodingError(reason: "Invalid Policy: Invalid '\(operation)' condition")
                }
                let field = String(name.dropFirst())
                return operation.lowercased() == "eq"
                    ? .equals(field: field, value: value) : .startsWith(field: field, prefix: value)
            default:
                throw DecodingError(reason: "Invalid Policy: Unsupported condition '\(operation)'")
            }
        default:
            throw DecodingError(reason: "Invalid Policy: a condition must be an object or an array")
        }
    }
}

/// The JSON values a policy document holds (object members keep their order).
enum JSONValue: Decodable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// A whole number in `0...2^53`, or `nil`.
    var integer: Int64? {
        guard case .number(let number) = self, number >= 0, number <= 9_007_199_254_740_992,
            number == number.rounded()
        else { return nil }
        return Int64(number)
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [(String, JSONValue)] = []
            for key in keyed.allKeys {
                members.append((key.stringValue, try keyed.decode(JSONValue.self, forKey: key)))
            }
            self = .object(members)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !unkeyed.isAtEnd {
                items.append(try unkeyed.decode(JSONValue.self))
            }
            self = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }
}
