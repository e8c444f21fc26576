//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// One page of a bucket listing.
///
/// Keys compare as UTF-8 bytes, as the services compare them. A page costs O(page + log n): it starts with a
/// binary search in the sorted keys and jumps over each common prefix with another.
struct ListingPage {
    var contents: [ObjectMetadata] = []
    var commonPrefixes: [String] = []
    var isTruncated = false
    /// The last key or common prefix returned (the next marker).
    var last: String?

    /// Lists `keys` (sorted by UTF-8 bytes) after `marker`, grouping keys by `delimiter` after `prefix`;
    /// `metadata` describes a listed key.
    init(
        keys: [String],
        prefix: String,
        delimiter: String,
        marker: String,
        maxKeys: Int,
        metadata: (String) -> ObjectMetadata?
    ) {
        let prefixBytes = Array(prefix.utf8)
        let delimiterBytes = Array(delimiter.utf8)
        var index = Self.firstIndex(in: keys, from: 0) { !$0.utf8.lexicographicallyPrecedes(prefixBytes) }
        if !marker.isEmpty {
            index = Self.firstIndex(in: keys, from: index) { marker.utf8.lexicographicallyPrecedes($0.utf8) }
            // A marker that is a common prefix skips every key under it.
            if !delimiter.isEmpty, marker.utf8.reversed().starts(with: delimiterBytes.reversed()) {
                index = Self.firstIndex(in: keys, from: index) { !$0.utf8.starts(with: marker.utf8) }
            }
        }
        var count = 0
        while index < keys.count {
            let key = keys[index]
            guard key.utf8.starts(with: prefixBytes) else { break }
            var entry = key
            var isPrefix = false
            if !delimiterBytes.isEmpty,
                let end = Self.endOfFirst(delimiterBytes, in: Array(key.utf8), after: prefixBytes.count)
            {
                entry = String(decoding: key.utf8.prefix(end), as: UTF8.self)
                isPrefix = true
            }
            if count == maxKeys {
                isTruncated = true
                break
            }
            if isPrefix {
                commonPrefixes.append(entry)
                index = Self.firstIndex(in: keys, from: index) { !$0.utf8.starts(with: entry.utf8) }
            } else {
                if let object = metadata(key) { contents.append(object) }
                index += 1
            }
            last = entry
            count += 1
        }
    }

    /// The first index at or after `start` whose key satisfies `isPast`, which must be false and then true
    /// along the sorted keys.
    static func firstIndex(in keys: [String], from start: Int, where isPast: (String) -> Bool) -> Int {
        var low = start
        var high = keys.count
        while low < high {
            let middle = low + (high - low) / 2
            if isPast(keys[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The byte count up to and including the first `delimiter` found at or after `offset` in `key`.
    static func endOfFirst(_ delimiter: [UInt8], in key: [UInt8], after offset: Int) -> Int? {
        guard key.count >= delimiter.count else { return nil }
        var position = offset
        while position + delimiter.count <= key.count {
            if key[position..<position + delimiter.count].elementsEqual(delimiter) { return position + delimiter.count }
            position += 1
        }
        return nil
    }
}

extension RequestHandler {
    func listObjects(_ context: Context, bucket: String) throws -> Reply {
        let request = context.request
        let dialect = context.dialect
        let v2 = request.queryValue("list-type") == "2"
        let prefix = request.queryValue("prefix") ?? ""
        let delimiter = request.queryValue("delimiter") ?? ""
        let requestedMaxKeys = try request.queryCount(
            "max-keys",
            default: 1000,
            message: "Provided max-keys not an integer or within integer range"
        )
        let maxKeys = min(requestedMaxKeys, 1000)
        let encodingType = request.queryValue("encoding-type")
        let encode = encodingType?.lowercased() == "url"
        func text(_ value: String) -> String { encode ? PercentEncoding.encode(value, style: .path) : value }
        var marker = request.queryValue("marker") ?? ""
        let continuationToken = request.queryValue("continuation-token")
        let startAfter = request.queryValue("start-after") ?? ""
        if v2 {
            if let continuationToken {
                guard let decoded = ByteEncoding.bytes(fromBase64: continuationToken) else {
                    throw ServerError.invalidArgument(
                        "The continuation token provided is incorrect",
                        name: "continuation-token",
                        value: continuationToken
                    )
                }
                marker = String(decoding: decoded, as: UTF8.self)
            } else {
                marker = startAfter
            }
        }
        let page = try store.listingPage(
            bucket,
            prefix: prefix,
            delimiter: delimiter,
            marker: marker,
            maxKeys: maxKeys
        )
        var xml = XMLWriter()
        xml.open("ListBucketResult", namespace: dialect.xmlNamespace)
        xml.element("Name", bucket)
        xml.element("Prefix", text(prefix))
        if v2 {
            if let continuationToken { xml.element("ContinuationToken", continuationToken) }
            if !startAfter.isEmpty { xml.element("StartAfter", text(startAfter)) }
            xml.element("MaxKeys", String(maxKeys))
            xml.element("KeyCount", String(page.contents.count + page.commonPrefixes.count))
        } else {
            xml.element("Marker", text(marker))
            xml.element("MaxKeys", String(maxKeys))
        }
        if !delimiter.isEmpty { xml.element("Delimiter", text(delimiter)) }
        if let encodingType { xml.element("EncodingType", encodingType) }
        xml.element("IsTruncated", page.isTruncated ? "true" : "false")
        if page.isTruncated, let last = page.last {
            if v2 {
                xml.element("NextContinuationToken", ByteEncoding.base64(Array(last.utf8)))
            } else if dialect.kind != .s3 || !delimiter.isEmpty {
                xml.element("NextMarker", text(last))
            }
        }
        let fetchOwner = !v2 || request.queryValue("fetch-owner") == "true"
        for object in page.contents {
            xml.element("Contents") {
                $0.element("Key", text(object.key))
                $0.element("LastModified", HTTPDate.iso8601(object.lastModified))
                $0.element("ETag", dialect.formatETag(object.etag))
                if dialect.kind == .oss { $0.element("Type", object.partsCount == nil ? "Normal" : "Multipart") }
                $0.element("Size", String(object.size))
                $0.element("StorageClass", object.storageClass ?? dialect.defaultStorageClass)
                if fetchOwner {
                    $0.element("Owner") {
                        $0.element("ID", Self.ownerID)
                        $0.element("DisplayName", Self.ownerID)
                    }
                }
            }
        }
        for commonPrefix in page.commonPrefixes {
            xml.element("CommonPrefixes") { $0.element("Prefix", text(commonPrefix)) }
        }
        xml.close("ListBucketResult")
        return .xml(xml)
    }
}
