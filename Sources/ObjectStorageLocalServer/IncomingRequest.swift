//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// A request as it arrived on the wire, with the bucket and key it addresses.
struct IncomingRequest: Sendable {
    struct QueryItem: Sendable {
        /// The name and value exactly as received (still percent-encoded).
        var rawName: String
        var rawValue: String?
        /// Percent-decoded.
        var name: String
        var value: String?
    }

    struct Header: Sendable {
        /// The field name as received.
        var name: String
        var lowercasedName: String
        var value: String
    }

    var method: String
    /// The request target's path as received (percent-encoded).
    var rawPath: String
    /// The request target's query as received, without `?` (empty if none).
    var rawQuery: String
    var query: [QueryItem]
    var headers: [Header]
    /// The `Host` (authority) as received.
    var host: String
    var bucket: String?
    var key: String?
    var virtualHosted: Bool

    init(method: String, target: String, host: String, headers: [Header], domain: String) {
        self.method = method
        self.host = host
        self.headers = headers
        if let mark = target.firstIndex(of: "?") {
            rawPath = String(target[..<mark])
            rawQuery = String(target[target.index(after: mark)...])
        } else {
            rawPath = target
            rawQuery = ""
        }
        query = rawQuery.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: "=") {
                let rawName = String(pair[..<equals])
                let rawValue = String(pair[pair.index(after: equals)...])
                return QueryItem(
                    rawName: rawName,
                    rawValue: rawValue,
                    name: Self.decodeQueryComponent(rawName[...]),
                    value: Self.decodeQueryComponent(rawValue[...])
                )
            }
            return QueryItem(
                rawName: String(pair),
                rawValue: nil,
                name: Self.decodeQueryComponent(pair),
                value: nil
            )
        }
        let hostName = Self.hostWithoutPort(host).lowercased()
        let suffix = "." + domain.lowercased()
        let path = Self.decode(rawPath)
        if !domain.isEmpty, hostName.hasSuffix(suffix), hostName.count > suffix.count {
            virtualHosted = true
            bucket = String(hostName.dropLast(suffix.count))
            let key = path.hasPrefix("/") ? String(path.dropFirst()) : path
            self.key = key.isEmpty ? nil : key
        } else {
            virtualHosted = false
            let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
            if let slash = trimmed.firstIndex(of: "/") {
                bucket = String(trimmed[..<slash])
                let key = String(trimmed[trimmed.index(after: slash)...])
                self.key = key.isEmpty ? nil : key
            } else {
                bucket = trimmed.isEmpty ? nil : String(trimmed)
                key = nil
            }
        }
    }

    static func hostWithoutPort(_ host: String) -> String {
        if host.hasPrefix("[") {
            return host.firstIndex(of: "]").map { String(host[...$0]) } ?? host
        }
        return host.firstIndex(of: ":").map { String(host[..<$0]) } ?? host
    }

    /// The value of a header (case-insensitive); repeated fields are joined with commas.
    func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        let values = headers.filter { $0.lowercasedName == lowered }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ",")
    }

    /// Whether the query has a parameter named `name` (with or without a value).
    func hasQuery(_ name: String) -> Bool { query.contains { $0.name == name } }

    /// The decoded value of a query parameter; `""` for a parameter without a value.
    func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }.map { $0.value ?? "" }
    }

    /// The value of a non-negative integer query parameter such as `max-parts`, or `defaultValue` when it is
    /// absent.
    ///
    /// - Parameters:
    ///   - name: The parameter.
    ///   - defaultValue: The value when the parameter is absent.
    ///   - message: The `Message` of the refusal (default: `Argument NAME must be an integer between 0 and
    ///     2147483647`).
    /// - Returns: The value, in `0...2147483647`.
    /// - Throws: `InvalidArgument` (as S3 answers) unless the value is a decimal integer in `0...2147483647`.
    func queryCount(_ name: String, default defaultValue: Int, message: String? = nil) throws(ServerError) -> Int {
        guard let text = queryValue(name) else { return defaultValue }
        guard let value = Self.count(text) else {
            throw ServerError.invalidArgument(
                message ?? "Argument \(name) must be an integer between 0 and \(Int32.max)",
                name: name,
                value: text
            )
        }
        return value
    }

    /// `text` as a count: ASCII digits only (no sign, space or fraction) and at most `Int32.max`, as S3 reads
    /// `max-keys` and `partNumber`; `nil` otherwise.
    static func count(_ text: String) -> Int? {
        guard text.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }), let value = Int32(text) else { return nil }
        return Int(value)
    }
}

extension IncomingRequest {
    /// Percent-decodes a path, key or header value with the signing layer's decoder; text with a malformed
    /// escape is kept as received.
    static func decode<Text: StringProtocol>(_ text: Text) -> String {
        PercentEncoding.decode(text) ?? String(text)
    }

    /// Decodes a query name or value as HTML forms encode it: `+` is a space (an encoded plus is `%2B`).
    static func decodeQueryComponent(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "+")) else { return decode(text) }
        let spaced = text.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
        return decode(String(decoding: spaced, as: UTF8.self))
    }
}
