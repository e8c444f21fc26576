//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// One page of a bucket listing.
struct ListingPage {
    var contents: [ObjectMetadata] = []
    var commonPrefixes: [String] = []
    var isTruncated = false
    /// The last key or common prefix returned (the next marker).
    var last: String?

    /// Lists `objects` (sorted) after `marker`, grouping keys by `delimiter` after `prefix`.
    init(objects: [ObjectMetadata], prefix: String, delimiter: String, marker: String, maxKeys: Int) {
        var count = 0
        for object in objects {
            let key = object.key
            guard key.hasPrefix(prefix) else { continue }
            if !marker.isEmpty {
                guard key.utf8.lexicographicallyPrecedes(marker.utf8) == false, key != marker else { continue }
                // A marker that is a common prefix skips every key under it.
                if !delimiter.isEmpty, marker.hasSuffix(delimiter), key.hasPrefix(marker) { continue }
            }
            var entry = key
            var isPrefix = false
            if !delimiter.isEmpty, let range = key.dropFirst(prefix.count).firstRange(of: delimiter) {
                entry = String(key[..<range.upperBound])
                isPrefix = true
                if entry == commonPrefixes.last { continue }
            }
            if count == maxKeys {
                isTruncated = true
                break
            }
            if isPrefix { commonPrefixes.append(entry) } else { contents.append(object) }
            last = entry
            count += 1
        }
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
        let objects = try store.sortedObjects(bucket)
        let page = ListingPage(objects: objects, prefix: prefix, delimiter: delimiter, marker: marker, maxKeys: maxKeys)
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
