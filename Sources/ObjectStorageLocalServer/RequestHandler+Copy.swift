//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
import NIOCore
import ObjectStorageSigning

/// Server-side copies: CopyObject (a whole object, up to the service's limit) and UploadPartCopy (a byte range of
/// an object as one part of a multipart upload, for objects of any size).
extension RequestHandler {
    /// The `/bucket/key[?versionId=ID]` named by the dialect's own copy-source header (the only one its signature
    /// covers).
    func copySource(_ context: Context) throws -> (bucket: String, key: String, versionID: String?) {
        guard let raw = context.request.header(context.dialect.headerPrefix + "copy-source") else {
            throw ServerError.invalidArgument(
                "Copy Source must mention the source bucket and key: sourcebucket/sourcekey"
            )
        }
        var source = raw
        var versionID: String?
        if let mark = source.firstIndex(of: "?") {
            let query = source[source.index(after: mark)...]
            guard query.hasPrefix("versionId="), !query.dropFirst("versionId=".count).isEmpty else {
                throw ServerError.invalidArgument("Invalid version id specified", name: "copy-source", value: raw)
            }
            versionID = IncomingRequest.decode(query.dropFirst("versionId=".count))
            source = String(source[..<mark])
        }
        source = IncomingRequest.decode(source)
        if source.hasPrefix("/") { source.removeFirst() }
        guard let slash = source.firstIndex(of: "/"), slash != source.startIndex,
            source.index(after: slash) != source.endIndex
        else {
            throw ServerError.invalidArgument(
                "Copy Source must mention the source bucket and key: sourcebucket/sourcekey"
            )
        }
        let key = String(source[source.index(after: slash)...])
        guard key.utf8.count <= context.dialect.maximumKeyLength else {
            throw ServerError.keyTooLong(size: key.utf8.count, dialect: context.dialect)
        }
        return (String(source[..<slash]), key, versionID)
    }

    func copyObject(_ context: Context, bucket: String, key: String) throws -> Reply {
        let source = try copySource(context)
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let condition = try WriteCondition(context.request, dialect: context.dialect)
        let (sourceMetadata, sourceBlob) = try store.blob(source.bucket, source.key, versionID: source.versionID)
        try checkReadable(sourceMetadata, context: context)
        try CopySourceConditions(context.request, dialect: context.dialect).check(
            sourceMetadata,
            dialect: context.dialect
        )
        let limit = configuration.maximumCopyObjectSourceSize ?? context.dialect.maximumCopyObjectSourceSize
        guard sourceMetadata.size <= limit else {
            throw ServerError.copySourceTooLarge(maximum: limit, dialect: context.dialect)
        }
        let directive =
            context.request.header(context.dialect.headerPrefix + "metadata-directive")?.uppercased() ?? "COPY"
        guard directive == "COPY" || directive == "REPLACE" else {
            throw ServerError.invalidArgument(
                "Unknown metadata directive.",
                name: "metadata-directive",
                value: directive
            )
        }
        // Copying a version onto its own key is how a version is restored: only the current one needs a change.
        if source.bucket == bucket && source.key.utf8.elementsEqual(key.utf8) && directive == "COPY"
            && source.versionID == nil
            && context.request.header(context.dialect.headerPrefix + "storage-class") == nil
            && context.request.header(context.dialect.headerPrefix + "tagging-directive")?.uppercased() != "REPLACE"
            && context.dialect.kind == .s3
        {
            throw ServerError.invalidRequest(
                "This copy request is illegal because it is trying to copy an object to itself without changing the "
                    + "object's metadata, storage class, website redirect location or encryption attributes."
            )
        }
        var metadata = sourceMetadata
        metadata.key = key
        metadata.lastModified = context.now
        metadata.lastModifiedMilliseconds = context.nowMilliseconds
        metadata.dataFiles = nil
        // A copy of an appendable object is a normal one (OBS documents it; appends to it are refused).
        if metadata.objectType == .appendable { metadata.objectType = nil }
        if directive == "REPLACE" {
            let attributes = try attributes(context)
            metadata.contentType = attributes.contentType
            metadata.userMetadata = attributes.userMetadata
            metadata.headers = attributes.headers
            metadata.acl = attributes.acl
        }
        // A copy is encrypted as its request or the destination bucket says, not as its source was.
        metadata.encryption = self.encryption(
            of: Self.attributes(
                context.request.headers.map { (name: $0.lowercasedName, value: $0.value) },
                dialect: context.dialect
            ),
            bucket: bucket
        )
        metadata.tags = try copiedTags(context, source: sourceMetadata)
        if let storageClass = context.request.header(context.dialect.headerPrefix + "storage-class") {
            metadata.storageClass = storageClass
        }
        let blob: Blob
        do {
            blob = try store.duplicate(sourceBlob)
        } catch {
            throw ServerError.internalError("cannot copy the object data")
        }
        let versionID = try store.commit(bucket, metadata: metadata, blob: blob, condition: condition)
        var xml = XMLWriter()
        xml.open("CopyObjectResult", namespace: context.dialect.xmlNamespace)
        xml.element("LastModified", HTTPDate.iso8601(metadata.lastModified))
        xml.element("ETag", context.dialect.formatETag(metadata.etag))
        xml.close("CopyObjectResult")
        var headers = Self.versionHeaders(versionID, context: context)
        if let sourceVersion = sourceMetadata.versionID {
            headers.append((context.dialect.headerPrefix + "copy-source-version-id", sourceVersion))
        }
        if context.dialect.kind == .oss { headers.append(("x-oss-hash-crc64ecma", String(metadata.crc64))) }
        headers += Self.encryptionHeaders(metadata.encryption, dialect: context.dialect)
        return .xml(xml, headers: headers)
    }

