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
    ///   - request: The object and its options.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The upload id.
    /// - Throws: ``ServiceError``, ``ObjectStorageError``.
    public func createMultipartUpload(
        _ request: CreateMultipartUploadRequest,
        logger: Logger? = nil
    ) async throws -> CreateMultipartUploadResponse {
        var operation = OperationRequest(
            name: "CreateMultipartUpload",
            method: .POST,
            bucket: request.bucket,
            key: request.key
        )
        operation.query = [QueryParameter(name: "uploads", value: nil)]
        try self.add(request.attributes, to: &operation)
        operation.body = .empty
        let (headers, root) = try await self.executeXML(operation, logger: logger)
        guard let uploadID = root["UploadId"], !uploadID.isEmpty else {
            throw ObjectStorageError.invalidResponse("CreateMultipartUpload: no UploadId in the answer")
        }
        return CreateMultipartUploadResponse(
            bucket: root["Bucket"] ?? request.bucket,
            key: root["Key"] ?? request.key,
            uploadID: uploadID,
            requestID: headers.requestID
        )
    }

    /// Uploads one part (a file region is read in chunks, and retried from the file).
    ///
    /// - Parameters:
    ///   - request: The upload, part number and bytes.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The part's ETag.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a part number outside 1...10000;
    ///   ``ServiceError`` (e.g. `NoSuchUpload`); ``ObjectStorageError/Code/integrityMismatch``.
    public func uploadPart(_ request: UploadPartRequest, logger: Logger? = nil) async throws -> UploadPartResponse {
        guard (1...10_000).contains(request.partNumber) else {
            throw ObjectStorageError.invalidArgument("part number \(request.partNumber) is outside 1...10000")
        }
        var operation = OperationRequest(name: "UploadPart", method: .PUT, bucket: request.bucket, key: request.key)
        operation.query = [
            QueryParameter(name: "partNumber", value: String(request.partNumber)),
            QueryParameter(name: "uploadId", value: request.uploadID),
        ]
        operation.header("Content-MD5", request.contentMD5)
        operation.body = request.body
        let response = try await self.execute(operation, logger: logger)
        guard let etag = response.headers.first(name: "ETag") else {
            throw ObjectStorageError.invalidResponse("UploadPart: no ETag in the answer")
        }
        return UploadPartResponse(
            partNumber: request.partNumber,
            etag: etag,
            crc64: response.headers.first(name: Integrity.crc64Header).flatMap { UInt64($0) },
            requestID: response.headers.requestID
        )
    }

    /// Completes a multipart upload.
    ///
    /// - Parameters:
    ///   - request: The upload and its parts.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The object's ETag.
    /// - Throws: ``ServiceError`` (e.g. `InvalidPart`, also when the service answers 200 with an error).
    @discardableResult
    public func completeMultipartUpload(
        _ request: CompleteMultipartUploadRequest,
        logger: Logger? = nil
    ) async throws -> CompleteMultipartUploadResponse {
        guard !request.parts.isEmpty else {
            throw ObjectStorageError.invalidArgument("completing an upload needs at least one part")
        }
        var xml = XMLWriter()
        xml.open("CompleteMultipartUpload")
        for part in request.parts.sorted(by: { $0.partNumber < $1.partNumber }) {
            xml.open("Part")
            xml.element("PartNumber", String(part.partNumber))
            xml.element("ETag", part.etag)
            xml.close("Part")
        }
        xml.close("CompleteMultipartUpload")
        var operation = OperationRequest(
            name: "CompleteMultipartUpload",
            method: .POST,
            bucket: request.bucket,
            key: request.key
        )
        operation.query = [QueryParameter(name: "uploadId", value: request.uploadID)]
        operation.header("Content-Type", "application/xml")
        operation.body = .bytes(xml.bytes)
        // The CRC header of the answer is the whole object's, not the XML's: do not check it here.
        let (headers, root) = try await self.executeXML(operation, logger: logger, checksUploadCRC: false)
        let prefix = self.configuration.headerPrefix
        return CompleteMultipartUploadResponse(
            location: root["Location"],
            etag: root["ETag"],
            versionID: headers.first(name: prefix + "version-id"),
            crc64: headers.first(name: Integrity.crc64Header).flatMap { UInt64($0) },
            requestID: headers.requestID
        )
    }

    /// Aborts a multipart upload.
    ///
    /// - Parameters:
    ///   - request: The upload.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The request id.
    /// - Throws: ``ServiceError`` (e.g. `NoSuchUpload`).
    @discardableResult
    public func abortMultipartUpload(
        _ request: AbortMultipartUploadRequest,
        logger: Logger? = nil
    ) async throws -> EmptyResponse {
        var operation = OperationRequest(
            name: "AbortMultipartUpload",
            method: .DELETE,
            bucket: request.bucket,
            key: request.key
        )
        operation.query = [QueryParameter(name: "uploadId", value: request.uploadID)]
        let response = try await self.execute(operation, logger: logger)
        _ = try? await response.body.collect(upTo: 1 << 16)
        return EmptyResponse(requestID: response.headers.requestID)
    }

    /// Lists the parts of an upload, fetching pages lazily.
    ///
    /// - Parameters:
    ///   - request: The upload and page size.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The pages; iteration may throw ``ServiceError`` (e.g. `NoSuchUpload`).
    public func listParts(_ request: ListPartsRequest, logger: Logger? = nil) -> PaginatedSequence<ListPartsResponse> {
        PaginatedSequence { token in
            var operation = OperationRequest(name: "ListParts", method: .GET, bucket: request.bucket, key: request.key)
            operation.query("max-parts", request.maxParts.map { String($0) })
            operation.query("part-number-marker", token)
            operation.query("uploadId", request.uploadID)
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
    ///   - request: The bucket, prefix and page size.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The pages; iteration may throw ``ServiceError``.
    public func listMultipartUploads(
        _ request: ListMultipartUploadsRequest,
        logger: Logger? = nil
    ) -> PaginatedSequence<ListMultipartUploadsResponse> {
        PaginatedSequence { token in
            var operation = OperationRequest(name: "ListMultipartUploads", method: .GET, bucket: request.bucket)
            operation.query = [QueryParameter(name: "uploads", value: nil)]
            operation.query("delimiter", request.delimiter)
            let markers = token.map(MultipartMarker.init(token:))
            operation.query("key-marker", markers?.key)
            operation.query("max-uploads", request.maxUploads.map { String($0) })
            operation.query("prefix", request.prefix)
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
