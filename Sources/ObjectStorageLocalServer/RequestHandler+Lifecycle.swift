//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
import NIOCore
import ObjectStorageSigning

extension RequestHandler {
    static let lifecycleSubresource = "lifecycle"

    func getBucketLifecycle(_ context: Context, bucket: String) throws -> Reply {
        guard let document = try store.document(bucket, Self.lifecycleSubresource) else {
            throw ServerError.noSuchLifecycle(bucket, dialect: context.dialect)
        }
        return Reply(
            status: 200,
            headers: [("Content-Type", "application/xml")],
            body: .bytes(ByteBuffer(bytes: document.bytes))
        )
    }

    /// Keeps the rules as they were sent, once they parse and the dialect's service would take them (Content-MD5
    /// or an S3 checksum required by S3 and OBS). They take effect when ``LocalObjectServer/applyLifecycle(asOf:dayLength:)``
    /// runs.
    func putBucketLifecycle(_ context: Context, bucket: String, body: RequestBody) async throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let dialect = context.dialect
        let bytes = try await collect(body, context: context, limit: LifecycleConfiguration.maximumDocumentSize)
        try DocumentIntegrity.check(bytes, context: context, required: dialect.kind != .oss)
        guard let root = RequestDocument.parse(bytes) else { throw ServerError.malformedXML() }
        do throws(LifecycleViolation) {
            let configuration = try LifecycleConfiguration(document: root)
            if let violation = configuration.violation(for: dialect) { throw violation }
        } catch {
            throw ServerError.lifecycleViolation(error, dialect: dialect)
        }
        try store.setDocument(bucket, Self.lifecycleSubresource, BucketDocument(dialect: dialect, bytes: bytes))
        return Reply()
    }

    func deleteBucketLifecycle(_ context: Context, bucket: String) throws -> Reply {
        try store.setDocument(bucket, Self.lifecycleSubresource, nil)
        return Reply(status: 204)
    }
}
