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

/// Bucket versioning and the versions of objects. The other calls take a version id where the services do:
/// `getObject` (``GetObjectRequest/versionID``), `headObject`, `deleteObject`, the copy source, the tag calls,
/// `resumableDownload` and `presign` (its `versionId` query).
extension ObjectStorageClient {
    /// Reads a bucket's versioning state.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The state; `nil` for a bucket that was never versioned.
    /// - Throws: ``ServiceError`` (`NoSuchBucket`), ``ObjectStorageError/Code/invalidResponse`` for a status the
    ///   client does not know.
    public func getBucketVersioning(bucket: String, logger: Logger? = nil) async throws -> BucketVersioning? {
        var operation = OperationRequest(name: "GetBucketVersioning", method: .GET, bucket: bucket)
        operation.query = [QueryParameter(name: "versioning", value: nil)]
        let (_, root) = try await self.executeXML(operation, logger: logger)
        guard let status = root["Status"], !status.isEmpty else { return nil }
        guard let versioning = BucketVersioning(rawValue: status) else {
            throw ObjectStorageError.invalidResponse("GetBucketVersioning answered the status '\(status)'")
        }
        return versioning
    }

    /// Enables or suspends a bucket's versioning.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// try await client.putBucketVersioning(bucket: "backups", .enabled)
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - versioning: The new state.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ServiceError``.
    public func putBucketVersioning(
        bucket: String,
        _ versioning: BucketVersioning,
        logger: Logger? = nil
    ) async throws {
        var xml = XMLWriter()
        xml.open("VersioningConfiguration")
        xml.element("Status", versioning.rawValue)
        xml.close("VersioningConfiguration")
        let body = xml.bytes
        var operation = OperationRequest(name: "PutBucketVersioning", method: .PUT, bucket: bucket)
        operation.query = [QueryParameter(name: "versioning", value: nil)]
        operation.xmlBody(body)
        try await self.executeDraining(operation, logger: logger)
    }

    /// Lists every version and delete marker of the keys, fetching pages lazily as the sequence is iterated.
    ///
    /// Keys are requested URL-encoded and decoded, so any key survives XML. A page that says it is truncated but
    /// gives no marker to go on from throws rather than ending the listing early.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// for try await page in client.listObjectVersions(bucket: "backups", prefix: "db/") {
    ///     for version in page.versions where !version.isLatest { print("older:", version.key, version.versionID) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only keys that start with this.
    ///   - delimiter: Groups keys sharing a prefix up to this character into
    ///     ``ListObjectVersionsResponse/commonPrefixes``.
    ///   - keyMarker: Start after this key (or, with `versionIDMarker`, after that version of it).
    ///   - versionIDMarker: Start after this version of `keyMarker`.
    ///   - maxKeys: The most versions per page (the service caps it at 1000).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The pages; each step may throw ``ServiceError`` or ``ObjectStorageError/Code/invalidResponse``.
    public func listObjectVersions(
        bucket: String,
        prefix: String? = nil,
        delimiter: String? = nil,
        keyMarker: String? = nil,
        versionIDMarker: String? = nil,
        maxKeys: Int? = nil,
        logger: Logger? = nil
    ) -> PaginatedSequence<ListObjectVersionsResponse> {
        PaginatedSequence { token in
            let markers = token.map(Self.versionMarkers) ?? (key: keyMarker, version: versionIDMarker)
            var operation = OperationRequest(name: "ListObjectVersions", method: .GET, bucket: bucket)
            operation.query = [QueryParameter(name: "versions", value: nil)]
            operation.query("delimiter", delimiter)
            operation.query("encoding-type", "url")
            operation.query("key-marker", markers.key)
            operation.query("max-keys", maxKeys.map { String($0) })
            operation.query("prefix", prefix)
            operation.query("version-id-marker", markers.version)
            let (headers, root) = try await self.executeXML(operation, logger: logger)
            let encoded = root["EncodingType"] == "url"
            func text(_ value: String?) -> String? {
                guard let value else { return nil }
                return encoded ? (PercentEncoding.decode(value.replacingPlus()) ?? value) : value
            }
            let versions = root.children.compactMap { node -> ListObjectVersionsResponse.Version? in
                guard node.name == "Version" || node.name == "DeleteMarker" else { return nil }
                return ListObjectVersionsResponse.Version(
                    key: text(node["Key"]) ?? "",
                    versionID: node["VersionId"] ?? "null",
                    isLatest: node["IsLatest"] == "true",
                    isDeleteMarker: node.name == "DeleteMarker",
                    lastModified: node["LastModified"].flatMap(HTTPDates.parse),
                    etag: node["ETag"],
                    size: node["Size"].flatMap { Int64($0) } ?? 0,
                    storageClass: node["StorageClass"]
                )
            }
            let page = ListObjectVersionsResponse(
                versions: versions,
                commonPrefixes: root.children("CommonPrefixes").compactMap { text($0["Prefix"]) },
                isTruncated: root["IsTruncated"] == "true",
                nextKeyMarker: text(root["NextKeyMarker"]),
                nextVersionIDMarker: root["NextVersionIdMarker"],
                requestID: headers.requestID
            )
            guard page.isTruncated else { return (page, nil) }
            guard let next = page.nextKeyMarker, !next.isEmpty else {
                throw ObjectStorageError.invalidResponse(
                    "the version listing of bucket '\(bucket)' says it is truncated but gives no key marker to go on "
                        + "from, so the rest cannot be fetched; the listing is incomplete"
                )
            }
            return (page, next + "\u{0}" + (page.nextVersionIDMarker ?? ""))
        }
    }

    /// The key and version-id markers a version listing's page token holds.
    private static func versionMarkers(_ token: String) -> (key: String?, version: String?) {
        let parts = token.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
        let version = parts.count == 2 && !parts[1].isEmpty ? String(parts[1]) : nil
        return (String(parts[0]), version)
    }
}
