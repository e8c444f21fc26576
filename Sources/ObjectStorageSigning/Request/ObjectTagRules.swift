//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The object tags a vendor accepts, and the form of the `x-*-tagging` header that sets them at write time.
///
/// Shared by the client, which checks tags before it sends anything, and the local server, which refuses what
/// the service refuses. The limits are the vendors' documented ones:
/// - at most 10 tags, each key unique, 1 to 128 characters; values up to 256 characters (OBS: 255);
/// - S3: letters and digits (any script), spaces and `+ - = . _ : / @`;
/// - OSS: ASCII letters and digits, spaces and `+ - = . _ : /`;
/// - OBS: anything but `, / | < > = * \`.
package struct ObjectTagRules: Sendable {
    /// The most tags one object may carry.
    package static let maximumCount = 10
    /// The longest tag key, in characters.
    package static let maximumKeyLength = 128

    /// Whose rules these are.
    package let vendor: StorageVendor

    /// The rules of `vendor`.
    package init(vendor: StorageVendor) { self.vendor = vendor }

    /// The longest tag value, in characters.
    package var maximumValueLength: Int { self.vendor.kind == .obs ? 255 : 256 }

    /// Why a tag set is refused.
    package enum Violation: Error, Equatable, Sendable, CustomStringConvertible {
        case tooMany(count: Int)
        case emptyKey
        case duplicateKey(String)
        case keyTooLong(String)
        case valueTooLong(key: String)
        case invalidKey(String)
        case invalidValue(key: String)

        /// The refusal as a sentence fragment, naming the key but never a value.
        package var description: String {
            switch self {
            case .tooMany(let count): "\(count) tags, but an object can have at most \(ObjectTagRules.maximumCount)"
            case .emptyKey: "a tag key is empty"
            case .duplicateKey(let key): "the tag key '\(key)' is given more than once"
            case .keyTooLong(let key): "the tag key '\(key.prefix(20))…' is longer than 128 characters"
            case .valueTooLong(let key): "the value of the tag '\(key)' is too long"
            case .invalidKey(let key): "the tag key '\(key)' has a character the service does not accept in tags"
            case .invalidValue(let key): "the value of the tag '\(key)' has a character the service does not accept"
            }
        }
    }

    /// The first reason `tags` would be refused, or `nil` when the vendor accepts them.
    ///
    /// - Parameter tags: The tags, in the order they are sent.
    package func violation(in tags: [(key: String, value: String)]) -> Violation? {
        guard tags.count <= Self.maximumCount else { return .tooMany(count: tags.count) }
        var seen = Set<String>()
        for (key, value) in tags {
            guard !key.isEmpty else { return .emptyKey }
            guard seen.insert(key).inserted else { return .duplicateKey(key) }
            guard key.unicodeScalars.count <= Self.maximumKeyLength else { return .keyTooLong(key) }
            guard value.unicodeScalars.count <= self.maximumValueLength else { return .valueTooLong(key: key) }
            guard key.unicodeScalars.allSatisfy(self.accepts) else { return .invalidKey(key) }
            guard value.unicodeScalars.allSatisfy(self.accepts) else { return .invalidValue(key: key) }
        }
        return nil
    }

    /// Whether `scalar` may appear in a tag key or value.
    private func accepts(_ scalar: Unicode.Scalar) -> Bool {
        switch self.vendor.kind {
        case .s3:
            return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar.properties.isWhitespace || "+-=._:/@".unicodeScalars.contains(scalar)
        case .oss:
            return scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || " +-=._:/".unicodeScalars.contains(scalar))
        case .obs:
            return !",/|<>=*\\".unicodeScalars.contains(scalar)
        }
    }

    // MARK: The header

    /// The value of the `x-*-tagging` header for `tags`: `k1=v1&k2=v2`, each key and value percent-encoded.
    package static func headerValue(_ tags: [(key: String, value: String)]) -> String {
        tags.map {
            PercentEncoding.encode($0.key, style: .component) + "="
                + PercentEncoding.encode($0.value, style: .component)
        }.joined(separator: "&")
    }

    /// The tags of an `x-*-tagging` header, decoded as a URL query is (`+` is a space; a key without `=` has an
    /// empty value); `nil` when a pair has more than one `=` or an escape is malformed.
    package static func tags(fromHeader value: String) -> [(key: String, value: String)]? {
        var tags: [(key: String, value: String)] = []
        for pair in value.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count <= 2,
                let key = Self.decodeQueryComponent(parts[0]),
                let value = parts.count == 2 ? Self.decodeQueryComponent(parts[1]) : ""
            else { return nil }
            tags.append((key, value))
        }
        return tags
    }

    private static func decodeQueryComponent(_ text: Substring) -> String? {
        PercentEncoding.decode(String(text.map { $0 == "+" ? " " : $0 }))
    }
}
