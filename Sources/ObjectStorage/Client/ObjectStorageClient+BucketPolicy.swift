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

/// A bucket's policy: the JSON document, in the vendor's own grammar, that grants or denies access to the bucket
/// and its objects. The calls take and return the text as it is; before sending, the client checks that it is a
/// policy document at all (JSON, a `Statement` list, OSS's `Version`, the vendor's size limit), not what its
/// statements mean, which differs per vendor.
extension ObjectStorageClient {
    /// Reads a bucket's policy.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The policy's JSON as the service answers it; `nil` when the bucket has none (the services'
    ///   `NoSuchBucketPolicy`).
    /// - Throws: ``ServiceError`` (`NoSuchBucket`), ``ObjectStorageError/Code/invalidResponse`` for an answer that
    ///   is not UTF-8 text.
    public func getBucketPolicy(bucket: String, logger: Logger? = nil) async throws -> String? {
        var operation = OperationRequest(name: "GetBucketPolicy", method: .GET, bucket: bucket)
        operation.query = [QueryParameter(name: "policy", value: nil)]
        let bytes: [UInt8]
        do {
            bytes = try await self.send(operation, logger: logger) { response in
                Array(try await response.body.collect(upTo: 1 << 20).readableBytesView)
            }
        } catch let error as ServiceError where error.code == "NoSuchBucketPolicy" {
            return nil
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ObjectStorageError.invalidResponse("GetBucketPolicy answered a document that is not UTF-8 text")
        }
        return text
    }

    /// Replaces a bucket's policy.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// let policy = """
    ///     {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*",
    ///      "Action": "s3:GetObject", "Resource": "arn:aws:s3:::site/*"}]}
    ///     """
    /// try await client.putBucketPolicy(bucket: "site", policy)
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - policyJSON: The policy, in the vendor's grammar (S3 `"Version": "2012-10-17"` and ARNs, OSS
    ///     `"Version": "1"` and `acs:oss:` resources, OBS `Principal: {"ID": [...]}`); sent as it is.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a text the service would refuse as a document,
    ///   naming what is wrong: not JSON (with the parser's line and column), not an object, no `Statement` list or
    ///   an empty one, a statement without `Effect` (`Allow` or `Deny`) or `Action`, on OSS a `Version` other
    ///   than `"1"`, more than the vendor keeps (20 KiB on S3 without whitespace, 16 KiB on OSS, 20 KiB on OBS);
    ///   checked before anything is sent. ``ServiceError`` (`MalformedPolicy` and the like, for statements the
    ///   service does not accept).
    public func putBucketPolicy(bucket: String, _ policyJSON: String, logger: Logger? = nil) async throws {
        let bytes = Array(policyJSON.utf8)
        if let violation = BucketPolicyRules.violation(in: bytes, for: self.configuration.vendor) {
            throw ObjectStorageError.invalidArgument("\(violation)")
        }
        var operation = OperationRequest(name: "PutBucketPolicy", method: .PUT, bucket: bucket)
        operation.query = [QueryParameter(name: "policy", value: nil)]
        operation.header("Content-Type", "application/json")
        operation.header("Content-MD5", ByteEncoding.base64(Hashing.MD5.hash(bytes)))
        operation.body = .bytes(bytes)
        try await self.executeDraining(operation, logger: logger)
    }

    /// Removes a bucket's policy.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ServiceError``.
    public func deleteBucketPolicy(bucket: String, logger: Logger? = nil) async throws {
        var operation = OperationRequest(name: "DeleteBucketPolicy", method: .DELETE, bucket: bucket)
        operation.query = [QueryParameter(name: "policy", value: nil)]
        try await self.executeDraining(operation, logger: logger)
    }
}
