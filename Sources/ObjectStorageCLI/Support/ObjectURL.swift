//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageSigning

/// A remote location given on the command line: `oss://BUCKET/KEY`, `obs://BUCKET/KEY` or `s3://BUCKET/KEY`.
///
/// The key is everything after `BUCKET/`, verbatim: nothing is percent-decoded, and `?`, `#`, `%`,
/// `//` and leading or trailing slashes all belong to the key.
struct ObjectURL: Hashable, Sendable {
    var vendor: StorageVendor
    var bucket: String
    /// `nil` for a bucket URL (`oss://bucket` or `oss://bucket/`).
    var key: String?

    init(vendor: StorageVendor, bucket: String, key: String?) {
        self.vendor = vendor
        self.bucket = bucket
        self.key = key
    }

    /// Parses a remote URL, or returns `nil` if `text` does not start with a known scheme.
    init?(parsing text: String) throws(CLIError) {
        let schemes: [(prefix: String, vendor: StorageVendor)] = [
            ("oss://", .oss), ("obs://", .obs), ("s3://", .s3),
        ]
        guard let match = schemes.first(where: { text.lowercased().hasPrefix($0.prefix) }) else {
            if let scheme = Self.otherScheme(text) {
                throw CLIError.usage(
                    "'\(text)': \(scheme):// URLs are not supported; give a local path, "
                        + "oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY"
                )
            }
            return nil
        }
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
        self.init(vendor: match.vendor, bucket: String(bucket), key: key.map(String.init))
        do {
            try ObjectNameRules.validateBucketReference(self.bucket)
            if let key = self.key { try ObjectNameRules.validateObjectKey(key, for: vendor) }
        } catch {
            throw CLIError.invalidInput(CLIError.sentence(error.message))
        }
    }

    /// The scheme of a `scheme://...` text that is not one of ours (`file`, `http`, `ftp`...), so that
    /// it is refused instead of being taken for a local path.
    private static func otherScheme(_ text: String) -> String? {
        guard let range = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<range.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return scheme.lowercased()
    }
}
