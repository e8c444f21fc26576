//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
import ObjectStorageSigning

extension RequestHandler {
    static let ownerID = "local-owner"

    func listBuckets(_ context: Context) -> Reply {
        var xml = XMLWriter()
        xml.open("ListAllMyBucketsResult", namespace: context.dialect.xmlNamespace)
        xml.element("Owner") {
            $0.element("ID", Self.ownerID)
            $0.element("DisplayName", Self.ownerID)
        }
        xml.open("Buckets")
        for bucket in store.listBuckets() {
            xml.element("Bucket") {
                $0.element("Name", bucket.name)
                $0.element("CreationDate", HTTPDate.iso8601(bucket.created))
                if context.dialect.kind == .oss {
                    $0.element("Location", "oss-\(configuration.region(for: .oss))")
                    $0.element("Region", configuration.region(for: context.dialect))
                    $0.element("StorageClass", "Standard")
                }
            }
        }
        xml.close("Buckets")
        xml.close("ListAllMyBucketsResult")
        return .xml(xml)
    }

    static func isValidBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        let allowed = bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard allowed, let first = bytes.first, let last = bytes.last else { return false }
        return first != UInt8(ascii: "-") && first != UInt8(ascii: ".") && last != UInt8(ascii: "-")
            && last != UInt8(ascii: ".")
    }

    func createBucket(_ context: Context, bucket: String, body: RequestBody) async throws -> Reply {
        guard Self.isValidBucketName(bucket) else { throw ServerError.invalidBucketName(bucket) }
        let document = try await collect(body, context: context)
        if !document.isEmpty, RequestDocument.parse(document) == nil { throw ServerError.malformedXML() }
        let acl = try Self.cannedACL(in: context, object: false)
        try store.createBucket(bucket, now: context.now, dialect: context.dialect)
        if let acl {
            try store.setDocument(
                bucket,
                Self.aclSubresource,
                BucketDocument(dialect: context.dialect, bytes: Array(acl.utf8))
            )
        }
        var headers: [(String, String)] = []
        if context.dialect.kind != .oss { headers.append(("Location", "/\(bucket)")) }
        return Reply(headers: headers)
    }

    func deleteBucket(_ context: Context, bucket: String) throws -> Reply {
        try store.deleteBucket(bucket)
        return Reply(status: 204)
    }

    func headBucket(_ context: Context, bucket: String) throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        return Reply(headers: [
            (context.dialect.headerPrefix + "bucket-region", configuration.region(for: context.dialect))
        ])
    }

    func getBucketLocation(_ context: Context, bucket: String) throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        var xml = XMLWriter()
        switch context.dialect.kind {
        case .oss:
            xml.element("LocationConstraint", "oss-\(configuration.region(for: .oss))")
        case .obs:
            xml.open("CreateBucketConfiguration", namespace: context.dialect.xmlNamespace)
            xml.element("Location", configuration.region(for: .obs))
            xml.close("CreateBucketConfiguration")
        case .s3:
            // us-east-1 is reported as an empty constraint, as S3 does.
            let region = configuration.region(for: .s3)
            let constraint = region == "us-east-1" ? "" : XMLWriter.escape(region)
            let namespace = context.dialect.xmlNamespace ?? ""
            return .xml(.raw("<LocationConstraint xmlns=\"\(namespace)\">\(constraint)</LocationConstraint>"))
        }
        return .xml(xml)
    }

    func deleteObjects(_ context: Context, bucket: String, body: RequestBody) async throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let document = try await collect(body, context: context)
        guard let root = RequestDocument.parse(document), root.name == "Delete" else {
            throw ServerError.malformedXML()
        }
        let quiet = root.child("Quiet")?.text.lowercased() == "true"
        let objects = root.children("Object").compactMap { object in
            object.child("Key").map { (key: $0.text, versionID: object.child("VersionId")?.text) }
        }
        guard !objects.isEmpty, objects.count <= 1000 else { throw ServerError.malformedXML("1 to 1000 keys") }
        let encode = context.request.queryValue("encoding-type") == "url"
        var xml = XMLWriter()
        xml.open("DeleteResult", namespace: context.dialect.xmlNamespace)
        for (key, versionID) in objects {
            let outcome = try store.deleteObject(
                bucket,
                key,
                versionID: versionID,
                now: (context.now, context.nowMilliseconds)
            )
            if !quiet {
                xml.element("Deleted") {
                    $0.element("Key", encode ? PercentEncoding.encode(key, style: .path) : key)
                    if let versionID { $0.element("VersionId", versionID) }
                    if outcome.isDeleteMarker {
                        $0.element("DeleteMarker", "true")
                        if versionID == nil { $0.element("DeleteMarkerVersionId", outcome.versionID) }
                    }
                }
            }
        }
        if encode { xml.element("EncodingType", "url") }
        xml.close("DeleteResult")
        return .xml(xml)
    }
}

extension XMLWriter {
    /// A document with a ready-made root element.
    static func raw(_ root: String) -> XMLWriter {
        var writer = XMLWriter()
        writer.append(raw: root)
        return writer
    }
}
