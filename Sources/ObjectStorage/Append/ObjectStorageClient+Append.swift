//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageSigning
import ObjectStorageTransport

/// Appends: OSS's AppendObject and OBS's appendable objects, `POST /key?append&position=N`. The first append
/// (position 0, on a key without an object) creates an appendable object; each later one must name the object's
/// length, or the service refuses it (``ServiceError/Code/positionNotEqualToLength``, with
/// ``ServiceError/nextAppendPosition``). An object a PUT, a copy or a multipart upload made is not appendable
/// (``ServiceError/Code/objectNotAppendable``), and a PUT over an appendable object makes a normal one. S3 has no
/// append: the calls throw ``ObjectStorageError/Code/unsupported`` there before sending anything.
extension ObjectStorageClient {
    /// Appends `body` to an object at `position`, in one request sent once.
    ///
    /// An append is not idempotent, and its answer can be lost after the service applied it: this call does not
    /// retry, and says only what the answer says. ``AppendWriter`` keeps the position and the object's CRC-64 from one
    /// append to the next, and settles a lost answer by reading the object back.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// let first = try await client.appendObject(bucket: "logs", key: "app.log", position: 0,
    ///                                           body: .bytes(Array("started\n".utf8)))
    /// _ = try await client.appendObject(bucket: "logs", key: "app.log", position: first.nextPosition,
    ///                                   body: .bytes(Array("ready\n".utf8)))
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - position: The object's length (0 to create it).
    ///   - body: The bytes to append; `Content-MD5` is sent with bytes and files, which the service checks.
    ///   - attributes: The object's attributes, which the services take from the append that creates it only.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The next position, the object's CRC-64 when the service reports it (checked against the bytes sent
    ///   at position 0, where the object held nothing before), the ETag.
    /// - Throws: ``ObjectStorageError/Code/unsupported`` on S3; ``ObjectStorageError/Code/invalidArgument`` for a
    ///   negative position; ``ServiceError`` (``ServiceError/Code/positionNotEqualToLength`` with
    ///   ``ServiceError/nextAppendPosition``, ``ServiceError/Code/objectNotAppendable``);
    ///   ``/ObjectStorageTransport/TransportError``.
    public func appendObject(
        bucket: String,
        key: String,
        position: Int64,
        body: UploadBody,
        attributes: UploadAttributes = UploadAttributes(),
        logger: Logger? = nil
    ) async throws -> AppendResult {
        try self.checkAppendSupported()
        let chunk = try await AppendChunk(body)
        return try await self.sendAppend(
            bucket: bucket,
            key: key,
            position: position,
            chunk: chunk,
            precedingCRC64: position == 0 ? 0 : nil,
            attributes: attributes,
            logger: logger
        )
    }

    /// A writer that appends after the object's current bytes, creating the object when the key has none: a HEAD
    /// learns its length and (OSS) its CRC-64.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// var log = try await client.appendWriter(bucket: "logs", key: "app.log")
    /// try await log.append(.bytes(Array("ready\n".utf8)))
    /// print("the log is \(log.position) bytes")
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The writer, at the object's length.
    /// - Throws: ``ObjectStorageError/Code/unsupported`` on S3; ``ServiceError`` other than a missing key.
    public func appendWriter(bucket: String, key: String, logger: Logger? = nil) async throws -> AppendWriter {
        try self.checkAppendSupported()
        let head: ObjectAttributes
        do {
            head = try await self.headObject(bucket: bucket, key: key, logger: logger)
        } catch let error as ServiceError where error.code == .noSuchKey {
            return AppendWriter(client: self, bucket: bucket, key: key)
        }
        guard let length = head.contentLength else {
            throw ObjectStorageError.invalidResponse("HeadObject of an object to append to answered no Content-Length")
        }
        return AppendWriter(
            client: self,
            bucket: bucket,
            key: key,
            position: length,
            crc64: self.configuration.vendor == .oss ? head.crc64 : nil
        )
    }

    /// Refuses an append on S3, which has none.
    func checkAppendSupported() throws(ObjectStorageError) {
        guard self.configuration.vendor != .s3 else {
            throw .unsupported(
                "S3 has no AppendObject: appends are OSS's and OBS's (S3 Express One Zone appends with a write "
                    + "offset on PutObject, which is another API); upload the whole object, or use OSS or OBS"
            )
        }
    }

    /// Sends one append, once, and reads its answer; with the CRC-64 of the object's bytes before `position`, the
    /// CRC-64 the service reports of the whole object (OSS) is checked against it combined with the chunk's.
    func sendAppend(
        bucket: String,
        key: String,
        position: Int64,
        chunk: AppendChunk,
        precedingCRC64: UInt64?,
        attributes: UploadAttributes,
        logger: Logger?
    ) async throws -> AppendResult {
        guard position >= 0 else { throw ObjectStorageError.invalidArgument("an append's position is not negative") }
        var operation = OperationRequest(name: "AppendObject", method: .POST, bucket: bucket, key: key)
        operation.query = [
            QueryParameter(name: "append", value: nil), QueryParameter(name: "position", value: String(position)),
        ]
        try self.add(attributes, to: &operation)
        operation.header("Content-MD5", chunk.contentMD5)
        operation.body = chunk.body
        let expected = precedingCRC64.flatMap { preceding in
            chunk.crc64.map { CRC64.combine(preceding, $0, lengthOfSecond: UInt64(chunk.count ?? 0)) }
        }
        let prefix = self.configuration.headerPrefix
        let vendor = self.configuration.vendor
        // The service's CRC-64 is the whole object's, not the body's: it is checked here, against `expected`.
        return try await self.send(operation, logger: logger, retries: false, checksUploadCRC: false) { response in
            let result = try AppendResult(
                headers: response.headers,
                prefix: prefix,
                vendor: vendor,
                position: position,
                count: chunk.count
            )
            _ = try? await response.body.collect(upTo: 1 << 16)
            if let expected, let reported = result.crc64, reported != expected {
                throw ObjectStorageError.integrityMismatch(
                    checksum: "CRC-64/XZ",
                    expected: String(reported),
                    actual: String(expected),
                    operation: "AppendObject"
                )
            }
            return result
        }
    }
}

/// The bytes of one append, with what the client knows of them before sending: their length, CRC-64/XZ and MD5
/// (for bytes and files; a stream's length only when it says).
struct AppendChunk: Sendable {
    var body: UploadBody
    var count: Int64?
    var crc64: UInt64?
    var contentMD5: String?

    init(_ body: UploadBody) async throws {
        let resolved = try body.resolved()
        self.body = resolved
        switch resolved.storage {
        case .bytes(let buffer):
            self.count = Int64(buffer.readableBytes)
            self.crc64 = CRC64.checksum(buffer.readableBytesView)
            self.contentMD5 = ByteEncoding.base64(Hashing.MD5.hash(buffer.readableBytesView))
        case .file(let path, let offset, let length):
            let count = length ?? 0
            let digest = try await BlockingIO.run {
                try FileRegionDigest.compute(path: path, range: offset..<(offset + count))
            }
            self.count = count
            self.crc64 = digest.crc64
            self.contentMD5 = digest.md5Base64
        case .stream(let stream):
            self.count = stream.length
        }
    }
}
