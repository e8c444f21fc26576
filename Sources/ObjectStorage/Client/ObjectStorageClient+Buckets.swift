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
    /// Creates a bucket.
    ///
    /// - Parameters:
    ///   - bucket: The bucket name.
    ///   - acl: A canned ACL for the bucket (the service's default, private, when `nil`).
    ///   - storageClass: The default storage class of its objects (OSS/OBS), sent in the configuration document.
    ///   - locationConstraint: The region constraint (S3 `LocationConstraint`, OBS `Location`); `nil` for the
    ///     endpoint's region.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a name the vendor's rules refuse (3 to 63
    ///   lowercase letters, digits and hyphens, starting and ending with a letter or digit; S3 and OBS also
    ///   allow periods), before anything is sent; ``ServiceError``
    ///   (e.g. `BucketAlreadyExists`), ``/ObjectStorageTransport/TransportError``.
    public func createBucket(
        bucket: String,
        acl: ObjectACL? = nil,
        storageClass: StorageClass? = nil,
        locationConstraint: String? = nil,
        logger: Logger? = nil
    ) async throws {
        try ObjectNameRules.validateBucketName(bucket, for: self.configuration.vendor)
        var operation = OperationRequest(name: "CreateBucket", method: .PUT, bucket: bucket)
        let prefix = self.configuration.headerPrefix
        operation.header(prefix == "x-oss-" ? "x-oss-acl" : prefix + "acl", acl?.rawValue)
        var body: [UInt8] = []
        if storageClass != nil || locationConstraint != nil {
            var xml = XMLWriter()
            xml.open("CreateBucketConfiguration")
            if let storageClass { xml.element("StorageClass", storageClass.rawValue) }
            if let locationConstraint {
                xml.element(self.configuration.vendor == .obs ? "Location" : "LocationConstraint", locationConstraint)
            }
            xml.close("CreateBucketConfiguration")
            body = xml.bytes
            operation.header("Content-Type", "application/xml")
        }
        operation.body = .bytes(body)
        try await self.executeDraining(operation, logger: logger)
    }

    /// Deletes an empty bucket.
    ///
    /// - Parameters:
    ///   - bucket: The bucket name.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ServiceError`` (e.g. `BucketNotEmpty`, `NoSuchBucket`).
    public func deleteBucket(bucket: String, logger: Logger? = nil) async throws {
        let operation = OperationRequest(name: "DeleteBucket", method: .DELETE, bucket: bucket)
        try await self.executeDraining(operation, logger: logger)
    }

    /// Lists the buckets the credentials own, following the service's pages (OSS `marker`, S3
    /// `continuation-token`) until the last one, at most 1,000 of them.
    ///
    /// - Parameter logger: The logger (the client's when `nil`).
    /// - Returns: The buckets in the order the service lists them (by name).
    /// - Throws: ``ServiceError`` (e.g. `AccessDenied`), ``/ObjectStorageTransport/TransportError``.
    public func listBuckets(logger: Logger? = nil) async throws -> ListBucketsResponse {
        var buckets: [ListBucketsResponse.Bucket] = []
        var marker: (name: String, value: String)?
        var requestID: String?
        for _ in 0..<ListBucketsResponse.maximumPages {
            var operation = OperationRequest(name: "ListBuckets", method: .GET, bucket: nil)
            if let marker { operation.query(marker.name, marker.value) }
            let (headers, root) = try await self.executeXML(operation, logger: logger)
            requestID = headers.requestID
            for node in root.child("Buckets")?.children("Bucket") ?? [] {
                guard let name = node["Name"], !name.isEmpty else { continue }
                buckets.append(
                    ListBucketsResponse.Bucket(
                        name: name,
                        creationDate: node["CreationDate"].flatMap(HTTPDates.parse),
                        region: node["Region"] ?? node["Location"] ?? node["BucketRegion"]
                    )
                )
            }
            let next: (name: String, value: String)?
            if let token = root["ContinuationToken"], !token.isEmpty {
                next = ("continuation-token", token)
            } else if root["IsTruncated"] == "true", let value = root["NextMarker"], !value.isEmpty {
                next = ("marker", value)
            } else {
                next = nil
            }
            // A service that repeats its marker would list the same page for ever.
            guard let next, next.value != marker?.value else { break }
            marker = next
        }
        return ListBucketsResponse(buckets: buckets, requestID: requestID)
    }

    /// Checks that a bucket exists and is accessible.
    ///
    /// - Parameters:
    ///   - bucket: The bucket name.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The bucket's region, when the service reports it.
    /// - Throws: ``ServiceError`` with ``ServiceError/Code/noSuchBucket`` (404) or
    ///   ``ServiceError/Code/forbidden`` (403): HEAD answers have no body.
    @discardableResult
    public func headBucket(bucket: String, logger: Logger? = nil) async throws -> String? {
        let operation = OperationRequest(name: "HeadBucket", method: .HEAD, bucket: bucket)
        let response = try await self.execute(operation, logger: logger)
        return response.headers.first(name: "x-oss-bucket-region") ?? response.headers.first(
            name: "x-amz-bucket-region"
        )
            ?? response.headers.first(name: "x-obs-bucket-location")
    }
}

extension TransportResponse {
    /// Reads the body (a small XML document) and parses it.
    func xml(operation: String) async throws -> XMLNode {
        let buffer = try await self.body.collect(upTo: 16 << 20)
        let bytes = Array(buffer.readableBytesView)
        if let error = ServiceError.embedded(in: bytes, headers: self.headers) { throw error }
        do {
            return try XMLNode.parse(bytes)
        } catch {
            throw ObjectStorageError.invalidResponse("\(operation): \(error)")
        }
    }
}
