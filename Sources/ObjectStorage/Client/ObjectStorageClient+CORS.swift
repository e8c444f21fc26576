//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOHTTP1
public import ObjectStorageSigning

/// A bucket's CORS rules, which browsers obey before a page on another origin may send a presigned PUT, a POST
/// form's `fetch()` or read a response. The same calls and checks for the three vendors.
extension ObjectStorageClient {
    /// Reads a bucket's CORS configuration.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The configuration; `nil` when the bucket has none (the services' `NoSuchCORSConfiguration`).
    /// - Throws: ``ServiceError`` (`NoSuchBucket`), ``ObjectStorageError/Code/invalidResponse`` for an answer that
    ///   is not a CORS configuration.
    public func getBucketCORS(bucket: String, logger: Logger? = nil) async throws -> CORSConfiguration? {
        var operation = OperationRequest(name: "GetBucketCors", method: .GET, bucket: bucket)
        operation.query = [QueryParameter(name: "cors", value: nil)]
        let root: XMLNode
        do {
            (_, root) = try await self.executeXML(operation, logger: logger)
        } catch let error as ServiceError where error.code == "NoSuchCORSConfiguration" {
            return nil
        }
        do {
            return try CORSConfiguration(document: root)
        } catch {
            throw ObjectStorageError.invalidResponse(
                "GetBucketCors answered a document the client cannot read: \(error)"
            )
        }
    }

    /// Replaces a bucket's CORS configuration.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// let rule = CORSRule(
    ///     allowedOrigins: ["https://app.example.com"],
    ///     allowedMethods: ["PUT", "POST"],
    ///     allowedHeaders: ["*"],
    ///     exposeHeaders: ["ETag"],
    ///     maxAgeSeconds: 600
    /// )
    /// try await client.putBucketCORS(bucket: "uploads", CORSConfiguration(rules: [rule]))
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - configuration: The rules, tried in order; see ``/ObjectStorageSigning/CORSRule`` for what each may hold.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a configuration the vendor would refuse (no rule,
    ///   more than it keeps: 10 on OSS, 100 on S3 and OBS; a rule without an origin or a method, an unknown method,
    ///   a second `*`), ``ObjectStorageError/Code/unsupported`` for ``/ObjectStorageSigning/CORSConfiguration/responseVary`` outside OSS,
    ///   both before anything is sent; ``ServiceError``.
    public func putBucketCORS(bucket: String, _ configuration: CORSConfiguration, logger: Logger? = nil) async throws {
        let vendor = self.configuration.vendor
        if configuration.responseVary != nil, vendor.kind != .oss {
            throw ObjectStorageError.unsupported("\(vendor.name) has no ResponseVary setting; only OSS does")
        }
        if let violation = configuration.violation(for: vendor) {
            throw ObjectStorageError.invalidArgument("\(violation)")
        }
        let body = configuration.document(for: vendor)
        guard body.count <= CORSConfiguration.maximumDocumentSize(for: vendor) else {
            throw ObjectStorageError.invalidArgument(
                "the CORS configuration is \(body.count) bytes of XML, more than the "
                    + "\(CORSConfiguration.maximumDocumentSize(for: vendor) >> 10) KiB \(vendor.name) accepts"
            )
        }
        var operation = OperationRequest(name: "PutBucketCors", method: .PUT, bucket: bucket)
        operation.query = [QueryParameter(name: "cors", value: nil)]
        operation.xmlBody(body)
        try await self.executeDraining(operation, logger: logger)
    }

    /// Removes a bucket's CORS configuration: browsers then refuse every cross-origin request to it.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ServiceError``.
    public func deleteBucketCORS(bucket: String, logger: Logger? = nil) async throws {
        var operation = OperationRequest(name: "DeleteBucketCors", method: .DELETE, bucket: bucket)
        operation.query = [QueryParameter(name: "cors", value: nil)]
        try await self.executeDraining(operation, logger: logger)
    }
}
