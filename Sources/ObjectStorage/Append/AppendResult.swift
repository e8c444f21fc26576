//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorageSigning

/// What the service says about an object it has just appended to: the answer of
/// ``ObjectStorageClient/appendObject(bucket:key:position:body:attributes:logger:)`` and ``AppendWriter/append(_:logger:)``.
public struct AppendResult: Sendable, Hashable {
    /// Where the next append goes: the object's length after this append.
    public var nextPosition: Int64
    /// The service's CRC-64/XZ of the whole object after this append: OSS's `x-oss-hash-crc64ecma` (already checked
    /// against the bytes sent when the client knew the object's CRC-64 before it); `nil` when the service reports none
    /// (OBS).
    public var crc64: UInt64?
    /// The object's entity tag, quotes included as the service sent it.
    public var etag: String?
    /// The version id, if versioning is on.
    public var versionID: String?
    /// The request id of the answer (of the HEAD that found the append applied, for a recovered one).
    public var requestID: String?
    /// Whether the service's answer was lost (the connection closed, or timed out, after the bytes were sent) and the
    /// append was found applied by reading the object back: its length and CRC-64, or the appended range itself.
    public var recovered: Bool

    init(
        nextPosition: Int64,
        crc64: UInt64?,
        etag: String?,
        versionID: String?,
        requestID: String?,
        recovered: Bool = false
    ) {
        self.nextPosition = nextPosition
        self.crc64 = crc64
        self.etag = etag
        self.versionID = versionID
        self.requestID = requestID
        self.recovered = recovered
    }

    /// Reads the answer to an append at `position` of `count` bytes (when known).
    ///
    /// - Throws: ``ObjectStorageError/Code/invalidResponse`` when the answer names no next position, or one that is
    ///   not `position + count`.
    init(
        headers: HTTPHeaders,
        prefix: String,
        vendor: StorageVendor,
        position: Int64,
        count: Int64?
    ) throws(ObjectStorageError) {
        let named = headers.first(name: prefix + "next-append-position").flatMap { Int64($0.filter { $0 != " " }) }
        guard let next = named ?? count.map({ position + $0 }) else {
            throw .invalidResponse("AppendObject answered without \(prefix)next-append-position")
        }
        if let count, next != position + count {
            throw .invalidResponse(
                "AppendObject of \(count) bytes at position \(position) answered the next position \(next), "
                    + "not \(position + count)"
            )
        }
        self.init(
            nextPosition: next,
            // OSS's is the whole object's; OBS repeats a CRC-64 only when the request sent one, of those bytes.
            crc64: vendor == .oss ? headers.first(name: Integrity.crc64Header).flatMap(Integrity.decimalCRC64) : nil,
            etag: headers.first(name: "ETag"),
            versionID: headers.first(name: prefix + "version-id"),
            requestID: headers.requestID
        )
    }
}
