//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One page of ListObjectVersions: every version and delete marker of the keys after the markers, keys in UTF-8
/// byte order and each key's versions newest first, keys grouped by the delimiter as a listing groups them.
struct VersionsPage {
    struct Entry {
        var key: String
        var version: StoredVersion
        var isLatest: Bool
    }

    var entries: [Entry] = []
    var commonPrefixes: [String] = []
    var isTruncated = false
    /// Where the next page starts: the last key (or common prefix) and version returned.
    var nextKeyMarker: String?
    var nextVersionIDMarker: String?

    init(
        record: StoredBucket,
        prefix: String,
        delimiter: String,
        keyMarker: String,
        versionIDMarker: String,
        maxKeys: Int
    ) {
        let keys = record.allVersionKeys()
        let prefixBytes = Array(prefix.utf8)
        let delimiterBytes = Array(delimiter.utf8)
        var index = ListingPage.firstIndex(in: keys, from: 0) { !$0.utf8.lexicographicallyPrecedes(prefixBytes) }
        var skipThrough: String?
        if !keyMarker.isEmpty {
            // With a version-id marker, the marker key's versions after that one come first.
            let firstAfter: (String) -> Bool =
                versionIDMarker.isEmpty
                ? { keyMarker.utf8.lexicographicallyPrecedes($0.utf8) }
                : { !$0.utf8.lexicographicallyPrecedes(keyMarker.utf8) }
            index = ListingPage.firstIndex(in: keys, from: index, where: firstAfter)
            if !versionIDMarker.isEmpty { skipThrough = versionIDMarker }
            if !delimiter.isEmpty, keyMarker.utf8.reversed().starts(with: delimiterBytes.reversed()) {
                index = ListingPage.firstIndex(in: keys, from: index) { !$0.utf8.starts(with: keyMarker.utf8) }
            }
        }
        var count = 0
        while index < keys.count {
            let key = keys[index]
            guard key.utf8.starts(with: prefixBytes) else { break }
            if !delimiterBytes.isEmpty,
                let end = ListingPage.endOfFirst(delimiterBytes, in: Array(key.utf8), after: prefixBytes.count)
            {
                let commonPrefix = String(decoding: key.utf8.prefix(end), as: UTF8.self)
                if count == maxKeys {
                    isTruncated = true
                    break
                }
                commonPrefixes.append(commonPrefix)
                (nextKeyMarker, nextVersionIDMarker) = (commonPrefix, nil)
                count += 1
                index = ListingPage.firstIndex(in: keys, from: index) { !$0.utf8.starts(with: commonPrefix.utf8) }
                continue
            }
            var versions = record.versions(of: ObjectKey(key))
            let latest = versions.first?.versionID
            if let marker = skipThrough, key.utf8.elementsEqual(keyMarker.utf8) {
                if let position = versions.firstIndex(where: { $0.versionID == marker }) {
                    versions.removeFirst(position + 1)
                }
                skipThrough = nil
            }
            for version in versions {
                if count == maxKeys {
                    isTruncated = true
                    return
                }
                entries.append(Entry(key: key, version: version, isLatest: version.versionID == latest))
                (nextKeyMarker, nextVersionIDMarker) = (key, version.versionID)
                count += 1
            }
            index += 1
        }
    }
}
