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
    /// With ``Configuration/usesListObjectsV1`` (the default for OBS, whose own SDK lists only so) each page is a
    /// marker-based ListObjects (V1), otherwise a ListObjectsV2. Keys are requested URL-encoded
    /// (`encoding-type=url`) and decoded, so any key survives XML. A page that says it is truncated but gives no
    /// way to fetch the next one throws: a listing never ends early as if it were complete, which a
    /// `sync --delete` would take for "the rest is gone".
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// for try await page in client.listObjects(bucket: "b", prefix: "logs/", delimiter: "/") {
    ///     for object in page.contents { print(object.key, object.size) }
    ///     for prefix in page.commonPrefixes { print(prefix) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only keys that start with this.
    ///   - delimiter: Groups keys sharing a prefix up to this character (usually `/`) into
    ///     ``ListObjectsResponse/commonPrefixes``.
    ///   - maxKeys: The most keys per page (the service caps it at 1000).
    ///   - startAfter: Start after this key (V1's `marker`, V2's `start-after`).
    ///   - continuationToken: Resume from ``ListObjectsResponse/nextContinuationToken`` of an earlier listing by
    ///     the same client.
    ///   - fetchOwner: Include each object's owner (V1 listings always do).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The pages; each iteration step may throw ``ServiceError`` (e.g. `NoSuchBucket`), or
    ///   ``ObjectStorageError/Code/invalidResponse`` for a page that says it is truncated but gives no continuation
    ///   token (V2) or no marker to go on from (V1).
    public func listObjects(
        bucket: String,
        prefix: String? = nil,
        delimiter: String? = nil,
        maxKeys: Int? = nil,
        startAfter: String? = nil,
        continuationToken: String? = nil,
        fetchOwner: Bool = false,
        logger: Logger? = nil
    ) -> PaginatedSequence<ListObjectsResponse> {
        let v1 = self.configuration.usesListObjectsV1
        return PaginatedSequence { token in
            let resumeFrom = token ?? continuationToken
            var operation = OperationRequest(name: v1 ? "ListObjects" : "ListObjectsV2", method: .GET, bucket: bucket)
            if v1 {
                operation.query("marker", resumeFrom ?? startAfter)
            } else {
                operation.query("list-type", "2")
                operation.query("continuation-token", resumeFrom)
                if fetchOwner { operation.query("fetch-owner", "true") }
                operation.query("start-after", startAfter)
            }
            operation.query("delimiter", delimiter)
            operation.query("encoding-type", "url")
            operation.query("max-keys", maxKeys.map { String($0) })
            operation.query("prefix", prefix)
            let (headers, root) = try await self.executeXML(operation, logger: logger)
            let encoded = root["EncodingType"] == "url"
            func text(_ value: String?) -> String? {
                guard let value else { return nil }
                return encoded ? (PercentEncoding.decode(value.replacingPlus()) ?? value) : value
            }
            var page = ListObjectsResponse(
                contents: root.children("Contents").map { node in
                    ListObjectsResponse.Object(
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
                nextContinuationToken: v1 ? text(root["NextMarker"]) : root["NextContinuationToken"],
                keyCount: root["KeyCount"].flatMap { Int($0) },
                requestID: headers.requestID
            )
            if v1, page.isTruncated, (page.nextContinuationToken ?? "").isEmpty {
                // S3 sends NextMarker only with a delimiter: the next page starts after the last key or prefix.
                page.nextContinuationToken = Self.lastListed(page)
            }
            if page.isTruncated && (page.nextContinuationToken ?? "").isEmpty {
                throw ObjectStorageError.invalidResponse(
                    "the listing of bucket '\(bucket)' says it is truncated but gives no "
                        + (v1 ? "marker" : "continuation token") + " to go on from, so the rest cannot be fetched; "
                        + "the listing is incomplete"
                )
            }
            return (page, page.isTruncated ? page.nextContinuationToken : nil)
        }
    }

    /// The greatest key or common prefix of `page`, by UTF-8 bytes: where a V1 listing goes on.
    private static func lastListed(_ page: ListObjectsResponse) -> String? {
        [page.contents.last?.key, page.commonPrefixes.last].compactMap { $0 }.max {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
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
