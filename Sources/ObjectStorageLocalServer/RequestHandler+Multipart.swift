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
    func uploadID(_ context: Context) throws -> String {
        guard let id = context.request.queryValue("uploadId"), !id.isEmpty else { throw ServerError.noSuchUpload("") }
        return id
    }

    func createMultipartUpload(_ context: Context, bucket: String, key: String) throws -> Reply {
        try WriteCondition.checkEarly(context, bucket: bucket, key: key, store: store, initiating: true)
        let attributes = try attributes(context)
        let id = try store.createUpload(bucket, key: key, attributes: attributes, now: context.now)
        var xml = XMLWriter()
        xml.open("InitiateMultipartUploadResult", namespace: context.dialect.xmlNamespace)
        xml.element("Bucket", bucket)
        xml.element("Key", key)
        xml.element("UploadId", id)
        xml.close("InitiateMultipartUploadResult")
        return .xml(xml, headers: Self.encryptionHeaders(attributes.encryption, dialect: context.dialect))
    }

    func uploadPart(_ context: Context, bucket: String, key: String, body: RequestBody) async throws -> Reply {
        let id = try uploadID(context)
        let text = context.request.queryValue("partNumber") ?? ""
        guard let number = IncomingRequest.count(text), (1...10_000).contains(number) else {
            throw ServerError.invalidArgument(
                "Part number must be an integer between 1 and 10000, inclusive",
                name: "partNumber",
                value: text
            )
        }
        if context.request.header(context.dialect.headerPrefix + "copy-source") != nil {
            return try await uploadPartCopy(context, bucket: bucket, key: key, id: id, number: number)
        }
        _ = try store.upload(bucket, key: key, id: id)
        let received = try await receive(
            body,
            context: context,
            temporaryPath: store.partPath(uploadID: id, number: number)
        )
        let md5 = received.md5
        let part = StoredPart(
            number: number,
            size: received.size,
            md5: md5,
            crc64: received.crc64,
            crc64nvme: received.crc64nvme,
            lastModified: context.now,
            blob: received.blob
        )
        do {
            try store.putPart(bucket, key: key, id: id, part: part)
        } catch {
            for path in part.blob.paths { FileIO.remove(path) }
            throw error
        }
        var headers = [("ETag", context.dialect.formatETag(part.etag))]
        if context.dialect.kind == .oss {
            headers.append(("x-oss-hash-crc64ecma", String(part.crc64)))
            headers.append(("Content-MD5", ByteEncoding.base64(md5)))
        }
        if S3Checksum.isKept(context), context.request.header(S3ChecksumHeader.crc64nvme) != nil {
            headers.append((S3ChecksumHeader.crc64nvme, CRC64.base64(part.crc64nvme)))
        }
        headers += OBSChecksum.headers(received.obsChecksum, context: context)
        return Reply(headers: headers)
    }

    func completeMultipartUpload(
        _ context: Context,
        bucket: String,
        key: String,
        body: RequestBody
    ) async throws
        -> Reply
    {
        let id = try uploadID(context)
        let upload = try store.upload(bucket, key: key, id: id)
        let condition = try WriteCondition.checkEarly(context, bucket: bucket, key: key, store: store)
        let document = try await collect(body, context: context)
        var requested: [RequestedPart] = []
        if context.dialect.kind == .oss && context.request.header("x-oss-complete-all")?.lowercased() == "yes" {
            requested = upload.parts.values.sorted { $0.number < $1.number }.map {
                RequestedPart(number: $0.number, etag: $0.etag)
            }
        } else {
            guard let root = RequestDocument.parse(document), root.name == "CompleteMultipartUpload" else {
                throw ServerError.malformedXML()
            }
            for part in root.children("Part") {
                guard let numberText = part.child("PartNumber")?.text.trimmingWhitespace(),
                    let number = IncomingRequest.count(numberText),
                    let etag = part.child("ETag")?.text
                else { throw ServerError.malformedXML() }
                requested.append(RequestedPart(number: number, etag: etag))
            }
        }
        guard !requested.isEmpty else { throw ServerError.malformedXML("no parts") }
        // OBS's CRC-64 as sent, once it matched the parts (nil when none was sent).
        var obsChecksum: UInt64?
        let (taken, parts, completed) = try store.takeUploadForCompletion(
            bucket,
            key: key,
            id: id,
            requested: requested,
            minimumPartSize: context.dialect.minimumPartSize,
            // A Complete whose checksum does not match its parts fails and leaves the upload as it was.
            check: { (completed) throws(ServerError) in
                try S3Checksum.check(context, computed: completed.crc64nvme)
                obsChecksum = try OBSChecksum.check(context, computed: completed.crc64)
            }
        )
        let blob = store.assemble(parts)
        let metadata = ObjectMetadata(
            key: key,
            size: completed.size,
            etag: completed.etag,
            crc64: completed.crc64,
            crc64nvme: completed.crc64nvme,
            lastModified: context.now,
            lastModifiedMilliseconds: context.nowMilliseconds,
            contentType: taken.attributes.contentType,
            userMetadata: taken.attributes.userMetadata,
            headers: taken.attributes.headers,
            storageClass: taken.attributes.storageClass,
            acl: taken.attributes.acl,
            partsCount: parts.count,
            partSizes: parts.map(\.size),
            dataFiles: nil,
            obsChecksum: obsChecksum,
            tags: taken.attributes.tags,
            encryption: taken.attributes.encryption
        )
        let versionID: String?
        do {
            versionID = try store.commit(bucket, metadata: metadata, blob: blob, condition: condition, conflict: true)
        } catch {
            store.removeUploadFiles(taken)
            throw error
        }
        store.removeUploadFiles(taken)
        var xml = XMLWriter()
        xml.open("CompleteMultipartUploadResult", namespace: context.dialect.xmlNamespace)
        xml.element(
            "Location",
            "\(configuration.scheme)://\(context.request.host)/\(bucket)/\(PercentEncoding.encode(key, style: .path))"
        )
        xml.element("Bucket", bucket)
        xml.element("Key", key)
        xml.element("ETag", context.dialect.formatETag(metadata.etag))
        if S3Checksum.isKept(context) {
            xml.element("ChecksumCRC64NVME", CRC64.base64(completed.crc64nvme))
            xml.element("ChecksumType", "FULL_OBJECT")
        }
        xml.close("CompleteMultipartUploadResult")
        var headers = Self.versionHeaders(versionID, context: context)
        if context.dialect.kind == .oss { headers.append(("x-oss-hash-crc64ecma", String(completed.crc64))) }
        headers += OBSChecksum.headers(metadata.obsChecksum, context: context)
        headers += Self.encryptionHeaders(metadata.encryption, dialect: context.dialect)
        return .xml(xml, headers: headers)
    }

    func abortMultipartUpload(_ context: Context, bucket: String, key: String) throws -> Reply {
        try store.abortUpload(bucket, key: key, id: try uploadID(context))
        return Reply(status: 204)
    }

    func listParts(_ context: Context, bucket: String, key: String) throws -> Reply {
        let id = try uploadID(context)
        let upload = try store.upload(bucket, key: key, id: id)
        let marker = try context.request.queryCount("part-number-marker", default: 0)
        let maxParts = min(1000, try context.request.queryCount("max-parts", default: 1000))
        let remaining = upload.parts.values.filter { $0.number > marker }.sorted { $0.number < $1.number }
        let page = remaining.prefix(maxParts)
        let truncated = remaining.count > page.count
        var xml = XMLWriter()
        xml.open("ListPartsResult", namespace: context.dialect.xmlNamespace)
        xml.element("Bucket", bucket)
        xml.element("Key", key)
        xml.element("UploadId", id)
        xml.element("PartNumberMarker", String(marker))
        xml.element("NextPartNumberMarker", String(page.last?.number ?? marker))
        xml.element("MaxParts", String(maxParts))
        xml.element("IsTruncated", truncated ? "true" : "false")
        xml.element("StorageClass", upload.attributes.storageClass ?? context.dialect.defaultStorageClass)
        for part in page {
            xml.element("Part") {
                $0.element("PartNumber", String(part.number))
                $0.element("LastModified", HTTPDate.iso8601(part.lastModified))
                $0.element("ETag", context.dialect.formatETag(part.etag))
                $0.element("Size", String(part.size))
                if context.dialect.kind == .oss { $0.element("HashCrc64ecma", String(part.crc64)) }
            }
        }
        xml.close("ListPartsResult")
        return .xml(xml)
    }

    func listMultipartUploads(_ context: Context, bucket: String) throws -> Reply {
        let request = context.request
        let prefix = request.queryValue("prefix") ?? ""
        let keyMarker = request.queryValue("key-marker") ?? ""
        let uploadIDMarker = request.queryValue("upload-id-marker") ?? ""
        let maxUploads = min(1000, try request.queryCount("max-uploads", default: 1000))
        let all = try store.uploads(bucket).filter { $0.key.hasPrefix(prefix) }.sorted {
            ($0.key, $0.initiated, $0.id) < ($1.key, $1.initiated, $1.id)
        }
        let remaining = all.filter {
            keyMarker.isEmpty || $0.key > keyMarker
                || ($0.key == keyMarker && !uploadIDMarker.isEmpty && $0.id > uploadIDMarker)
        }
        let page = remaining.prefix(maxUploads)
        var xml = XMLWriter()
        xml.open("ListMultipartUploadsResult", namespace: context.dialect.xmlNamespace)
        xml.element("Bucket", bucket)
        xml.element("KeyMarker", keyMarker)
        xml.element("UploadIdMarker", uploadIDMarker)
        xml.element("NextKeyMarker", page.last?.key ?? "")
        xml.element("NextUploadIdMarker", page.last?.id ?? "")
        xml.element("Prefix", prefix)
        xml.element("MaxUploads", String(maxUploads))
        xml.element("IsTruncated", remaining.count > page.count ? "true" : "false")
        for upload in page {
            xml.element("Upload") {
                $0.element("Key", upload.key)
                $0.element("UploadId", upload.id)
                $0.element("StorageClass", upload.attributes.storageClass ?? context.dialect.defaultStorageClass)
                $0.element("Initiated", HTTPDate.iso8601(upload.initiated))
            }
        }
        xml.close("ListMultipartUploadsResult")
        return .xml(xml)
    }
}
