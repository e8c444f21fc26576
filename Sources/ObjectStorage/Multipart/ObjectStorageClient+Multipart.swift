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
    /// Starts a multipart upload.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - attributes: What the final object is (media type, metadata, content headers, ACL, storage class,
    ///     encryption); the service's defaults when not given.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The upload id to pass to the other multipart calls.
    /// - Throws: ``ServiceError``, ``ObjectStorageError``.
    public func createMultipartUpload(
        bucket: String,
        key: String,
        attributes: UploadAttributes = UploadAttributes(),
        logger: Logger? = nil
    ) async throws -> String {
        try await self.createMultipartUpload(
            bucket: bucket,
            key: key,
            attributes: attributes,
            fullObjectCRC64NVME: false,
            logger: logger
        )
    }

    /// ``createMultipartUpload(bucket:key:attributes:logger:)``; with `fullObjectCRC64NVME`, the upload is
    /// created for S3's full-object CRC-64/NVME (every part then sends its own, and the completion the object's).
    func createMultipartUpload(
        bucket: String,
        key: String,
        attributes: UploadAttributes,
        fullObjectCRC64NVME: Bool,
        condition: WriteCondition? = nil,
        logger: Logger?
    ) async throws -> String {
        var operation = OperationRequest(name: "CreateMultipartUpload", method: .POST, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "uploads", value: nil)]
        try self.add(attributes, to: &operation)
        try operation.add(condition, .createMultipartUpload, vendor: self.configuration.vendor)
        if fullObjectCRC64NVME {
            operation.header(S3ChecksumHeader.algorithm, "CRC64NVME")
            operation.header(S3ChecksumHeader.type, "FULL_OBJECT")
        }
        operation.body = .empty
        let (_, root) = try await self.executeXML(operation, logger: logger)
        guard let uploadID = root["UploadId"], !uploadID.isEmpty else {
            throw ObjectStorageError.invalidResponse("CreateMultipartUpload: no UploadId in the answer")
        }
        return uploadID
    }

    /// Uploads one part (a file region is read in chunks, and retried from the file).
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - uploadID: The upload id.
    ///   - partNumber: The part number, 1...10000.
    ///   - body: The part's bytes: usually `.file(path:offset:length:)` over a region of a large file.
    ///   - contentMD5: An explicit `Content-MD5` for the part (base64 of the MD5 digest).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The part as named when completing the upload, with OSS's CRC-64 of the part (already
    ///   checked against the bytes sent).
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a part number outside 1...10000;
    ///   ``ServiceError`` (e.g. `NoSuchUpload`); ``ObjectStorageError/Code/integrityMismatch``.
    public func uploadPart(
        bucket: String,
        key: String,
        uploadID: String,
        partNumber: Int,
        body: UploadBody,
        contentMD5: String? = nil,
        logger: Logger? = nil
    ) async throws -> CompletedPart {
        let operation = try self.uploadPartOperation(
            bucket: bucket,
            key: key,
            uploadID: uploadID,
            partNumber: partNumber,
            body: body,
            contentMD5: contentMD5,
            checksum: nil
        )
        return try await self.send(operation, logger: logger) { try Self.completedPart(partNumber, from: $0) }
    }

    /// The UploadPart request of part `partNumber`.
    func uploadPartOperation(
        bucket: String,
        key: String,
        uploadID: String,
        partNumber: Int,
        body: UploadBody,
        contentMD5: String?,
        checksum: SentChecksum?
    ) throws(ObjectStorageError) -> OperationRequest {
        guard (1...10_000).contains(partNumber) else {
            throw .invalidArgument("part number \(partNumber) is outside 1...10000")
        }
        var operation = OperationRequest(name: "UploadPart", method: .PUT, bucket: bucket, key: key)
        operation.query = [
            QueryParameter(name: "partNumber", value: String(partNumber)),
            QueryParameter(name: "uploadId", value: uploadID),
        ]
        operation.header("Content-MD5", contentMD5)
        operation.carry(checksum)
        operation.body = body
        return operation
    }

    /// The part an UploadPart answer describes.
    static func completedPart(
        _ partNumber: Int,
        from response: TransportResponse
    ) throws(ObjectStorageError)
        -> CompletedPart
    {
        guard let etag = response.headers.first(name: "ETag") else {
            throw .invalidResponse("UploadPart: no ETag in the answer")
        }
        return CompletedPart(partNumber: partNumber, etag: etag, crc64: Integrity.reportedCRC64(in: response.headers))
    }

    /// Completes a multipart upload.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - uploadID: The upload id.
    ///   - parts: The parts (sorted by part number when sent).
    ///   - condition: A condition on the object the completion writes (``WriteCondition``); `nil` writes
    ///     unconditionally. The upload survives a condition that does not hold when the service reports it as
    ///     S3's 412 or OSS's 409 before completing; S3's 409 `ConditionalRequestConflict` ends it.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The object's ETag, version id and (OSS) CRC-64 of the whole object. The ETag is `nil` when the
    ///   answer has none or an empty one (Ceph RGW answers `<ETag></ETag>`; a HEAD then reports it).
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for no parts, ``ObjectStorageError/Code/unsupported``
    ///   for a condition the service does not offer; ``ServiceError`` (e.g. `InvalidPart`, also when the service
    ///   answers 200 with an error; Ceph RGW answers an unknown upload id with 500;
    ///   ``ServiceError/isWriteConditionFailure`` when `condition` did not hold).
    @discardableResult
    public func completeMultipartUpload(
        bucket: String,
        key: String,
        uploadID: String,
        parts: [CompletedPart],
        condition: WriteCondition? = nil,
        logger: Logger? = nil
    ) async throws -> ObjectWriteResult {
        try await self.completeMultipartUpload(
            bucket: bucket,
            key: key,
            uploadID: uploadID,
            parts: parts,
            checksum: nil,
            condition: condition,
            logger: logger
        ).result
    }

    /// ``completeMultipartUpload(bucket:key:uploadID:parts:condition:logger:)`` with the object's checksum, sent for the service
    /// to check (``SentChecksum``); S3's also names each part's (by part number) in the XML, as an upload created for
    /// its full-object CRC-64/NVME needs.
    ///
    /// - Returns: The result, and the object's checksum as the answer reports it (`nil` when it reports none).
    func completeMultipartUpload(
        bucket: String,
        key: String,
        uploadID: String,
        parts: [CompletedPart],
        checksum: (object: SentChecksum, parts: [Int: UInt64])?,
        condition: WriteCondition? = nil,
        logger: Logger?
    ) async throws -> (result: ObjectWriteResult, reportedChecksum: UInt64?) {
        guard !parts.isEmpty else {
            throw ObjectStorageError.invalidArgument("completing an upload needs at least one part")
        }
        var xml = XMLWriter()
        xml.open("CompleteMultipartUpload")
        for part in parts.sorted(by: { $0.partNumber < $1.partNumber }) {
            xml.open("Part")
            xml.element("PartNumber", String(part.partNumber))
            xml.element("ETag", part.etag)
            if checksum?.object.kind == .s3CRC64NVME, let crc = checksum?.parts[part.partNumber] {
                xml.element("ChecksumCRC64NVME", CRC64.base64(crc))
            }
            xml.close("Part")
        }
        xml.close("CompleteMultipartUpload")
        var operation = OperationRequest(name: "CompleteMultipartUpload", method: .POST, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "uploadId", value: uploadID)]
        operation.header("Content-Type", "application/xml")
        try operation.add(condition, .completeMultipartUpload, vendor: self.configuration.vendor)
        if let checksum {
            // Only the header: the answer's checksum is checked below, from where each service puts it.
            checksum.object.add(to: &operation)
            if checksum.object.kind == .s3CRC64NVME { operation.header(S3ChecksumHeader.type, "FULL_OBJECT") }
        }
        operation.body = .bytes(xml.bytes)
        // The CRC header of the answer is the whole object's, not the XML's: do not check it here.
        let (headers, root) = try await self.executeXML(operation, logger: logger, checksUploadCRC: false)
        let etag = root["ETag"].flatMap { $0.isEmpty ? nil : $0 }
        let reported: UInt64? =
            switch checksum?.object.kind {
            case .s3CRC64NVME: root["ChecksumCRC64NVME"].flatMap { CRC64.value(base64: $0) }
            case .obsCRC64: SentChecksum.Kind.obsCRC64.reported(in: headers)
            case nil: nil
            }
        return (ObjectWriteResult(headers: headers, prefix: self.configuration.headerPrefix, etag: etag), reported)
    }

    /// Aborts a multipart upload and frees its parts.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - uploadID: The upload id.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ServiceError`` (e.g. `NoSuchUpload`).
    public func abortMultipartUpload(
        bucket: String,
        key: String,
        uploadID: String,
        logger: Logger? = nil
    ) async throws {
        var operation = OperationRequest(name: "AbortMultipartUpload", method: .DELETE, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "uploadId", value: uploadID)]
        try await self.executeDraining(operation, logger: logger)
    }

    /// Lists the parts of an upload, fetching pages lazily.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - uploadID: The upload id.
    ///   - maxParts: The most parts per page (the service's default when `nil`).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The pages; iteration may throw ``ServiceError`` (e.g. `NoSuchUpload`).
    public func listParts(
        bucket: String,
        key: String,
        uploadID: String,
        maxParts: Int? = nil,
        logger: Logger? = nil
    ) -> PaginatedSequence<ListPartsResponse> {
        PaginatedSequence { token in
            var operation = OperationRequest(name: "ListParts", method: .GET, bucket: bucket, key: key)
            operation.query("max-parts", maxParts.map { String($0) })
            operation.query("part-number-marker", token)
            operation.query("uploadId", uploadID)
            let (headers, root) = try await self.executeXML(operation, logger: logger)
            let page = ListPartsResponse(
                parts: root.children("Part").map { node in
                    ListPartsResponse.Part(
                        partNumber: node["PartNumber"].flatMap { Int($0) } ?? 0,
                        etag: node["ETag"] ?? "",
                        size: node["Size"].flatMap { Int64($0) } ?? 0,
                        lastModified: node["LastModified"].flatMap(HTTPDates.parse),
                        crc64: node["HashCrc64ecma"].flatMap { UInt64($0) }
                    )
                },
                isTruncated: root["IsTruncated"] == "true",
                nextPartNumberMarker: root["NextPartNumberMarker"].flatMap { Int($0) },
                requestID: headers.requestID
            )
            return (page, page.isTruncated ? page.nextPartNumberMarker.map { String($0) } : nil)
        }
    }

    /// Lists the uploads in progress in a bucket, fetching pages lazily.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only keys that start with this.
    ///   - delimiter: Groups keys into ``ListMultipartUploadsResponse/commonPrefixes``.
    ///   - maxUploads: The most uploads per page (the service's default when `nil`).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The pages; iteration may throw ``ServiceError``.
    public func listMultipartUploads(
        bucket: String,
        prefix: String? = nil,
        delimiter: String? = nil,
        maxUploads: Int? = nil,
        logger: Logger? = nil
    ) -> PaginatedSequence<ListMultipartUploadsResponse> {
        PaginatedSequence { token in
            var operation = OperationRequest(name: "ListMultipartUploads", method: .GET, bucket: bucket)
            operation.query = [QueryParameter(name: "uploads", value: nil)]
            operation.query("delimiter", delimiter)
            let markers = token.map(MultipartMarker.init(token:))
            operation.query("key-marker", markers?.key)
            operation.query("max-uploads", maxUploads.map { String($0) })
            operation.query("prefix", prefix)
            operation.query("upload-id-marker", markers?.uploadID)
            let (headers, root) = try await self.executeXML(operation, logger: logger)
            let page = ListMultipartUploadsResponse(
                uploads: root.children("Upload").map { node in
                    ListMultipartUploadsResponse.Upload(
                        key: node["Key"] ?? "",
                        uploadID: node["UploadId"] ?? "",
                        initiated: node["Initiated"].flatMap(HTTPDates.parse),
                        storageClass: node["StorageClass"]
                    )
                },
                commonPrefixes: root.children("CommonPrefixes").compactMap { $0["Prefix"] },
                isTruncated: root["IsTruncated"] == "true",
                nextKeyMarker: root["NextKeyMarker"],
                nextUploadIDMarker: root["NextUploadIdMarker"],
                requestID: headers.requestID
            )
            let next = MultipartMarker(key: page.nextKeyMarker ?? "", uploadID: page.nextUploadIDMarker ?? "")
            return (page, page.isTruncated ? next.token : nil)
        }
    }
}

/// The two markers of a multipart-uploads page packed into one pagination token.
struct MultipartMarker {
    var key: String
    var uploadID: String

    init(key: String, uploadID: String) {
        self.key = key
        self.uploadID = uploadID
    }

    init(token: String) {
        let parts = token.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        self.key = String(parts[0])
        self.uploadID = parts.count > 1 ? String(parts[1]) : ""
    }

    var token: String { self.key + "\n" + self.uploadID }
}
