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

/// OSS symlinks: an object without bytes of its own that names another key of its bucket; a GET of it serves the
/// target's current object (404 `SymlinkTargetNotExist` when there is none). S3 and OBS have none: the calls throw
/// ``ObjectStorageError/Code/unsupported`` there before sending anything.
extension ObjectStorageClient {
    /// Makes `key` a symlink to `target` (PutSymlink), replacing what the key held. OSS checks nothing of the target
    /// here: it may not exist yet.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// try await client.putSymlink(bucket: "media", key: "latest.mp4", target: "talks/2026-11.mp4")
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The symlink's key.
    ///   - target: The key it points to, in the same bucket (sent percent-encoded, as OSS requires).
    ///   - attributes: The symlink's own attributes (media type, user metadata, ACL, storage class, tags).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The symlink's ETag and version id.
    /// - Throws: ``ObjectStorageError/Code/unsupported`` on S3 and OBS; ``ServiceError``.
    @discardableResult
    public func putSymlink(
        bucket: String,
        key: String,
        target: String,
        attributes: UploadAttributes = UploadAttributes(),
        logger: Logger? = nil
    ) async throws -> ObjectWriteResult {
        try self.checkSymlinkSupported("PutSymlink")
        try ObjectNameRules.validateObjectKey(target, for: self.configuration.vendor)
        var operation = OperationRequest(name: "PutSymlink", method: .PUT, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "symlink", value: nil)]
        operation.header(Self.symlinkTargetHeader, PercentEncoding.encode(target, style: .component))
        try self.add(attributes, to: &operation)
        let headers = try await self.executeDraining(operation, logger: logger)
        return ObjectWriteResult(
            headers: headers,
            prefix: self.configuration.headerPrefix,
            etag: headers.first(name: "ETag")
        )
    }

    /// The key a symlink points to (GetSymlink).
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The symlink's key.
    ///   - versionID: A specific version of the symlink; `nil` for the current one.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The target key, decoded.
    /// - Throws: ``ObjectStorageError/Code/unsupported`` on S3 and OBS; ``ServiceError`` (`NoSuchKey`, and
    ///   `NotSymlink` for an object that is not a symlink); ``ObjectStorageError/Code/invalidResponse`` for an answer
    ///   without a target.
    public func getSymlink(
        bucket: String,
        key: String,
        versionID: String? = nil,
        logger: Logger? = nil
    ) async throws -> String {
        try self.checkSymlinkSupported("GetSymlink")
        var operation = OperationRequest(name: "GetSymlink", method: .GET, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "symlink", value: nil)]
        operation.query("versionId", versionID)
        let headers = try await self.executeDraining(operation, logger: logger)
        guard let target = headers.first(name: Self.symlinkTargetHeader) else {
            throw ObjectStorageError.invalidResponse("GetSymlink answered without \(Self.symlinkTargetHeader)")
        }
        return PercentEncoding.decode(target) ?? target
    }

    /// The header that names a symlink's target.
    static let symlinkTargetHeader = "x-oss-symlink-target"

    /// Refuses a symlink call where the service has none.
    private func checkSymlinkSupported(_ operation: String) throws(ObjectStorageError) {
        guard self.configuration.vendor == .oss else {
            throw .unsupported(
                "\(self.configuration.vendor == .s3 ? "S3" : "OBS") has no \(operation): symlinks are OSS's; copy the object, "
                    + "or keep the target's key in the object's metadata"
            )
        }
    }
}
