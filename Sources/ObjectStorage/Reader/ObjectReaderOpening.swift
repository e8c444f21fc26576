//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageTransport

/// What opening an object learns, in one GET of its last bytes (`Range: bytes=-N`): the size (from
/// `Content-Range`), the ETag, the version id, the headers, and the tail itself.
struct ObjectReaderOpening: Sendable {
    var size: Int64
    var etag: String
    var versionID: String?
    var requestedVersionID: String?
    var attributes: ObjectAttributes
    var tail: ByteBuffer

    /// Sends the opening GET of `source`.
    static func open(
        _ source: ResumableDownloadSource,
        versionID: String?,
        client: ObjectStorageClient,
        tailSize: Int,
        logger: Logger?
    ) async throws -> ObjectReaderOpening {
        // A suffix range of 0 bytes is unsatisfiable everywhere: ask for at least one.
        let suffix = max(tailSize, 1)
        do {
            let operation = source.get(range: "bytes=-\(suffix)", ifMatch: nil, versionID: versionID)
            return try await client.send(operation, logger: logger) { response in
                try await Self.opening(response, suffix: suffix, keep: tailSize, versionID: versionID, client: client)
            }
        } catch let error as ServiceError where error.statusCode == 416 {
            // An empty object has no last byte: ask again without Range.
            let operation = source.get(range: nil, ifMatch: nil, versionID: versionID)
            return try await client.send(operation, logger: logger) { response in
                try await Self.opening(response, suffix: 0, keep: 0, versionID: versionID, client: client)
            }
        }
    }

    private static func opening(
        _ response: TransportResponse,
        suffix: Int,
        keep: Int,
        versionID: String?,
        client: ObjectStorageClient
    ) async throws -> ObjectReaderOpening {
        let headers = response.headers
        let size: Int64
        if response.status.code == 206 {
            guard let range = headers.first(name: "Content-Range").flatMap(ContentRange.init), let total = range.total,
                range.last == total - 1
            else {
                throw ObjectStorageError.invalidResponse(
                    "the opening GET's 206 has no usable Content-Range ('\(headers.first(name: "Content-Range") ?? "")')"
                )
            }
            size = total
        } else {
            // 200: the whole object, which is fine only when it is no longer than what was asked for (an object
            // shorter than the suffix, on a service that answers so); a server that ignores Range cannot be read
            // at random.
            guard let length = headers.first(name: "Content-Length").flatMap({ Int64($0) }), length >= 0,
                length <= Int64(suffix)
            else {
                throw ObjectStorageError.unsupported(
                    "the server answered a ranged GET with the whole object: it does not support Range, which random "
                        + "access needs"
                )
            }
            size = length
        }
        var tail = try await response.body.collect(upTo: max(suffix, 0))
        let expected = Int(min(size, Int64(suffix)))
        guard tail.readableBytes == expected || (suffix == 0 && tail.readableBytes == 0) else {
            throw TransportError(
                code: .connectionClosed,
                message: "the opening GET's body ended after \(tail.readableBytes) of \(expected) bytes"
            )
        }
        // Keep at most `keep` bytes (the suffix asked for one byte more only for an empty cache).
        if tail.readableBytes > keep {
            tail.moveReaderIndex(forwardBy: tail.readableBytes - keep)
            tail = tail.slice()
        }
        let versionHeader =
            headers.first(name: "x-oss-version-id") ?? headers.first(name: "x-amz-version-id")
            ?? headers.first(name: "x-obs-version-id")
        return ObjectReaderOpening(
            size: size,
            etag: headers.first(name: "ETag") ?? "",
            versionID: versionHeader ?? versionID,
            requestedVersionID: versionID,
            attributes: ObjectAttributes(headers: headers, prefix: client.configuration.headerPrefix),
            tail: tail
        )
    }
}
