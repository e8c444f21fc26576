//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One HTTP header field, name as written (matching is case-insensitive) and value verbatim.
package struct HTTPHeader: Hashable, Sendable, CustomStringConvertible {
    /// The field name, e.g. `Content-Type`.
    package var name: String
    /// The field value.
    package var value: String

    /// Creates a header field.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `Name: value`.
    package var description: String { "\(self.name): \(self.value)" }
}

/// One query parameter, RAW (not percent-encoded): the signers encode it as each scheme requires.
///
/// A `nil` value is a valueless parameter such as `acl` or `uploads`; an empty string is `name=`
/// where the scheme distinguishes the two (SigV4 and OBS URLs).
package struct QueryParameter: Hashable, Sendable, CustomStringConvertible {
    /// The unencoded name.
    package var name: String
    /// The unencoded value, or `nil` for a valueless parameter.
    package var value: String?

    /// Creates a query parameter.
    ///
    /// - Parameters:
    ///   - name: The unencoded name.
    ///   - value: The unencoded value, or `nil` for a valueless parameter (`acl`).
    package init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// `name=value` or `name`, unencoded.
    package var description: String {
        guard let value = self.value else { return self.name }
        return "\(self.name)=\(value)"
    }
}

extension Array where Element == HTTPHeader {
    /// The value of the first field named `name` (case-insensitive), if any.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The first matching value.
    package func first(named name: String) -> String? {
        for header in self where asciiCaseInsensitiveEquals(header.name, name) {
            return header.value
        }
        return nil
    }
}

/// ASCII case-insensitive comparison of header names without allocating.
@inline(__always)
package func asciiCaseInsensitiveEquals(_ lhs: String, _ rhs: String) -> Bool {
    let lhsUTF8 = lhs.utf8
    let rhsUTF8 = rhs.utf8
    guard lhsUTF8.count == rhsUTF8.count else { return false }
    for (a, b) in zip(lhsUTF8, rhsUTF8) where asciiLowercased(a) != asciiLowercased(b) {
        return false
    }
    return true
}

@inline(__always)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
}

extension String {
    /// ASCII-lowercased (header names are ASCII; non-ASCII bytes are left alone).
    var asciiLowercased: String {
        if !self.utf8.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) { return self }
        return String(decoding: self.utf8.map { ObjectStorageSigning.asciiLowercased($0) }, as: UTF8.self)
    }

    /// Whether the string starts with `prefix` (lowercase), comparing ASCII case-insensitively, without allocating.
    package func hasASCIICaseInsensitivePrefix(_ prefix: String) -> Bool {
        let utf8 = self.utf8
        guard utf8.count >= prefix.utf8.count else { return false }
        for (a, b) in zip(utf8, prefix.utf8) where ObjectStorageSigning.asciiLowercased(a) != b {
            return false
        }
        return true
    }
}
