//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

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
                    name: PercentEncoding.decode(rawName, plusAsSpace: true),
                    value: PercentEncoding.decode(rawValue, plusAsSpace: true)
                )
            }
            return QueryItem(
                rawName: String(pair),
                rawValue: nil,
                name: PercentEncoding.decode(pair, plusAsSpace: true),
                value: nil
            )
        }
        let hostName = Self.hostWithoutPort(host).lowercased()
        let suffix = "." + domain.lowercased()
        let path = PercentEncoding.decode(rawPath, plusAsSpace: false)
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
}

/// Percent-encoding as the object-storage APIs use it.
enum PercentEncoding {
    /// Decodes `%XX` escapes (and `+` as a space when asked); invalid escapes are kept literally.
    static func decode<S: StringProtocol>(_ text: S, plusAsSpace: Bool) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(UInt8(ascii: "%")) || (plusAsSpace && utf8.contains(UInt8(ascii: "+"))) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count, let high = hexValue(utf8[index + 1]),
                let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Encodes every byte except the RFC 3986 unreserved characters (and `/` when `keepSlash`),
    /// with uppercase hex.
    static func encode(_ text: String, keepSlash: Bool) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                bytes.append(byte)
            case UInt8(ascii: "/") where keepSlash:
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0xf)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
