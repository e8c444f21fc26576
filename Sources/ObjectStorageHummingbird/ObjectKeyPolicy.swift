//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// Which keys a client may name, and how a client's key becomes the bucket's.
///
/// A key comes from a URL, so it is untrusted: one that could reach outside the configured prefix, or that a
/// service or a log would read differently from the way it was written, never reaches the bucket.
enum ObjectKeyPolicy {
    /// The longest key S3, OSS and OBS accept, in UTF-8 bytes.
    static let maximumKeyBytes = 1024

    /// The bucket key for a client's key: `prefix + key`, or `nil` when the key is refused (the answer is 400).
    ///
    /// Refused: an empty key, a leading `/`, an empty segment (`a//b`, a trailing `/`), a `.` or `..` segment, a
    /// control character (U+0000–U+001F, U+007F), and a key longer than the services accept.
    ///
    /// - Parameters:
    ///   - key: The client's key, percent-decoded.
    ///   - prefix: The configured prefix, always prepended.
    /// - Returns: The key to ask the bucket for.
    static func bucketKey(for key: String, prefix: String) -> String? {
        guard !key.isEmpty else { return nil }
        guard !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        for segment in key.split(separator: "/", omittingEmptySubsequences: false) {
            guard !segment.isEmpty, segment != ".", segment != ".." else { return nil }
        }
        let bucketKey = prefix + key
        guard bucketKey.utf8.count <= Self.maximumKeyBytes else { return nil }
        return bucketKey
    }

    /// Decodes the percent-escapes of a URL path; `nil` for a malformed escape or bytes that are not UTF-8.
    ///
    /// - Parameter path: The raw path text, e.g. `docs/a%20b.txt`.
    /// - Returns: The decoded text, e.g. `docs/a b.txt`.
    static func percentDecoded(_ path: Substring) -> String? {
        PercentEncoding.decode(path)
    }
}