    /// The tags of a copy: the source's (`x-*-tagging-directive: COPY`, the default) or the request's `x-*-tagging`
    /// (`REPLACE`; none when the header is absent).
    private func copiedTags(_ context: Context, source: ObjectMetadata) throws -> [StoredTag]? {
        let name = context.dialect.headerPrefix + "tagging-directive"
        switch context.request.header(name)?.uppercased() ?? "COPY" {
        case "COPY": return source.tags
        case "REPLACE": return try TagInput.fromHeader(context.request, dialect: context.dialect)
        case let directive:
            throw ServerError.invalidArgument("Unknown tagging directive.", name: name, value: directive)
        }
    }

    /// UploadPartCopy: stores bytes of an existing object, the whole of it or the `x-*-copy-source-range`, as part
    /// `number` of upload `id`, after checking the copy-source conditions; answers `CopyPartResult`.
    func uploadPartCopy(_ context: Context, bucket: String, key: String, id: String, number: Int) async throws -> Reply
    {
        let dialect = context.dialect
        let source = try copySource(context)
        _ = try store.upload(bucket, key: key, id: id)
        let (sourceMetadata, reader) = try store.openObject(source.bucket, source.key, versionID: source.versionID)
        try CopySourceConditions(context.request, dialect: dialect).check(sourceMetadata, dialect: dialect)
        let range = try CopySourceRange.bytes(
            context.request.header(dialect.headerPrefix + "copy-source-range"),
            sourceSize: sourceMetadata.size,
            dialect: dialect
        )
        let length = range.upperBound - range.lowerBound
        guard length <= dialect.maximumSinglePutSize else {
            throw ServerError.copySourceTooLarge(maximum: dialect.maximumSinglePutSize, dialect: dialect)
        }
        let writer = try BlobWriter(
            temporaryPath: store.partPath(uploadID: id, number: number),
            computeSHA256: false,
            expectedSize: length
        )
        let (blob, md5): (Blob, [UInt8])
        do {
            let allocator = ByteBufferAllocator()
            var offset = range.lowerBound
            while offset < range.upperBound {
                let (at, count) = (offset, Int(min(1 << 20, range.upperBound - offset)))
                let buffer = try await FileIO.startBlocking {
                    try reader.read(offset: at, count: count, allocator: allocator)
                }.value
                guard buffer.readableBytes > 0 else { throw ServerError.internalError("cannot read the source data") }
                try await writer.write(buffer)
                offset += Int64(buffer.readableBytes)
            }
            md5 = writer.md5Digest
            blob = try await writer.finish()
        } catch {
            await writer.abandon()
            throw error
        }
        let part = StoredPart(
            number: number,
            size: length,
            md5: md5,
            crc64: writer.crc.value,
            crc64nvme: writer.crcNVME.value,
            lastModified: context.now,
            blob: blob
        )
        do {
            try store.putPart(bucket, key: key, id: id, part: part)
        } catch {
            for path in part.blob.paths { FileIO.remove(path) }
            throw error
        }
        var xml = XMLWriter()
        xml.open("CopyPartResult", namespace: dialect.xmlNamespace)
        xml.element("LastModified", HTTPDate.iso8601(part.lastModified))
        xml.element("ETag", dialect.formatETag(part.etag))
        xml.close("CopyPartResult")
        var headers: [(String, String)] = []
        if dialect.kind == .oss { headers.append(("x-oss-hash-crc64ecma", String(part.crc64))) }
        return .xml(xml, headers: headers)
    }
}
