//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// A remote location given on the command line: `oss://BUCKET/KEY`, `obs://BUCKET/KEY` or `s3://BUCKET/KEY`.
///
/// The key is everything after `BUCKET/`, verbatim: nothing is percent-decoded, and `?`, `#`, `%`,
/// `//` and leading or trailing slashes all belong to the key.
struct ObjectURL: Hashable, Sendable {
    var provider: StorageProvider
    var bucket: String
    /// `nil` for a bucket URL (`oss://bucket` or `oss://bucket/`).
    var key: String?

    init(provider: StorageProvider, bucket: String, key: String?) {
        self.provider = provider
        self.bucket = bucket
        self.key = key
    }

    /// Parses a remote URL, or returns `nil` if `text` does not start with a known scheme.
    init?(parsing text: String) throws(CLIError) {
        let schemes: [(prefix: String, provider: StorageProvider)] = [
            ("oss://", .oss), ("obs://", .obs), ("s3://", .s3),
        ]
        guard let match = schemes.first(where: { text.lowercased().hasPrefix($0.prefix) }) else { return nil }
        let rest = text.dropFirst(match.prefix.count)
        let bucket: Substring
        let key: Substring?
        if let slash = rest.firstIndex(of: "/") {
            bucket = rest[..<slash]
            let afterSlash = rest[rest.index(after: slash)...]
            key = afterSlash.isEmpty ? nil : afterSlash
        } else {
            bucket = rest
            key = nil
        }
        guard !bucket.isEmpty else {
            throw CLIError.invalidInput("'\(text)' names no bucket; expected \(match.prefix)BUCKET/KEY")
        }
        self.init(provider: match.provider, bucket: String(bucket), key: key.map(String.init))
    }
}
