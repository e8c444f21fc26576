//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
import ObjectStorageSigning

/// OSS's symlinks: PutSymlink (`PUT /key?symlink` with `x-oss-symlink-target`, the target key percent-encoded as
/// oss2 sends it) makes an object without bytes that names another key of its bucket; GetSymlink (`GET /key?symlink`)
/// answers the target, encoded the same way, in `x-oss-symlink-target`. As OSS does, PutSymlink checks nothing of the
/// target; a GET or HEAD of the symlink serves the target's current object (404 `SymlinkTargetNotExist` when there is
/// none, or when the target is itself a symlink, which OSS does not follow), and GetSymlink of an object that is not
/// a symlink is 400 `NotSymlink`. Only the OSS dialect routes them (OBS and S3 have no symlinks); a GET in any
/// dialect follows a symlink that OSS requests made.
extension RequestHandler {
    static let symlinkTargetHeader = "x-oss-symlink-target"

    func putSymlink(_ context: Context, bucket: String, key: String, body: RequestBody) async throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        guard let raw = context.request.header(Self.symlinkTargetHeader), !raw.isEmpty else {
            throw ServerError.invalidArgument(
                "The symlink target is missing.",
                name: Self.symlinkTargetHeader
            )
        }
        let target = IncomingRequest.decode(raw)
        guard target.utf8.count <= context.dialect.maximumKeyLength else {
            throw ServerError.keyTooLong(size: target.utf8.count, dialect: context.dialect)
        }
        let condition = try WriteCondition(context.request, dialect: context.dialect)
        // A symlink has no bytes of its own: a body is read (within the limits) and dropped.
        let received = try await receive(body, context: context, temporaryPath: store.temporaryPath())
        for path in received.blob.paths { FileIO.remove(path) }
        let writer = try BlobWriter(temporaryPath: store.temporaryPath(), computeSHA256: false)
        let md5 = writer.md5Digest
        let blob = try await writer.finish()
        var metadata = Self.singlePartMetadata(
            key: key,
            size: 0,
            md5: md5,
            crc64: 0,
            crc64nvme: 0,
            attributes: try attributes(context),
            context: context
        )
        metadata.objectType = .symlink
        metadata.symlinkTarget = target
        let versionID = try store.commit(bucket, metadata: metadata, blob: blob, condition: condition)
        var headers = [("ETag", context.dialect.formatETag(metadata.etag))]
        headers += Self.versionHeaders(versionID, context: context)
        return Reply(headers: headers)
    }

    func getSymlink(_ context: Context, bucket: String, key: String) throws -> Reply {
        let metadata = try store.object(bucket, key, versionID: context.request.queryValue("versionId"))
        guard metadata.objectType == .symlink, let target = metadata.symlinkTarget else { throw ServerError.notSymlink }
        var headers = [
            (Self.symlinkTargetHeader, PercentEncoding.encode(target, style: .component)),
            ("ETag", context.dialect.formatETag(metadata.etag)),
            ("Last-Modified", HTTPDate.imfFixdate(metadata.lastModified)),
        ]
        headers += Self.versionHeaders(metadata.versionID, context: context)
        return Reply(headers: headers)
    }

    /// The current object a symlink names in `bucket`, with its bytes open.
    ///
    /// - Throws: 404 `SymlinkTargetNotExist` when the target has no current object or is a symlink itself.
    func openSymlinkTarget(
        _ bucket: String,
        of symlink: ObjectMetadata
    ) throws(ServerError) -> (ObjectMetadata, BlobReader) {
        let target = symlink.symlinkTarget ?? ""
        let opened: (ObjectMetadata, BlobReader)
        do {
            opened = try store.openObject(bucket, target)
        } catch {
            guard error.status == 404 else { throw error }
            throw .symlinkTargetNotExist(target)
        }
        guard opened.0.objectType != .symlink else { throw .symlinkTargetNotExist(target) }
        return opened
    }
}
