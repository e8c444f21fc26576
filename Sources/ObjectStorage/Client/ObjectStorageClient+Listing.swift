//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOHTTP1
import ObjectStorageSigning
import ObjectStorageTransport

extension ObjectStorageClient {
    /// Lists objects, fetching pages lazily as the sequence is iterated.
    ///
    /// Keys are requested URL-encoded (`encoding-type=url`) and decoded, so any key survives XML.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// for try await page in client.listObjectsV2(bucket: "b", prefix: "logs/", delimiter: "/") {
    ///     for object in page.contents { print(object.key, object.size) }
    ///     for prefix in page.commonPrefixes { print(prefix) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only keys that start with this.
    ///   - delimiter: Groups keys sharing a prefix up to this character (usually `/`) into
    ///     ``ListObjectsV2Response/commonPrefixes``.
    ///   - maxKeys: The most keys per page (the service caps it at 1000).
    ///   - startAfter: Start after this key.
    ///   - continuationToken: Resume from ``ListObjectsV2Response/nextContinuationToken`` of an earlier listing.
    ///   - fetchOwner: Include each object's owner.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The pages; each iteration step may throw ``ServiceError`` (e.g. `NoSuchBucket`), or
    ///   ``ObjectStorageError/Code/invalidResponse`` for a page that says it is truncated but carries no continuation
    ///   token: a listing never ends early as if complete.
    public func listObjectsV2(
        bucket: String,
        prefix: String? = nil,
        delimiter: String? = nil,
        maxKeys: Int? = nil,
        startAfter: String? = nil,
        continuationToken: String? = nil,
        fetchOwner: Bool = false,
        logger: Logger? = nil
    ) -> PaginatedSequence<ListObjectsV2Response> {
        PaginatedSequence { token in
            var operation = OperationRequest(name: "ListObjectsV2", method: .GET, bucket: bucket)
            operation.query("list-type", "2")
            operation.query("continuation-token", token ?? continuationToken)
            operation.query("delimiter", delimiter)
            operation.query("encoding-type", "url")
            if fetchOwner { operation.query("fetch-owner", "true") }
            operation.query("max-keys", maxKeys.map { String($0) })
            operation.query("prefix", prefix)
            operation.query("start-after", startAfter)
            let (headers, root) = try await self.executeXML(operation, logger: logger)
            let encoded = root["EncodingType"] == "url"
            func text(_ value: String?) -> String? {
                guard let value else { return nil }
                return encoded ? (PercentEncoding.decode(value.replacingPlus()) ?? value) : value
            }
            let page = ListObjectsV2Response(
                contents: root.children("Contents").map { node in
                    ListObjectsV2Response.Object(
                        key: text(node["Key"]) ?? "",
                        size: node["Size"].flatMap { Int64($0) } ?? 0,
                        etag: node["ETag"],
                        lastModified: node["LastModified"].flatMap(HTTPDates.parse),
                        storageClass: node["StorageClass"],
                        ownerID: node.child("Owner")?["ID"]
                    )
                },
                commonPrefixes: root.children("CommonPrefixes").compactMap { text($0["Prefix"]) },
                isTruncated: root["IsTruncated"] == "true",
                nextContinuationToken: root["NextContinuationToken"],
                keyCount: root["KeyCount"].flatMap { Int($0) },
                requestID: headers.requestID
            )
            // A truncated page without a token must not read as the end: a sync with --delete would delete
            // what it never saw (OBS has been seen to answer so).
            if page.isTruncated && (page.nextContinuationToken ?? "").isEmpty {
                throw ObjectStorageError.invalidResponse(
                    "the listing of bucket '\(bucket)' says it is truncated but gives no continuation token, so "
                        + "the rest cannot be fetched; the listing is incomplete"
                )
            }
            return (page, page.isTruncated ? page.nextContinuationToken : nil)
        }
    }
}

extension String {
    /// `+` as a space, as form-style URL encoding writes it (OSS's `encoding-type=url` does).
    func replacingPlus() -> String {
        guard self.contains("+") else { return self }
        return String(self.map { $0 == "+" ? " " : $0 })
    }
}
