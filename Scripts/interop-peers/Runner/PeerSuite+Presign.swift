//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorage

extension PeerSuite {
    /// A presigned HEAD answers the object's length and ETag; a presigned PUT stores the bytes sent with plain
    /// HTTP; a tampered PUT URL is refused with 403 and leaves the object as it was.
    func presignedHeadAndPut() async throws {
        let bytes = Pattern.bytes(count: 20_000, seed: 12)
        let etag = try await self.put("presigned-head.bin", bytes).orFail("PUT returned no ETag")
        let head = try await self.client.presign(
            bucket: self.bucket,
            key: "presigned-head.bin",
            method: "HEAD",
            expires: .seconds(300)
        )
        let (headStatus, headers, _) = try await Self.send(head.url, method: .HEAD)
        try require(headStatus == 200, "presigned HEAD answered \(headStatus)")
        try require(
            headers.first(name: "Content-Length") == String(bytes.count),
            "presigned HEAD length \(headers.first(name: "Content-Length") ?? "nil")"
        )
        try require(headers.first(name: "ETag") == etag, "presigned HEAD ETag \(headers.first(name: "ETag") ?? "nil")")

        let put = try await self.client.presign(
            bucket: self.bucket,
            key: "presigned-put.bin",
            method: "PUT",
            expires: .seconds(300)
        )
        let stored = Pattern.bytes(count: 30_000, seed: 13)
        let (putStatus, _, putBody) = try await Self.send(put.url, method: .PUT, body: stored)
        try require(
            putStatus == 200,
            "presigned PUT answered \(putStatus): \(String(decoding: putBody, as: UTF8.self))"
        )
        let (tamperedStatus, _, _) = try await Self.send(
            Self.tamperSignature(put.url),
            method: .PUT,
            body: Pattern.bytes(count: 100, seed: 14)
        )
        try require(tamperedStatus == 403, "tampered presigned PUT answered \(tamperedStatus), not 403")
        let (_, body) = try await self.get("presigned-put.bin")
        try require(body == stored, "the object put through a presigned URL has other bytes (\(body.count))")
    }
}
