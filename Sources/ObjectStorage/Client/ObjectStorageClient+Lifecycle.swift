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

extension ObjectStorageClient {
    /// Reads a bucket's lifecycle rules.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The configuration; `nil` when the bucket has none (S3 and OBS `NoSuchLifecycleConfiguration`, OSS
    ///   `NoSuchLifecycle`).
    /// - Throws: ``ServiceError`` (`NoSuchBucket`); ``ObjectStorageError/Code/invalidResponse`` for an answer that
    ///   is not a lifecycle configuration, or one with a feature ``/ObjectStorageSigning/LifecycleRule`` does not
    ///   hold (S3's size filters, OSS's access-time rules), which the error names rather than drop it.
    public func getBucketLifecycle(bucket: String, logger: Logger? = nil) async throws -> LifecycleConfiguration? {
        var operation = OperationRequest(name: "GetBucketLifecycle", method: .GET, bucket: bucket)
        operation.query = [QueryParameter(name: "lifecycle", value: nil)]
        let root: XMLNode
        do {
            (_, root) = try await self.executeXML(operation, logger: logger)
        } catch let error as ServiceError
            where error.code == "NoSuchLifecycleConfiguration" || error.code == "NoSuchLifecycle"
        {
            return nil
        }
        do {
            return try LifecycleConfiguration(document: root)
        } catch {
            throw ObjectStorageError.invalidResponse(
                "GetBucketLifecycle answered a document the client cannot read: \(error)"
            )
        }
    }

    /// Replaces a bucket's lifecycle rules.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// let rules = LifecycleConfiguration(rules: [
    ///     LifecycleRule(id: "tmp", prefix: "tmp/", expiration: .days(1)),
    ///     LifecycleRule(id: "abandoned-uploads", abortIncompleteUploads: .days(7)),
    /// ])
    /// try await client.putBucketLifecycle(bucket: "backups", rules)
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - configuration: The rules.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a configuration the vendor would refuse (no rule,
    ///   more than 1,000, a rule without an action, days that are not positive, a storage class the vendor does not
    ///   have, an expiration no later than a transition, two rules with one ID, overlapping prefixes on OBS),
    ///   ``ObjectStorageError/Code/unsupported`` for what the vendor lacks (tags and delete-marker removal on OBS, an
    ///   abort date outside OSS), both before anything is sent; ``ServiceError``.
    public func putBucketLifecycle(
        bucket: String,
        _ configuration: LifecycleConfiguration,
        logger: Logger? = nil
    ) async throws {
        let vendor = self.configuration.vendor
        switch configuration.violation(for: vendor) {
        case .unsupported(let reason): throw ObjectStorageError.unsupported(reason)
        case .some(let violation): throw ObjectStorageError.invalidArgument("\(violation)")
        case .none: break
        }
        let body = configuration.document(for: vendor)
        guard body.count <= LifecycleConfiguration.maximumDocumentSize else {
            throw ObjectStorageError.invalidArgument(
                "the lifecycle configuration is \(body.count) bytes of XML, more than the 1 MiB the services accept"
            )
        }
        var operation = OperationRequest(name: "PutBucketLifecycle", method: .PUT, bucket: bucket)
        operation.query = [QueryParameter(name: "lifecycle", value: nil)]
        operation.xmlBody(body)
        try await self.executeDraining(operation, logger: logger)
    }

    /// Removes a bucket's lifecycle rules: nothing expires, moves or is aborted any more.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ServiceError``.
    public func deleteBucketLifecycle(bucket: String, logger: Logger? = nil) async throws {
        var operation = OperationRequest(name: "DeleteBucketLifecycle", method: .DELETE, bucket: bucket)
        operation.query = [QueryParameter(name: "lifecycle", value: nil)]
        try await self.executeDraining(operation, logger: logger)
    }
}
