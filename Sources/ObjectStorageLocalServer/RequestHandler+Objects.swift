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
    static let storedHeaderNames = [
        "cache-control", "content-disposition", "content-encoding", "content-language", "expires",
    ]

    /// Content type, user metadata, representation headers, storage class, ACL, tags and encryption from the request
    /// (the bucket's default encryption when the request names none).
    func attributes(_ context: Context) throws(ServerError) -> ObjectAttributes {
        var attributes = Self.attributes(
            context.request.headers.map { (name: $0.lowercasedName, value: $0.value) },
            dialect: context.dialect
        )
        attributes.tags = try TagInput.fromHeader(context.request, dialect: context.dialect)
        if let bucket = context.request.bucket {
            attributes.encryption = self.encryption(of: attributes, bucket: bucket)
        }
        return attributes
    }

    /// Content type, user metadata, representation headers, storage class, ACL and encryption from `fields`
    /// (request headers or POST form fields, names lowercased).
    static func attributes(_ fields: [(name: String, value: String)], dialect: StorageVendor) -> ObjectAttributes {
        let prefix = dialect.metadataPrefix
        var metadata: [String: String] = [:]
        for field in fields where field.name.hasPrefix(prefix) {
            let name = String(field.name.dropFirst(prefix.count))
            metadata[name] = metadata[name].map { $0 + "," + field.value } ?? field.value
        }
        let value = { (name: String) in fields.first { $0.name == name }?.value }
        var stored: [String: String] = [:]
        for name in Self.storedHeaderNames {
            if let value = value(name) { stored[name] = value }
        }
        let defaultType = dialect.kind == .s3 ? "binary/octet-stream" : "application/octet-stream"
        return ObjectAttributes(
            contentType: value("content-type") ?? defaultType,
            userMetadata: metadata,
            headers: stored,
            storageClass: value(dialect.headerPrefix + "storage-class"),
            acl: value(dialect.headerPrefix + (dialect.kind == .oss ? "object-acl" : "acl")),
            tags: nil,
            encryption: value(dialect.headerPrefix + "server-side-encryption").map {
                StoredEncryption(
                    algorithm: BucketEncryption.Algorithm(rawValue: $0).rawValue,
                    keyID: value(Self.kmsKeyHeader(dialect))
                )
            }
        )
    }

    /// The metadata of an object stored in one piece (a PUT or a POST form), written now.
    static func singlePartMetadata(
        key: String,
        size: Int64,
        md5: [UInt8],
        crc64: UInt64,
        crc64nvme: UInt64,
        attributes: ObjectAttributes,
        context: Context
    ) -> ObjectMetadata {
        ObjectMetadata(
            key: key,
            size: size,
            etag: ByteEncoding.hex(md5),
            crc64: crc64,
            crc64nvme: crc64nvme,
            lastModified: context.now,
            lastModifiedMilliseconds: context.nowMilliseconds,
            contentType: attributes.contentType,
            userMetadata: attributes.userMetadata,
            headers: attributes.headers,
            storageClass: attributes.storageClass,
            acl: attributes.acl,
            partsCount: nil,
            partSizes: nil,
            dataFiles: nil,
            tags: attributes.tags,
            encryption: attributes.encryption
        )
    }

    func putObject(_ context: Context, bucket: String, key: String, body: RequestBody) async throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let condition = try WriteCondition(context.request, dialect: context.dialect)
        let received = try await receive(body, context: context, temporaryPath: store.temporaryPath())
        let md5 = received.md5
        var metadata = Self.singlePartMetadata(
            key: key,
            size: received.size,
            md5: md5,
            crc64: received.crc64,
            crc64nvme: received.crc64nvme,
            attributes: try attributes(context),
            context: context
        )
        metadata.obsChecksum = received.obsChecksum
        let versionID = try store.commit(bucket, metadata: metadata, blob: received.blob, condition: condition)
        var headers = [("ETag", context.dialect.formatETag(metadata.etag))]
        headers += Self.versionHeaders(versionID, context: context)
        if context.dialect.kind == .oss {
            headers.append(("x-oss-hash-crc64ecma", String(metadata.crc64)))
            headers.append(("Content-MD5", ByteEncoding.base64(md5)))
        }
        headers += S3Checksum.headers(metadata.crc64nvme, context: context)
        headers += OBSChecksum.headers(metadata.obsChecksum, context: context)
        headers += Self.encryptionHeaders(metadata.encryption, dialect: context.dialect)
        return Reply(headers: headers)
    }

    /// The representation headers of an object version.
    func objectHeaders(_ metadata: ObjectMetadata, context: Context) -> [(String, String)] {
        let dialect = context.dialect
        var headers: [(String, String)] = [
            ("ETag", dialect.formatETag(metadata.etag)),
            ("Last-Modified", HTTPDate.imfFixdate(metadata.lastModified)),
            ("Accept-Ranges", "bytes"),
            ("Content-Type", metadata.contentType),
        ]
        for name in Self.storedHeaderNames {
            if let value = metadata.headers[name] { headers.append((name, value)) }
        }
        for (name, value) in metadata.userMetadata.sorted(by: { $0.key < $1.key }) {
            headers.append((dialect.metadataPrefix + name, value))
        }
        headers += Self.versionHeaders(metadata.versionID, context: context)
        if let tags = metadata.tags, !tags.isEmpty {
            headers.append((dialect.headerPrefix + "tagging-count", String(tags.count)))
        }
        headers += Self.encryptionHeaders(metadata.encryption, dialect: dialect)
        let storageClass = metadata.storageClass ?? dialect.defaultStorageClass
        switch dialect.kind {
        case .oss:
            headers.append(("x-oss-storage-class", storageClass))
            let type = metadata.objectType?.rawValue ?? (metadata.partsCount == nil ? "Normal" : "Multipart")
            headers.append(("x-oss-object-type", type))
            headers.append(("x-oss-hash-crc64ecma", String(metadata.crc64)))
        case .obs, .s3:
            if storageClass.uppercased() != "STANDARD" {
                headers.append((dialect.headerPrefix + "storage-class", storageClass))
            }
            headers += OBSChecksum.headers(metadata.obsChecksum, context: context)
            // OBS names only appendable objects (esdk-obs reads both headers of a HEAD).
            if dialect.kind == .obs, metadata.objectType == .appendable {
                headers.append(("x-obs-object-type", StoredObjectType.appendable.rawValue))
            }
        }
        if metadata.objectType == .appendable, dialect.kind != .s3 {
            headers.append((dialect.headerPrefix + "next-append-position", String(metadata.size)))
        }
        if let restore = metadata.restore?.header(at: context.now) {
            headers.append((dialect.headerPrefix + "restore", restore))
        }
        return headers
    }

    func getObject(_ context: Context, bucket: String, key: String, head: Bool) throws -> Reply {
        let request = context.request
        var (metadata, reader) = try store.openObject(bucket, key, versionID: request.queryValue("versionId"))
        let isSymlink = metadata.objectType == .symlink
        if isSymlink {
            // A symlink serves its target's bytes, with the target's description (OSS names the type Symlink).
            (metadata, reader) = try openSymlinkTarget(bucket, of: metadata)
        }
        if !head { try checkReadable(metadata, context: context) }
        let preconditions = ReadPreconditions(
            ifMatch: request.header("if-match"),
            ifNoneMatch: request.header("if-none-match"),
            ifModifiedSince: request.header("if-modified-since"),
            ifUnmodifiedSince: request.header("if-unmodified-since"),
            ifRange: request.header("if-range"),
            range: try partRange(context, of: metadata) ?? request.header("range"),
            standardRangeBehavior: context.dialect.kind == .oss
                && request.header("x-oss-range-behavior")?.lowercased() == "standard"
        )
        var headers = objectHeaders(metadata, context: context)
        if isSymlink, context.dialect.kind == .oss {
            headers.removeAll { $0.0 == "x-oss-object-type" }
            headers.append(("x-oss-object-type", StoredObjectType.symlink.rawValue))
        }
        if context.dialect.kind == .s3, request.queryValue("partNumber") != nil, let parts = metadata.partSizes {
            headers.append(("x-amz-mp-parts-count", String(parts.count)))
        }
        let overrides = [
            ("response-content-type", "Content-Type"), ("response-content-language", "Content-Language"),
            ("response-expires", "Expires"), ("response-cache-control", "Cache-Control"),
            ("response-content-disposition", "Content-Disposition"),
            ("response-content-encoding", "Content-Encoding"),
        ]
        for (parameter, header) in overrides {
            guard let value = request.queryValue(parameter) else { continue }
            headers.removeAll { $0.0.lowercased() == header.lowercased() }
            headers.append((header, value))
        }
        let plan: ReadPlan
        do {
            plan = try preconditions.evaluate(
                etag: metadata.etag,
                lastModified: metadata.lastModified,
                size: metadata.size,
                dialect: context.dialect
            )
        } catch var error {
            if error.status == 412 || error.status == 416 {
                error.headers += [("Last-Modified", HTTPDate.imfFixdate(metadata.lastModified))]
            }
            throw error
        }
        switch plan {
        case .notModified:
            let kept = headers.filter {
                ["etag", "last-modified", "cache-control", "expires"].contains($0.0.lowercased())
            }
            return Reply(status: 304, headers: kept, body: .empty)
        case .full:
            if S3Checksum.isRequested(context), partNumberless(context) {
                headers += S3Checksum.headers(metadata.crc64nvme, context: context)
            }
            return Reply(
                headers: headers,
                body: head ? .headOnly(length: metadata.size) : .blob(reader, offset: 0, length: metadata.size)
            )
        case .partial(let first, let last):
            headers.append(("Content-Range", "bytes \(first)-\(last)/\(metadata.size)"))
            let length = last - first + 1
            return Reply(
                status: 206,
                headers: headers,
                body: head ? .headOnly(length: length) : .blob(reader, offset: first, length: length)
            )
        }
    }

    /// Whether a GET or HEAD names no part (`?partNumber=`): only then is a `.full` answer the whole object as
    /// stored, whose checksum may be reported.
    private func partNumberless(_ context: Context) -> Bool {
        context.request.queryValue("partNumber") == nil
    }

    /// S3's `?partNumber=N` on GET and HEAD: the byte range of part N of a multipart object (part 1 of any other
    /// object is all of it), as a `Range` value; `nil` without the parameter, and in the other dialects, which do
    /// not have it. The answer is a 206 like any range's. N is read as an upload's part number is: digits only (no
    /// sign, which Swift's `Int.init` would accept), 1...10000.
    private func partRange(_ context: Context, of metadata: ObjectMetadata) throws -> String? {
        guard context.dialect.kind == .s3, let text = context.request.queryValue("partNumber") else { return nil }
        guard let number = IncomingRequest.count(text), (1...10_000).contains(number) else {
            throw ServerError.invalidArgument(
                "Part number must be an integer between 1 and 10000, inclusive",
                name: "partNumber",
                value: text
            )
        }
        guard context.request.header("range") == nil else {
            throw ServerError.invalidRequest("Cannot specify both Range header and partNumber query parameter")
        }
        let sizes = metadata.partSizes ?? [metadata.size]
        guard number <= sizes.count else {
            throw ServerError(
                status: 416,
                code: "InvalidPartNumber",
                message: "The requested partnumber is not satisfiable",
                details: [("PartNumberRequested", text), ("ActualPartCount", String(sizes.count))]
            )
        }
        let first = sizes[..<(number - 1)].reduce(Int64(0), +)
        guard sizes[number - 1] > 0 else { return nil }
        return "bytes=\(first)-\(first + sizes[number - 1] - 1)"
    }

    func deleteObject(_ context: Context, bucket: String, key: String) throws -> Reply {
        let outcome = try store.deleteObject(
            bucket,
            key,
            versionID: context.request.queryValue("versionId"),
            now: (context.now, context.nowMilliseconds)
        )
        var headers = Self.versionHeaders(outcome.versionID, context: context)
        if outcome.isDeleteMarker { headers.append((context.dialect.headerPrefix + "delete-marker", "true")) }
        return Reply(status: 204, headers: headers)
    }
}
