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

/// A bucket's default encryption: how the service encrypts objects written without an encryption header of their
/// own (``UploadAttributes/serverSideEncryption`` still chooses for one object). The same calls for the three
/// vendors, each written in the vendor's XML.
extension ObjectStorageClient {
    /// Reads a bucket's default encryption.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The setting; `nil` when the bucket has none (S3's `ServerSideEncryptionConfigurationNotFoundError`,
    ///   OSS's `NoSuchServerSideEncryptionRule`, OBS's `NoSuchEncryptionConfiguration`). Since 2023 AWS reports
    ///   `AES256` for a bucket that was never configured.
    /// - Throws: ``ServiceError`` (`NoSuchBucket`), ``ObjectStorageError/Code/invalidResponse`` for an answer that
    ///   is not an encryption configuration.
    public func getBucketEncryption(bucket: String, logger: Logger? = nil) async throws -> BucketEncryption? {
        var operation = OperationRequest(name: "GetBucketEncryption", method: .GET, bucket: bucket)
        operation.query = [QueryParameter(name: "encryption", value: nil)]
        let root: XMLNode
        do {
            (_, root) = try await self.executeXML(operation, logger: logger)
        } catch let error as ServiceError
            where [
                "ServerSideEncryptionConfigurationNotFoundError", "NoSuchServerSideEncryptionRule",
                "NoSuchEncryptionConfiguration",
            ].contains(error.code.rawValue)
        {
            return nil
        }
        do {
            return try BucketEncryption(document: root)
        } catch {
            throw ObjectStorageError.invalidResponse(
                "GetBucketEncryption answered a document the client cannot read: \(error)"
            )
        }
    }

    /// Sets a bucket's default encryption.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// try await client.putBucketEncryption(bucket: "records", .kms(keyID: "alias/records"))
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - encryption: The algorithm and, for KMS, the key.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for an algorithm the vendor does not offer (SM4
    ///   outside OSS) or a KMS key id without KMS, before anything is sent; ``ServiceError``.
    public func putBucketEncryption(
        bucket: String,
        _ encryption: BucketEncryption,
        logger: Logger? = nil
    ) async throws {
        let vendor = self.configuration.vendor
        if let violation = encryption.violation(for: vendor) {
            throw ObjectStorageError.invalidArgument("\(violation)")
        }
        var operation = OperationRequest(name: "PutBucketEncryption", method: .PUT, bucket: bucket)
        operation.query = [QueryParameter(name: "encryption", value: nil)]
        operation.xmlBody(encryption.document(for: vendor))
        try await self.executeDraining(operation, logger: logger)
    }

    /// Removes a bucket's default encryption (on S3 since 2023, the bucket goes back to `AES256`).
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ServiceError``.
    public func deleteBucketEncryption(bucket: String, logger: Logger? = nil) async throws {
        var operation = OperationRequest(name: "DeleteBucketEncryption", method: .DELETE, bucket: bucket)
        operation.query = [QueryParameter(name: "encryption", value: nil)]
        try await self.executeDraining(operation, logger: logger)
    }
}
