//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageSigning
import ObjectStorageTransport

extension ObjectStorageClient {
    /// Uploads an object in one request (up to 5 GiB; use multipart beyond).
    ///
    /// OSS: the bytes sent are checked against the service's `x-oss-hash-crc64ecma`; a mismatch is
    /// retried (for bytes and files) and finally thrown.
    ///
    /// - Parameters:
    ///   - request: The object and its options.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The ETag, version id and checksum.
    /// - Throws: ``ServiceError`` (``ServiceError/isWriteConditionFailure`` when ``PutObjectRequest/condition``
    ///   did not hold), ``ObjectStorageError`` (``ObjectStorageError/Code/unsupported`` for a condition the service
    ///   does not offer), ``/ObjectStorageTransport/TransportError``.
    @discardableResult
    public func putObject(_ request: PutObjectRequest, logger: Logger? = nil) async throws -> ObjectWriteResult {
        try await self.putObject(request, logger: logger, prepare: nil)
    }

    /// ``putObject(_:logger:)`` whose body `prepare` builds afresh for each attempt (an upload that counts its
    /// bytes as they are read from the file).
    func putObject(
        _ request: PutObjectRequest,
        logger: Logger?,
        prepare: ((inout OperationRequest, _ attempt: Int) async throws -> Void)?
    ) async throws -> ObjectWriteResult {
        var operation = OperationRequest(name: "PutObject", method: .PUT, bucket: request.bucket, key: request.key)
        try self.add(request.attributes, to: &operation)
        try operation.add(request.condition, .putObject, vendor: self.configuration.vendor)
        if let md5 = request.contentMD5 {
            operation.header("Content-MD5", md5)
        } else if request.computesContentMD5 {
            guard let bytes = request.body.inMemoryBytes else {
                throw ObjectStorageError.invalidArgument(
                    "computesContentMD5 needs an in-memory body; pass contentMD5 for files and streams"
                )
            }
            operation.header("Content-MD5", ByteEncoding.base64(Hashing.MD5.hash(bytes.readableBytesView)))
        }
        operation.carry(request.checksum)
        operation.body = request.body
        return try await self.send(operation, logger: logger, prepare: prepare) { response in
            ObjectWriteResult(
                headers: response.headers,
                prefix: self.configuration.headerPrefix,
                etag: response.headers.first(name: "ETag")
            )
        }
    }

    /// Downloads an object as a stream.
    ///
    /// - Parameters:
    ///   - request: The object, range, conditions and overrides.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The headers and the body to iterate (once).
    /// - Throws: ``ServiceError``: `NoSuchKey` (404), `PreconditionFailed` (412), `NotModified` (304),
    ///   `InvalidRange` (416)...
    public func getObject(_ request: GetObjectRequest, logger: Logger? = nil) async throws -> GetObjectResponse {
        try request.range?.validate()
        let operation = self.getOperation(request)
        let response = try await self.execute(operation, logger: logger)
        return try self.getResponse(response, ranged: request.range != nil)
    }

    func getOperation(_ request: GetObjectRequest) -> OperationRequest {
        var operation = OperationRequest(name: "GetObject", method: .GET, bucket: request.bucket, key: request.key)
        operation.header("Range", request.range?.description)
        operation.header("If-Match", request.ifMatch)
        operation.header("If-None-Match", request.ifNoneMatch)
        operation.header("If-Modified-Since", request.ifModifiedSince.map(HTTPDates.format))
        operation.header("If-Unmodified-Since", request.ifUnmodifiedSince.map(HTTPDates.format))
        operation.query("versionId", request.versionID)
        return operation
    }

    func getResponse(_ response: TransportResponse, ranged: Bool) throws(ObjectStorageError) -> GetObjectResponse {
        GetObjectResponse(
            attributes: ObjectAttributes(headers: response.headers, prefix: self.configuration.headerPrefix),
            body: ObjectBody(
                base: response.body,
                check: try ResponseBodyCheck(
                    headers: response.headers,
                    isWholeObject: !ranged && response.status.code == 200,
                    verifiesETag: false,
                    operation: "GetObject"
                )
            )
        )
    }

