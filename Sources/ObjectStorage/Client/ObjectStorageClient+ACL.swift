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

/// Canned ACLs of buckets and objects: read the list (and the canned ACL it amounts to), set one by name.
extension ObjectStorageClient {
    /// Reads a bucket's access control list.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// let acl = try await client.getBucketACL(bucket: "site")
    /// if acl.cannedACL == .publicRead { print("anyone may list the bucket") }
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The list; its ``AccessControlPolicy/cannedACL`` is `nil` when its grants are no canned ACL's.
    /// - Throws: ``ServiceError`` (`NoSuchBucket`), ``ObjectStorageError/Code/invalidResponse`` for an answer that
    ///   is not an access control list.
    public func getBucketACL(bucket: String, logger: Logger? = nil) async throws -> AccessControlPolicy {
        var operation = OperationRequest(name: "GetBucketAcl", method: .GET, bucket: bucket)
        operation.query = [QueryParameter(name: "acl", value: nil)]
        return try await self.readACL(operation, object: false, logger: logger)
    }

    /// Sets a bucket's canned ACL.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - acl: The canned ACL; see ``ObjectACL`` for which each vendor takes on a bucket.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a canned ACL the vendor does not take on a
    ///   bucket, before anything is sent; ``ServiceError``.
    public func putBucketACL(bucket: String, _ acl: ObjectACL, logger: Logger? = nil) async throws {
        var operation = OperationRequest(name: "PutBucketAcl", method: .PUT, bucket: bucket)
        operation.query = [QueryParameter(name: "acl", value: nil)]
        let prefix = self.configuration.headerPrefix
        operation.header(prefix == "x-oss-" ? "x-oss-acl" : prefix + "acl", try self.checked(acl, object: false))
        try await self.executeDraining(operation, logger: logger)
    }

    /// Reads an object's access control list.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - versionID: A specific version; `nil` for the current one.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The list; on OSS an object that follows its bucket's ACL answers ``ObjectACL/ossDefault``.
    /// - Throws: ``ServiceError`` (`NoSuchKey`), ``ObjectStorageError/Code/invalidResponse`` for an answer that is
    ///   not an access control list.
    public func getObjectACL(
        bucket: String,
        key: String,
        versionID: String? = nil,
        logger: Logger? = nil
    ) async throws -> AccessControlPolicy {
        var operation = OperationRequest(name: "GetObjectAcl", method: .GET, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "acl", value: nil)]
        operation.query("versionId", versionID)
        return try await self.readACL(operation, object: true, logger: logger)
    }

    /// Sets an object's canned ACL.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// try await client.putObjectACL(bucket: "site", key: "index.html", .publicRead)
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - acl: The canned ACL; see ``ObjectACL`` for which each vendor takes on an object.
    ///   - versionID: A specific version; `nil` for the current one.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a canned ACL the vendor does not take on an
    ///   object, before anything is sent; ``ServiceError`` (`NoSuchKey`).
    public func putObjectACL(
        bucket: String,
        key: String,
        _ acl: ObjectACL,
        versionID: String? = nil,
        logger: Logger? = nil
    ) async throws {
        var operation = OperationRequest(name: "PutObjectAcl", method: .PUT, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "acl", value: nil)]
        operation.query("versionId", versionID)
        let prefix = self.configuration.headerPrefix
        operation.header(prefix == "x-oss-" ? "x-oss-object-acl" : prefix + "acl", try self.checked(acl, object: true))
        try await self.executeDraining(operation, logger: logger)
    }

    /// `acl`'s name, when the vendor takes it on a bucket or an object.
    private func checked(_ acl: ObjectACL, object: Bool) throws(ObjectStorageError) -> String {
        let vendor = self.configuration.vendor
        let names = ACLDocument.cannedNames(for: vendor, object: object)
        guard names.contains(acl.rawValue) else {
            throw .invalidArgument(
                "'\(acl.rawValue)' is not a canned ACL \(vendor.name) takes on \(object ? "an object" : "a bucket"); "
                    + "it takes \(names.joined(separator: ", "))"
            )
        }
        return acl.rawValue
    }

    private func readACL(
        _ operation: OperationRequest,
        object: Bool,
        logger: Logger?
    ) async throws -> AccessControlPolicy {
        let (_, root) = try await self.executeXML(operation, logger: logger)
        do {
            return AccessControlPolicy(
                try ACLDocument(document: root),
                vendor: self.configuration.vendor,
                object: object
            )
        } catch {
            throw ObjectStorageError.invalidResponse(
                "\(operation.name) answered a document the client cannot read: \(error)"
            )
        }
    }
}
