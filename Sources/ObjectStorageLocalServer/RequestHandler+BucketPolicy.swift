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

/// A bucket's policy (`?policy`): kept as the JSON text that was put and answered as it is, in every dialect. The
/// document is checked as the services check it (JSON whose first byte is `{`, a `Statement` list whose
/// statements have `Effect` and an action, OSS's `Version` `"1"`, the size) but never enforced: every signed
/// request is served whatever the policy says.
extension RequestHandler {
    static let policySubresource = "policy"

    func getBucketPolicy(_ context: Context, bucket: String) throws -> Reply {
        guard let document = try store.document(bucket, Self.policySubresource) else {
            throw ServerError.noSuchBucketPolicy(bucket)
        }
        return Reply(
            status: 200,
            headers: [("Content-Type", "application/json")],
            body: .bytes(ByteBuffer(bytes: document.bytes))
        )
    }

    func putBucketPolicy(_ context: Context, bucket: String, body: RequestBody) async throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let dialect = context.dialect
        let bytes = try await collect(body, context: context)
        try DocumentIntegrity.check(bytes, context: context, required: false)
        if let violation = BucketPolicyRules.violation(in: bytes, for: dialect) {
            throw ServerError.policyViolation(violation, dialect: dialect)
        }
        try store.setDocument(bucket, Self.policySubresource, BucketDocument(dialect: dialect, bytes: bytes))
        // OSS answers 200, S3 and OBS 204 No Content.
        return Reply(status: dialect.kind == .oss ? 200 : 204)
    }

    func deleteBucketPolicy(_ context: Context, bucket: String) throws -> Reply {
        try store.setDocument(bucket, Self.policySubresource, nil)
        return Reply(status: 204)
    }
}