    /// Reads an object's headers.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - versionID: A specific version.
    ///   - ifMatch: Succeed only if the ETag matches (else 412).
    ///   - ifNoneMatch: Succeed only if the ETag differs (else 304).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The headers.
    /// - Throws: ``ServiceError`` with a code derived from the status (HEAD answers have no body):
    ///   ``ServiceError/Code/noSuchKey`` for 404.
    public func headObject(
        bucket: String,
        key: String,
        versionID: String? = nil,
        ifMatch: String? = nil,
        ifNoneMatch: String? = nil,
        logger: Logger? = nil
    ) async throws -> ObjectAttributes {
        var operation = OperationRequest(name: "HeadObject", method: .HEAD, bucket: bucket, key: key)
        // S3 reports the object's CRC-64/NVME only when asked.
        if self.configuration.vendor == .s3 { operation.header(S3ChecksumHeader.mode, "ENABLED") }
        operation.header("If-Match", ifMatch)
        operation.header("If-None-Match", ifNoneMatch)
        operation.query("versionId", versionID)
        let response = try await self.execute(operation, logger: logger)
        return ObjectAttributes(headers: response.headers, prefix: self.configuration.headerPrefix)
    }

    /// Deletes an object (deleting a missing key succeeds).
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - versionID: A specific version to delete; `nil` deletes the current one (a versioned bucket
    ///     then keeps it behind a delete marker).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The version the delete created (a delete marker, in a versioned bucket) or removed.
    /// - Throws: ``ServiceError``.
    @discardableResult
    public func deleteObject(
        bucket: String,
        key: String,
        versionID: String? = nil,
        logger: Logger? = nil
    ) async throws -> DeletedVersion {
        var operation = OperationRequest(name: "DeleteObject", method: .DELETE, bucket: bucket, key: key)
        operation.query("versionId", versionID)
        let headers = try await self.executeDraining(operation, logger: logger)
        let prefix = self.configuration.headerPrefix
        return DeletedVersion(
            versionID: headers.first(name: prefix + "version-id"),
            isDeleteMarker: headers.first(name: prefix + "delete-marker") == "true"
        )
    }

    /// Deletes up to 1000 objects (their current versions) in one request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - keys: The object keys (1...1000).
    ///   - quiet: Report only failures (``DeleteObjectsResponse/deleted`` stays empty).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The keys deleted and the per-key failures.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for 0 or more than 1000 keys; ``ServiceError``.
    public func deleteObjects(
        bucket: String,
        keys: [String],
        quiet: Bool = false,
        logger: Logger? = nil
    ) async throws -> DeleteObjectsResponse {
        try await self.deleteObjects(
            bucket: bucket,
            objects: keys.map { ObjectVersion(key: $0) },
            quiet: quiet,
            logger: logger
        )
    }

    /// Deletes up to 1000 objects or specific versions of them in one request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - objects: The objects (1...1000), each a key and optionally a version id.
    ///   - quiet: Report only failures (``DeleteObjectsResponse/deleted`` stays empty).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The keys deleted and the per-key failures.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for 0 or more than 1000 objects; ``ServiceError``.
    public func deleteObjects(
        bucket: String,
        objects: [ObjectVersion],
        quiet: Bool = false,
        logger: Logger? = nil
    ) async throws -> DeleteObjectsResponse {
        guard (1...1000).contains(objects.count) else {
            throw ObjectStorageError.invalidArgument("deleteObjects takes 1...1000 keys, not \(objects.count)")
        }
        var xml = XMLWriter()
        xml.open("Delete")
        xml.element("Quiet", quiet ? "true" : "false")
        for object in objects {
            xml.open("Object")
            xml.element("Key", object.key)
            if let versionID = object.versionID { xml.element("VersionId", versionID) }
            xml.close("Object")
        }
        xml.close("Delete")
        let body = xml.bytes
        var operation = OperationRequest(name: "DeleteObjects", method: .POST, bucket: bucket)
        operation.query = [QueryParameter(name: "delete", value: nil)]
        operation.xmlBody(body)
        let (headers, root) = try await self.executeXML(operation, logger: logger)
        return DeleteObjectsResponse(
            deleted: root.children("Deleted").compactMap { $0["Key"] },
            failures: root.children("Error").map {
                DeleteObjectsResponse.Failure(
                    key: $0["Key"] ?? "",
                    versionID: $0["VersionId"],
                    code: $0["Code"] ?? "",
                    message: $0["Message"] ?? ""
                )
            },
            requestID: headers.requestID
        )
    }

    /// Copies an object server-side (up to 5 GiB) in one request.
    ///
    /// The copy keeps the source's media type, user metadata and content headers unless `replacesMetadata` is
    /// set, in which case it takes them from `attributes` (and a field left `nil` there is dropped, as the
    /// services do). The ACL, storage class and encryption in `attributes` apply either way. The copy keeps the
    /// source's tags unless ``UploadAttributes/tags`` is set, which replaces them.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// var attributes = UploadAttributes()
    /// attributes.storageClass = .standardIA
    /// try await client.copyObject(bucket: "archive", key: "cat.jpg", sourceBucket: "photos", sourceKey: "cat.jpg",
    ///                             attributes: attributes)
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The destination bucket.
    ///   - key: The destination key.
    ///   - sourceBucket: The source bucket.
    ///   - sourceKey: The source key.
    ///   - sourceVersionID: A specific source version.
    ///   - sourceIfMatch: Copy only if the source's ETag matches.
    ///   - sourceIfNoneMatch: Copy only if the source's ETag differs.
    ///   - attributes: The copy's attributes (see above for which apply when).
    ///   - replacesMetadata: Whether the copy takes its media type, user metadata and content headers from
    ///     `attributes` (`REPLACE`) rather than from the source (`COPY`, the default). Setting any of those in
    ///     `attributes` without this is refused with ``ObjectStorageError/Code/invalidArgument``, rather than
    ///     silently ignored.
    ///   - condition: A condition on the destination (``WriteCondition``); `nil` copies unconditionally.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The copy's ETag, version id and modification time.
    /// - Throws: ``ServiceError`` (also when the service answers 200 with an error document;
    ///   ``ServiceError/isWriteConditionFailure`` when `condition` did not hold); ``ObjectStorageError/Code/unsupported``
    ///   for a condition the service does not offer.
    @discardableResult
    public func copyObject(
        bucket: String,
        key: String,
        sourceBucket: String,
        sourceKey: String,
        sourceVersionID: String? = nil,
        sourceIfMatch: String? = nil,
        sourceIfNoneMatch: String? = nil,
        attributes: UploadAttributes = UploadAttributes(),
        replacesMetadata: Bool = false,
        condition: WriteCondition? = nil,
        logger: Logger? = nil
    ) async throws -> ObjectWriteResult {
        var operation = OperationRequest(name: "CopyObject", method: .PUT, bucket: bucket, key: key)
        try operation.add(condition, .copyObject, vendor: self.configuration.vendor)
        let prefix = self.configuration.headerPrefix
        var source = "/" + sourceBucket + "/" + PercentEncoding.encode(sourceKey, style: .path)
        if let version = sourceVersionID { source += "?versionId=" + version }
        operation.header(prefix + "copy-source", source)
        operation.header(prefix + "copy-source-if-match", sourceIfMatch)
        operation.header(prefix + "copy-source-if-none-match", sourceIfNoneMatch)
        if attributes.tags != nil { operation.header(prefix + "tagging-directive", "REPLACE") }
        if replacesMetadata {
            operation.header(prefix + "metadata-directive", "REPLACE")
        } else if attributes.describesContent {
            throw ObjectStorageError.invalidArgument(
                "a copy keeps the source's media type, metadata and content headers unless replacesMetadata is set"
            )
        }
        try self.add(attributes, to: &operation)
        let (headers, root) = try await self.executeXML(operation, logger: logger)
        return ObjectWriteResult(
            headers: headers,
            prefix: prefix,
            etag: root["ETag"],
            lastModified: root["LastModified"].flatMap(HTTPDates.parse)
        )
    }

    /// Adds an object's attributes as headers in the vendor's dialect (only those that are set).
    func add(_ attributes: UploadAttributes, to operation: inout OperationRequest) throws(ObjectStorageError) {
        for (name, value) in try self.headers(for: attributes) {
            operation.header(name, value)
        }
    }

    /// An object's attributes as headers in the vendor's dialect (only those that are set), in the order they
    /// are sent; also the fields of a POST policy form.
    func headers(for attributes: UploadAttributes) throws(ObjectStorageError) -> [(String, String)] {
        let prefix = self.configuration.headerPrefix
        var headers: [(String, String?)] = [
            ("Content-Type", attributes.contentType),
            ("Cache-Control", attributes.cacheControl),
            ("Content-Disposition", attributes.contentDisposition),
            ("Content-Encoding", attributes.contentEncoding),
        ]
        for (name, value) in attributes.metadata.sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != UInt8(ascii: ":") }) else {
                throw .invalidArgument("invalid metadata name '\(name)'")
            }
            headers.append((prefix + "meta-" + name.lowercased(), value))
        }
        headers.append((prefix == "x-oss-" ? "x-oss-object-acl" : prefix + "acl", attributes.acl?.rawValue))
        headers.append((prefix + "storage-class", attributes.storageClass?.rawValue))
        for (name, value) in attributes.serverSideEncryption?.headers(prefix: prefix) ?? [] {
            headers.append((name, value))
        }
        headers.append((prefix + "website-redirect-location", attributes.websiteRedirectLocation))
        headers.append((prefix + "tagging", try attributes.tags.map(self.taggingHeader)))
        return headers.compactMap { name, value in value.map { (name, $0) } }
    }
}
