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

/// Object tags: read, replace and remove the tags of an object (``UploadAttributes/tags`` sets them at write time).
/// The same calls and limits for the three vendors; changing tags leaves the object's ETag and modification time
/// as they are.
extension ObjectStorageClient {
    /// Reads an object's tags.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// let tags = try await client.getObjectTagging(bucket: "photos", key: "cat.jpg")
    /// if tags["retention"] == "30d" { print("kept for 30 days") }
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - versionID: A specific version; `nil` for the current one.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The tags, empty when the object has none.
    /// - Throws: ``ServiceError`` (`NoSuchKey` for a missing object), ``ObjectStorageError`` for an answer
    ///   that is not a tag set.
    public func getObjectTagging(
        bucket: String,
        key: String,
        versionID: String? = nil,
        logger: Logger? = nil
    ) async throws -> [String: String] {
        var operation = OperationRequest(name: "GetObjectTagging", method: .GET, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "tagging", value: nil)]
        operation.query("versionId", versionID)
        let (_, root) = try await self.executeXML(operation, logger: logger)
        guard root.name == "Tagging" else {
            throw ObjectStorageError.invalidResponse("GetObjectTagging answered <\(root.name)>, not <Tagging>")
        }
        var tags: [String: String] = [:]
        for tag in root.child("TagSet")?.children("Tag") ?? [] {
            guard let key = tag["Key"] else {
                throw ObjectStorageError.invalidResponse("GetObjectTagging answered a tag without a key")
            }
            tags[key] = tag["Value"] ?? ""
        }
        return tags
    }

    /// Replaces an object's tags with `tags` (an empty set removes them all).
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - tags: The tags; see ``UploadAttributes/tags`` for the limits, checked before anything is sent.
    ///   - versionID: A specific version; `nil` for the current one.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for tags beyond the vendor's limits; ``ServiceError``
    ///   (`NoSuchKey` for a missing object).
    public func putObjectTagging(
        bucket: String,
        key: String,
        tags: [String: String],
        versionID: String? = nil,
        logger: Logger? = nil
    ) async throws {
        let body = try self.taggingDocument(tags)
        var operation = OperationRequest(name: "PutObjectTagging", method: .PUT, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "tagging", value: nil)]
        operation.query("versionId", versionID)
        operation.xmlBody(body)
        try await self.executeDraining(operation, logger: logger)
    }

    /// Removes all of an object's tags.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - versionID: A specific version; `nil` for the current one.
    ///   - logger: The logger (the client's when `nil`).
    /// - Throws: ``ServiceError`` (`NoSuchKey` for a missing object).
    public func deleteObjectTagging(
        bucket: String,
        key: String,
        versionID: String? = nil,
        logger: Logger? = nil
    ) async throws {
        var operation = OperationRequest(name: "DeleteObjectTagging", method: .DELETE, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "tagging", value: nil)]
        operation.query("versionId", versionID)
        try await self.executeDraining(operation, logger: logger)
    }

    /// `tags` in key order, checked against the vendor's limits.
    func checkedTags(_ tags: [String: String]) throws(ObjectStorageError) -> [(key: String, value: String)] {
        let pairs = tags.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        if let violation = ObjectTagRules(vendor: self.configuration.vendor).violation(in: pairs) {
            throw .invalidArgument("cannot set these tags: \(violation)")
        }
        return pairs
    }

    /// The `<Tagging>` document of `tags`, checked against the vendor's limits.
    func taggingDocument(_ tags: [String: String]) throws(ObjectStorageError) -> [UInt8] {
        var xml = XMLWriter()
        xml.open("Tagging")
        xml.open("TagSet")
        for (key, value) in try self.checkedTags(tags) {
            xml.element("Tag") {
                $0.element("Key", key)
                $0.element("Value", value)
            }
        }
        xml.close("TagSet")
        xml.close("Tagging")
        return xml.bytes
    }

    /// The `x-*-tagging` header for `tags`, checked against the vendor's limits.
    func taggingHeader(_ tags: [String: String]) throws(ObjectStorageError) -> String {
        ObjectTagRules.headerValue(try self.checkedTags(tags))
    }
}
