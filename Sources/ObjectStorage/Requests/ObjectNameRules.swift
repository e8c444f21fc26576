//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import ObjectStorageSigning

/// The bucket-name and object-key rules the client checks before sending anything.
///
/// Two levels apply to bucket names:
/// - ``validateBucketName(_:for:)``: the vendor's naming rules, checked by
///   ``ObjectStorageClient/createBucket(bucket:acl:storageClass:locationConstraint:logger:)`` (a new bucket must
///   follow them).
/// - ``validateBucketReference(_:)``: what every other operation checks — only what could make the
///   request address something else (a `/`, `..`, a control character), so that buckets created
///   under older, laxer rules (S3's legacy `us-east-1` names) stay reachable.
///
/// Keys: 1 to ``maximumKeyLength(for:)`` UTF-8 bytes, no NUL and no U+FFFD (the replacement character
/// a decoder puts where it met invalid UTF-8: such a key would silently address another object); OSS
/// keys must not start with `/` or `\`.
///
/// ```swift
/// try ObjectNameRules.validateBucketName("my-logs", for: .oss)            // fine
/// try ObjectNameRules.validateBucketName("My_Logs", for: .s3)             // throws invalidArgument
/// try ObjectNameRules.validateObjectKey("photos/2024/a.jpg", for: .obs)  // fine
/// ```
package enum ObjectNameRules {
    /// The longest object key, in UTF-8 bytes: 1,023 for OSS, 1,024 for OBS and S3.
    ///
    /// - Parameter vendor: The vendor.
    /// - Returns: The limit in bytes.
    package static func maximumKeyLength(for vendor: StorageVendor) -> Int {
        vendor == .oss ? 1023 : 1024
    }

    /// Checks a name for a new bucket against the vendor's rules.
    ///
    /// - OSS: 3–63 characters; lowercase letters, digits and `-`; starts and ends with a letter or digit.
    /// - OBS: 3–63 characters; lowercase letters, digits, `-` and `.`; starts and ends with a letter or
    ///   digit; no `..`, `.-` or `-.`; not an IPv4 address.
    /// - S3: 3–63 characters; lowercase letters, digits, `-` and `.`; starts and ends with a letter or
    ///   digit; no `..`; not an IPv4 address; not starting with `xn--` or `sthree-`, not ending with
    ///   `-s3alias` or `--ol-s3`.
    ///
    /// - Parameters:
    ///   - name: The bucket name.
    ///   - vendor: The vendor whose rules apply.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` naming the broken rule.
    package static func validateBucketName(_ name: String, for vendor: StorageVendor) throws(ObjectStorageError) {
        func refuse(_ reason: String) -> ObjectStorageError {
            .invalidArgument("invalid \(vendor) bucket name \(display(name)): \(reason)")
        }
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { throw refuse("it must have 3 to 63 characters") }
        let allowsDots = vendor != .oss
        for byte in bytes {
            let isLowerAlphanumeric =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard isLowerAlphanumeric || byte == UInt8(ascii: "-") || (allowsDots && byte == UInt8(ascii: ".")) else {
                throw refuse(
                    allowsDots
                        ? "only lowercase letters, digits, '-' and '.' are allowed"
                        : "only lowercase letters, digits and '-' are allowed"
                )
            }
        }
        let edges = [bytes[0], bytes[bytes.count - 1]]
        guard !edges.contains(UInt8(ascii: "-")), !edges.contains(UInt8(ascii: ".")) else {
            throw refuse("it must start and end with a letter or a digit")
        }
        guard allowsDots else { return }
        guard !name.contains("..") else { throw refuse("it must not contain '..'") }
        if vendor == .obs, name.contains(".-") || name.contains("-.") {
            throw refuse("a '.' must not be next to a '-'")
        }
        if isIPv4Address(name) { throw refuse("it must not be an IP address") }
        if vendor == .s3 {
            for prefix in ["xn--", "sthree-"] where name.hasPrefix(prefix) {
                throw refuse("the prefix '\(prefix)' is reserved")
            }
            for suffix in ["-s3alias", "--ol-s3"] where name.hasSuffix(suffix) {
                throw refuse("the suffix '\(suffix)' is reserved")
            }
        }
    }

    /// Checks the name of an existing bucket an operation addresses: not empty, at most 255 bytes,
    /// not `.` or `..`, and no `/`, `\`, whitespace or control character (any of which would change
    /// the URL the request goes to).
    ///
    /// - Parameter name: The bucket name.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` naming the broken rule.
    package static func validateBucketReference(_ name: String) throws(ObjectStorageError) {
        func refuse(_ reason: String) -> ObjectStorageError {
            .invalidArgument("invalid bucket name \(display(name)): \(reason)")
        }
        guard !name.isEmpty else { throw refuse("it is empty") }
        guard name.utf8.count <= 255 else { throw refuse("it is longer than 255 bytes") }
        guard name != ".", name != ".." else { throw refuse("'.' and '..' are not bucket names") }
        for scalar in name.unicodeScalars {
            let isControl = scalar.value < 0x20 || scalar.value == 0x7F
            guard !isControl, scalar != "/", scalar != "\\", scalar != " ", scalar != "?", scalar != "#" else {
                throw refuse("it contains a '/', '\\', '?', '#', space or control character")
            }
        }
    }

    /// Checks an object key.
    ///
    /// - Parameters:
    ///   - key: The object key.
    ///   - vendor: The vendor whose length limit applies.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for an empty key, one longer than
    ///   ``maximumKeyLength(for:)`` bytes, one containing NUL or U+FFFD, or (OSS) one starting with `/` or `\`.
    package static func validateObjectKey(_ key: String, for vendor: StorageVendor) throws(ObjectStorageError) {
        func refuse(_ reason: String) -> ObjectStorageError {
            .invalidArgument("invalid object key \(display(key)): \(reason)")
        }
        guard !key.isEmpty else { throw refuse("it is empty") }
        let limit = maximumKeyLength(for: vendor)
        let length = key.utf8.count
        guard length <= limit else { throw refuse("it has \(length) UTF-8 bytes; \(vendor) allows \(limit)") }
        guard !key.utf8.contains(0) else { throw refuse("it contains a NUL character") }
        guard !key.unicodeScalars.contains("\u{FFFD}") else {
            throw refuse("it contains U+FFFD, the mark of text decoded from invalid UTF-8")
        }
        if vendor == .oss, key.hasPrefix("/") || key.hasPrefix("\\") {
            throw refuse("OSS keys must not start with '/' or '\\'")
        }
    }

    /// A name as shown in messages: quoted, at most 64 characters, escaped by ``escapingControls(_:)``.
    static func display(_ name: String) -> String {
        let scalars = name.unicodeScalars
        var shown = String.UnicodeScalarView()
        shown.append(contentsOf: scalars.prefix(64))
        return "'\(escapingControls(String(shown)))\(scalars.count > 64 ? "…" : "")'"
    }

    /// `text` with each C0 and C1 control character, DEL and bidirectional formatting character written as its
    /// Swift escape (`\n`, `\u{1B}`, `\u{202E}`), every other character as it is: a name from a bucket or a
    /// directory, printed to a terminal or a log this way, can neither break the line nor reorder or restyle it.
    package static func escapingControls(_ text: String) -> String {
        func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                result += scalar.escaped(asASCII: true)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `name` is four dot-separated decimal numbers of 0...255.
    private static func isIPv4Address(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                    && (Int(part) ?? 256) <= 255
            }
    }
}
