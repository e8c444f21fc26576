//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
import ObjectStorageSigning

/// Bucket versioning and ListObjectVersions, the same document in the three dialects.
extension RequestHandler {
    func getBucketVersioning(_ context: Context, bucket: String) throws -> Reply {
        let versioning = try store.versioning(bucket)
        var xml = XMLWriter()
        xml.open("VersioningConfiguration", namespace: context.dialect.xmlNamespace)
        if let status = versioning.status { xml.element("Status", status) }
        xml.close("VersioningConfiguration")
        return .xml(xml)
    }

    func putBucketVersioning(_ context: Context, bucket: String, body: RequestBody) async throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let document = try await collect(body, context: context)
        guard let root = RequestDocument.parse(document), root.name == "VersioningConfiguration" else {
            throw ServerError.malformedXML()
        }
        switch root.child("Status")?.text {
        case "Enabled": try store.setVersioning(bucket, .enabled)
        case "Suspended": try store.setVersioning(bucket, .suspended)
        default: throw ServerError.malformedXML("Status is Enabled or Suspended")
        }
        return Reply()
    }

    func listObjectVersions(_ context: Context, bucket: String) throws -> Reply {
        let request = context.request
        let dialect = context.dialect
        let prefix = request.queryValue("prefix") ?? ""
        let delimiter = request.queryValue("delimiter") ?? ""
        let keyMarker = request.queryValue("key-marker") ?? ""
        let versionIDMarker = request.queryValue("version-id-marker") ?? ""
        guard versionIDMarker.isEmpty || !keyMarker.isEmpty else {
            throw ServerError.invalidArgument(
                "A version-id marker cannot be specified without a key marker.",
                name: "version-id-marker",
                value: versionIDMarker
            )
        }
        let maxKeys = min(
            try request.queryCount(
                "max-keys",
                default: 1000,
                message: "Provided max-keys not an integer or within integer range"
            ),
            1000
        )
        let encodingType = request.queryValue("encoding-type")
        let encode = encodingType?.lowercased() == "url"
        func text(_ value: String) -> String { encode ? PercentEncoding.encode(value, style: .path) : value }
        let page = try store.versionsPage(
            bucket,
            prefix: prefix,
            delimiter: delimiter,
            keyMarker: keyMarker,
            versionIDMarker: versionIDMarker,
            maxKeys: maxKeys
        )
        var xml = XMLWriter()
        xml.open("ListVersionsResult", namespace: dialect.xmlNamespace)
        xml.element("Name", bucket)
        xml.element("Prefix", text(prefix))
        xml.element("KeyMarker", text(keyMarker))
        xml.element("VersionIdMarker", versionIDMarker)
        xml.element("MaxKeys", String(maxKeys))
        // OSS writes the delimiter even when empty (oss2 requires the element).
        if !delimiter.isEmpty || dialect.kind == .oss { xml.element("Delimiter", text(delimiter)) }
        if let encodingType { xml.element("EncodingType", encodingType) }
        xml.element("IsTruncated", page.isTruncated ? "true" : "false")
        if page.isTruncated, let nextKeyMarker = page.nextKeyMarker {
            xml.element("NextKeyMarker", text(nextKeyMarker))
            if let nextVersionIDMarker = page.nextVersionIDMarker {
                xml.element("NextVersionIdMarker", nextVersionIDMarker)
            }
        }
        for entry in page.entries {
            let version = entry.version
            xml.element(version.isDeleteMarker ? "DeleteMarker" : "Version") {
                $0.element("Key", text(entry.key))
                $0.element("VersionId", version.versionID)
                $0.element("IsLatest", entry.isLatest ? "true" : "false")
                $0.element("LastModified", HTTPDate.iso8601(version.lastModified))
                if let metadata = version.object?.metadata {
                    $0.element("ETag", dialect.formatETag(metadata.etag))
                    if dialect.kind == .oss { $0.element("Type", metadata.partsCount == nil ? "Normal" : "Multipart") }
                    $0.element("Size", String(metadata.size))
                    $0.element("StorageClass", metadata.storageClass ?? dialect.defaultStorageClass)
                }
                $0.element("Owner") {
                    $0.element("ID", Self.ownerID)
                    $0.element("DisplayName", Self.ownerID)
                }
            }
        }
        for commonPrefix in page.commonPrefixes {
            xml.element("CommonPrefixes") { $0.element("Prefix", text(commonPrefix)) }
        }
        xml.close("ListVersionsResult")
        return .xml(xml)
    }

    /// The `x-*-version-id` header of a version, when the bucket has ever been versioned.
    static func versionHeaders(_ versionID: String?, context: Context) -> [(String, String)] {
        versionID.map { [(context.dialect.headerPrefix + "version-id", $0)] } ?? []
    }
}
