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

/// Canned ACLs of buckets (`?acl`, and `x-*-acl` at creation) and objects (`?acl` of a key, and the write's
/// `x-*-acl` / `x-oss-object-acl`): kept by name, answered in each dialect's form (OSS the name, S3 and OBS the
/// grants it amounts to). Only canned ACLs: a grants document or `x-*-grant-*` headers are refused 501. ACLs are
/// kept, never enforced.
extension RequestHandler {
    static let aclSubresource = "acl"

    func getBucketAcl(_ context: Context, bucket: String) throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let stored = try store.document(bucket, Self.aclSubresource)?.text
        let name = Self.cannedName(stored, default: "private", dialect: context.dialect, object: false)
        let document = ACLDocument(canned: name, ownerID: Self.ownerID, vendor: context.dialect, object: false)
        return Self.aclReply(document, context: context)
    }

    func putBucketAcl(_ context: Context, bucket: String, body: RequestBody) async throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let name = try await Self.requestedACL(context, body: body, handler: self, object: false)
        try store.setDocument(
            bucket,
            Self.aclSubresource,
            BucketDocument(dialect: context.dialect, bytes: Array(name.utf8))
        )
        return Reply()
    }

    func getObjectAcl(_ context: Context, bucket: String, key: String) throws -> Reply {
        let metadata = try store.object(bucket, key, versionID: context.request.queryValue("versionId"))
        let dialect = context.dialect
        let name = Self.cannedName(
            metadata.acl,
            default: dialect.kind == .oss ? "default" : "private",
            dialect: dialect,
            object: true
        )
        var document = ACLDocument(canned: name, ownerID: Self.ownerID, vendor: dialect, object: true)
        // OBS: an object without an ACL of its own follows its bucket's.
        if dialect.kind == .obs { document.delivered = metadata.acl == nil }
        var reply = Self.aclReply(document, context: context)
        reply.headers += Self.versionHeaders(metadata.versionID, context: context)
        return reply
    }

    func putObjectAcl(_ context: Context, bucket: String, key: String, body: RequestBody) async throws -> Reply {
        let versionID = context.request.queryValue("versionId")
        let metadata = try store.object(bucket, key, versionID: versionID)
        let name = try await Self.requestedACL(context, body: body, handler: self, object: true)
        try store.setACL(bucket, key, versionID: versionID, name)
        return Reply(headers: Self.versionHeaders(metadata.versionID, context: context))
    }

    /// The header that carries a canned ACL: `x-oss-acl` (a bucket) or `x-oss-object-acl` (an object) on OSS,
    /// `x-amz-acl` and `x-obs-acl` elsewhere.
    static func aclHeader(_ dialect: StorageVendor, object: Bool) -> String {
        dialect.kind == .oss ? (object ? "x-oss-object-acl" : "x-oss-acl") : dialect.headerPrefix + "acl"
    }

    /// The canned ACL a request names, when the dialect's service takes it; nil when it names none.
    ///
    /// - Throws: `InvalidArgument` for a name the service does not take.
    static func cannedACL(in context: Context, object: Bool) throws(ServerError) -> String? {
        let header = Self.aclHeader(context.dialect, object: object)
        guard let value = context.request.header(header)?.trimmingWhitespace() else { return nil }
        guard ACLDocument.cannedNames(for: context.dialect, object: object).contains(value) else {
            throw ServerError.unknownCannedACL(value, header: header, dialect: context.dialect, object: object)
        }
        return value
    }

    /// The canned ACL of a `PUT ?acl`: its header; a grants document or `x-*-grant-*` header is refused 501, and a
    /// request with neither as the service refuses it.
    private static func requestedACL(
        _ context: Context,
        body: RequestBody,
        handler: RequestHandler,
        object: Bool
    ) async throws -> String {
        let dialect = context.dialect
        let document = try await handler.collect(body, context: context)
        if !document.isEmpty
            || context.request.headers.contains(where: { $0.lowercasedName.hasPrefix(dialect.headerPrefix + "grant-") })
        {
            throw ServerError.notImplemented("an access control list given as grants; this server keeps canned ACLs")
        }
        guard let name = try Self.cannedACL(in: context, object: object) else {
            let header = Self.aclHeader(dialect, object: object)
            if dialect.kind == .oss {
                throw ServerError.unknownCannedACL("", header: header, dialect: dialect, object: object)
            }
            throw ServerError(
                status: 400,
                code: "MissingSecurityHeader",
                message: "Your request was missing a required header",
                details: [("MissingHeaderName", header)]
            )
        }
        return name
    }

    /// The canned ACL to answer for `stored` (put in any dialect) in `dialect`: the stored one when the dialect
    /// takes it, OBS's `-delivered` ones as their plain forms elsewhere, `fallback` otherwise.
    private static func cannedName(
        _ stored: String?,
        default fallback: String,
        dialect: StorageVendor,
        object: Bool
    ) -> String {
        let names = ACLDocument.cannedNames(for: dialect, object: object)
        guard let stored else { return fallback }
        if names.contains(stored) { return stored }
        if stored.hasSuffix("-delivered"), case let plain = String(stored.dropLast("-delivered".count)),
            names.contains(plain)
        {
            return plain
        }
        return fallback
    }

    private static func aclReply(_ document: ACLDocument, context: Context) -> Reply {
        Reply(
            headers: [("Content-Type", "application/xml")],
            body: .bytes(
                ByteBuffer(bytes: document.document(for: context.dialect, namespace: context.dialect.xmlNamespace))
            )
        )
    }
}
