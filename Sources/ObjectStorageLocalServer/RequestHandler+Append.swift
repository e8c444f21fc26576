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

/// AppendObject, OSS's and OBS's `POST /key?append&position=N` (S3 has none: the request stays an unknown POST
/// there, 400 `MalformedPOSTRequest` as a POST without a form).
///
/// The first append (position 0 on a key without an object) creates an appendable object with the request's
/// attributes; each later one must name the object's length and adds its bytes, keeping the attributes. The answer
/// and every HEAD or GET of the object name the next position (`x-oss-next-append-position`,
/// `x-obs-next-append-position`) and the type (`x-oss-object-type: Appendable`; OBS's `x-obs-object-type`); in the
/// OSS dialect the answer's `x-oss-hash-crc64ecma` is the CRC-64 of the whole object, as OSS reports it. Refusals:
/// 409 `PositionNotEqualToLength` with the expected position in the next-position header, 409 `ObjectNotAppendable`
/// for an object a PUT, a copy, a multipart upload or PutSymlink made, 400 `InvalidArgument` for a missing or
/// malformed position, 400 `EntityTooLarge` past 5 GiB in all. A PUT over an appendable object makes a normal one.
///
/// The object's bytes are rewritten in one piece at each append, so its ETag stays the MD5 of its bytes (which the
/// services do not promise of an appendable object: clients check its CRC-64).
extension RequestHandler {
    func appendObject(_ context: Context, bucket: String, key: String, body: RequestBody) async throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let dialect = context.dialect
        let position = try Self.appendPosition(context.request)
        let maximum = dialect.maximumSinglePutSize
        // Refused before a byte of the body is read: what the key holds, and an announced length past the limit.
        if let announced = context.request.header("content-length").flatMap({ Int64($0.trimmingWhitespace()) }),
            position > maximum || announced > maximum - position
        {
            throw ServerError.entityTooLarge(
                size: position.addingReportingOverflow(announced).partialValue,
                maximum: maximum
            )
        }
        _ = try store.appendBase(bucket, key, position: position, dialect: dialect)
        let chunk = try await receive(body, context: context, temporaryPath: store.temporaryPath())
        let (metadata, blob, base): (ObjectMetadata, Blob, ObjectMetadata?)
        do {
            (metadata, blob, base) = try await appending(chunk, to: bucket, key: key, position: position, context)
        } catch {
            for path in chunk.blob.paths { FileIO.remove(path) }
            throw error
        }
        // The chunk's files are the new object's, or were copied into them.
        if base != nil { for path in chunk.blob.paths { FileIO.remove(path) } }
        let versionID = try store.commitAppend(
            bucket,
            metadata: metadata,
            blob: blob,
            base: base,
            position: position,
            dialect: dialect
        )
        var headers = [("ETag", dialect.formatETag(metadata.etag))]
        headers += Self.versionHeaders(versionID, context: context)
        headers.append((dialect.headerPrefix + "next-append-position", String(metadata.size)))
        if dialect.kind == .oss { headers.append(("x-oss-hash-crc64ecma", String(metadata.crc64))) }
        // An OBS client that sent the appended bytes' CRC-64 has it checked (by receive) and repeated.
        headers += OBSChecksum.headers(chunk.obsChecksum, context: context)
        return Reply(headers: headers)
    }

    /// The `position` of an append: a length, decimal digits only.
    ///
    /// - Throws: 400 `InvalidArgument` when it is missing or not a length.
    static func appendPosition(_ request: IncomingRequest) throws(ServerError) -> Int64 {
        guard let text = request.queryValue("position") else { throw .invalidAppendPosition(nil) }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }), let position = Int64(text) else {
            throw .invalidAppendPosition(text)
        }
        return position
    }

    /// The object `chunk` makes at `position`: the chunk itself for a new object (with the request's attributes),
    /// or the current object's bytes followed by the chunk's, written as a new blob (the chunk's files are left to the
    /// caller). Also returns the object extended (`nil` for a new one), which the commit checks is still the key's.
    private func appending(
        _ chunk: ReceivedBody,
        to bucket: String,
        key: String,
        position: Int64,
        _ context: Context
    ) async throws -> (ObjectMetadata, Blob, base: ObjectMetadata?) {
        guard let base = try store.appendBase(bucket, key, position: position, dialect: context.dialect) else {
            var metadata = Self.singlePartMetadata(
                key: key,
                size: chunk.size,
                md5: chunk.md5,
                crc64: chunk.crc64,
                crc64nvme: chunk.crc64nvme,
                attributes: try attributes(context),
                context: context
            )
            metadata.objectType = .appendable
            return (metadata, chunk.blob, nil)
        }
        let maximum = context.dialect.maximumSinglePutSize
        guard chunk.size <= maximum - base.metadata.size else {
            var error = ServerError.entityTooLarge(size: base.metadata.size + chunk.size, maximum: maximum)
            error.headers.removeAll()
            throw error
        }
        let writer = try BlobWriter(
            temporaryPath: store.temporaryPath(),
            computeSHA256: false,
            expectedSize: base.metadata.size + chunk.size
        )
        let blob: Blob
        let md5: [UInt8]
        do {
            try await Self.copy(base.reader, length: base.metadata.size, into: writer)
            try await Self.copy(try BlobReader(chunk.blob), length: chunk.size, into: writer)
            md5 = writer.md5Digest
            blob = try await writer.finish()
        } catch {
            await writer.abandon()
            throw error
        }
        var metadata = base.metadata
        metadata.size = writer.count
        metadata.etag = ByteEncoding.hex(md5)
        metadata.crc64 = writer.crc.value
        metadata.crc64nvme = writer.crcNVME.value
        metadata.obsChecksum = nil
        metadata.dataFiles = nil
        metadata.lastModified = context.now
        metadata.lastModifiedMilliseconds = context.nowMilliseconds
        return (metadata, blob, base.metadata)
    }

    /// Writes the first `length` bytes of `reader` to `writer`, a MiB at a time, read on NIO's thread pool.
    private static func copy(_ reader: BlobReader, length: Int64, into writer: BlobWriter) async throws {
        let allocator = ByteBufferAllocator()
        var offset: Int64 = 0
        while offset < length {
            let (at, count) = (offset, Int(min(1 << 20, length - offset)))
            let buffer = try await FileIO.startBlocking {
                try reader.read(offset: at, count: count, allocator: allocator)
            }.value
            guard buffer.readableBytes > 0 else { throw ServerError.internalError("cannot read the object data") }
            try await writer.write(buffer)
            offset += Int64(buffer.readableBytes)
        }
    }
}
