//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// A write's condition on the object it replaces, in the dialect that sent it, checked by ``ObjectStore/commit(_:metadata:blob:condition:conflict:)``
/// under the store's lock so that two writers cannot both pass it:
///
/// - S3: `If-None-Match: *` (create-only) and `If-Match: ETAG` (compare-and-swap) on PutObject, CopyObject and
///   CompleteMultipartUpload; a condition that does not hold answers 412 `PreconditionFailed`, an `If-Match` on a
///   missing key 404 `NoSuchKey`, as S3 documents. `If-None-Match` with anything but `*` is refused (501).
/// - OSS: `x-oss-forbid-overwrite: true` on PutObject, CopyObject, InitiateMultipartUpload and
///   CompleteMultipartUpload; an existing key answers 409 `FileAlreadyExists`. A value other than `true` or
///   `false` is refused (400 `InvalidArgument`), as OSS does. OSS has no If-Match on writes: it is ignored.
/// - OBS documents no conditional write: every such header is ignored, as the service ignores headers it does not
///   know.
struct WriteCondition: Sendable {
    enum Kind: Sendable {
        case absent
        case match(String)
    }

    var kinds: [Kind]
    var dialect: StorageVendor

    /// The request's condition in its dialect, `nil` when it carries none the dialect knows.
    ///
    /// - Throws: A malformed value, as the service refuses it.
    init?(_ request: IncomingRequest, dialect: StorageVendor) throws(ServerError) {
        self.dialect = dialect
        self.kinds = []
        switch dialect.kind {
        case .s3:
            if let ifMatch = request.header("If-Match") {
                self.kinds.append(.match(ETagMatching.normalize(ifMatch)))
            }
            if let ifNoneMatch = request.header("If-None-Match") {
                guard ifNoneMatch.trimmingWhitespace() == "*" else {
                    throw .notImplemented("If-None-Match with a value other than * on a write")
                }
                self.kinds.append(.absent)
            }
        case .oss:
            guard let value = request.header("x-oss-forbid-overwrite") else { return nil }
            switch value.trimmingWhitespace().lowercased() {
            case "true": self.kinds = [.absent]
            case "false": return nil
            default:
                var error = ServerError.invalidArgument(
                    "x-oss-forbid-overwrite must be true or false",
                    name: "x-oss-forbid-overwrite",
                    value: value
                )
                error.ossEC = "0017-00000279"
                throw error
            }
        case .obs:
            return nil
        }
        if self.kinds.isEmpty { return nil }
    }

    /// Checks the condition against the object the write would replace (`nil` when the key has none).
    ///
    /// - Throws: The dialect's answer to a condition that does not hold; `conflict` picks S3's 409
    ///   `ConditionalRequestConflict` over its 412, for a write that passed the check once and lost a race since.
    func check(_ existing: ObjectMetadata?, key: String, conflict: Bool = false) throws(ServerError) {
        for kind in self.kinds {
            switch kind {
            case .absent:
                guard existing != nil else { continue }
                if self.dialect.kind == .oss { throw .fileAlreadyExists(key) }
                if conflict { throw .conditionalRequestConflict(key) }
                throw .preconditionFailed("If-None-Match")
            case .match(let etag):
                guard let existing else { throw .noSuchKey(key) }
                guard existing.etag == etag else {
                    if conflict { throw .conditionalRequestConflict(key) }
                    throw .preconditionFailed("If-Match")
                }
            }
        }
    }
}

extension WriteCondition {
    /// Checks a multipart upload's condition before it starts or completes (OSS checks create-only at both; S3 only
    /// at completion), so that a key written before fails the request and leaves the upload as it was. The
    /// completion checks it again, atomically, when it commits: S3 then answers a write that won in between
    /// with 409 `ConditionalRequestConflict`.
    ///
    /// - Returns: The request's condition, for the commit.
    @discardableResult
    static func checkEarly(
        _ context: RequestHandler.Context,
        bucket: String,
        key: String,
        store: ObjectStore,
        initiating: Bool = false
    ) throws(ServerError) -> WriteCondition? {
        if initiating && context.dialect.kind != .oss { return nil }
        guard let condition = try WriteCondition(context.request, dialect: context.dialect) else { return nil }
        try condition.check(try? store.object(bucket, key), key: key)
        return condition
    }
}

extension ServerError {
    /// OSS: `x-oss-forbid-overwrite: true` found the key.
    static func fileAlreadyExists(_ key: String) -> ServerError {
        ServerError(
            status: 409,
            code: "FileAlreadyExists",
            message: "The object you specified already exists and can not be overwritten.",
            details: [("Key", key)],
            ossEC: "0026-00000002"
        )
    }

    /// S3: a conditional write that passed its check lost to a concurrent write before it committed.
    static func conditionalRequestConflict(_ key: String) -> ServerError {
        ServerError(
            status: 409,
            code: "ConditionalRequestConflict",
            message: "A conflicting conditional operation is currently in progress against this resource.",
            details: [("Key", key)]
        )
    }
}
