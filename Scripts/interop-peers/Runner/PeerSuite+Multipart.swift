//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageSigning

extension PeerSuite {
    static let partSize = 5 * 1024 * 1024

    func uploadPart(
        _ key: String,
        _ uploadID: String,
        _ number: Int,
        _ bytes: ArraySlice<UInt8>,
        using client: ObjectStorageClient? = nil
    ) async throws -> CompletedPart {
        try await (client ?? self.client).uploadPart(
            bucket: self.bucket,
            key: key,
            uploadID: uploadID,
            partNumber: number,
            body: .bytes(bytes)
        )
    }

    func parts(_ key: String, _ uploadID: String) async throws -> [ListPartsResponse.Part] {
        var parts: [ListPartsResponse.Part] = []
        for try await page in self.client.listParts(bucket: self.bucket, key: key, uploadID: uploadID) {
            parts += page.parts
        }
        return parts
    }

    /// 5 MiB + a short last part; part 1 is sent again as a resumer would, then Complete, GET and HEAD.
    func multipart() async throws {
        let key = "multipart.bin"
        let bytes = Pattern.bytes(count: Self.partSize + 1024 * 1024 + 123, seed: 5)
        let uploadID = try await self.client.createMultipartUpload(
            bucket: self.bucket,
            key: key
        )
        let first = try await self.uploadPart(key, uploadID, 1, bytes[0..<Self.partSize])
        let second = try await self.uploadPart(key, uploadID, 2, bytes[Self.partSize...])
        let again = try await self.uploadPart(key, uploadID, 1, bytes[0..<Self.partSize])
        try require(again.etag == first.etag, "re-uploaded part 1 has ETag \(again.etag), first \(first.etag)")
        let expectedPartETag = "\"\(ByteEncoding.hex(Hashing.MD5.hash(Array(bytes[0..<Self.partSize]))))\""
        try require(first.etag == expectedPartETag, "part 1 ETag \(first.etag) is not its MD5 \(expectedPartETag)")
        let listed = try await self.parts(key, uploadID)
        try require(listed.map(\.partNumber) == [1, 2], "ListParts numbers \(listed.map(\.partNumber))")
        try require(
            listed.map(\.size) == [Int64(Self.partSize), Int64(bytes.count - Self.partSize)],
            "ListParts sizes \(listed.map(\.size))"
        )
        let complete = try await self.client.completeMultipartUpload(
            bucket: self.bucket,
            key: key,
            uploadID: uploadID,
            parts: [again, second]

        )
        let (_, body) = try await self.get(key)
        try require(body == bytes, "GET after Complete returned \(body.count) bytes that differ")
        let head = try await self.client.headObject(bucket: self.bucket, key: key)
        try require(
            head.contentLength == Int64(bytes.count),
            "HEAD length \(head.contentLength ?? -1)"
        )
        let etag: String
        if self.peer.reportsETagOnComplete {
            etag = try complete.etag.orFail("Complete returned no ETag")
        } else {
            // The answer's `<ETag></ETag>` is reported as no ETag, never as an empty one.
            try require(complete.etag == nil, "Complete's empty ETag reported as \(complete.etag ?? "nil")")
            etag = try head.etag.orFail("HEAD returned no ETag")
        }
        try require(etag.hasSuffix("-2\""), "Complete ETag \(etag) is not a two-part ETag")
        let expectedHeadETag =
            self.peer.keepsMultipartETag ? etag : "\"\(ByteEncoding.hex(Hashing.MD5.hash(bytes)))\""
        try require(
            head.etag == expectedHeadETag,
            "HEAD ETag \(head.etag ?? "nil") != \(expectedHeadETag)"
        )
    }

    /// Abort removes the upload: ListParts then answers 404 (`NoSuchUpload`, Ceph RGW `NoSuchKey`).
    func multipartAbort() async throws {
        let key = "aborted.bin"
        let uploadID = try await self.client.createMultipartUpload(
            bucket: self.bucket,
            key: key
        )
        _ = try await self.uploadPart(key, uploadID, 1, Pattern.bytes(count: 1024)[...])
        var listed: [String] = []
        for try await page in self.client.listMultipartUploads(bucket: self.bucket) {
            listed += page.uploads.map(\.uploadID)
        }
        try require(listed.contains(uploadID), "ListMultipartUploads does not show the open upload")
        try await self.client.abortMultipartUpload(
            bucket: self.bucket,
            key: key,
            uploadID: uploadID
        )
        try await requireThrows(ServiceError.self, "ListParts after Abort") {
            _ = try await self.parts(key, uploadID)
        } where: {
            $0.statusCode == 404 && $0.code == self.peer.unknownUploadCode
        }
    }

    /// S3 rules: a non-final part under 5 MiB makes Complete fail with `EntityTooSmall`.
    func entityTooSmall() async throws {
        let key = "small-parts.bin"
        let uploadID = try await self.client.createMultipartUpload(
            bucket: self.bucket,
            key: key
        )
        let one = try await self.uploadPart(key, uploadID, 1, Pattern.bytes(count: 1024)[...])
        let two = try await self.uploadPart(key, uploadID, 2, Pattern.bytes(count: 1024)[...])
        try await requireThrows(ServiceError.self, "Complete with a 1 KiB first part") {
            _ = try await self.client.completeMultipartUpload(
                bucket: self.bucket,
                key: key,
                uploadID: uploadID,
                parts: [one, two]

            )
        } where: {
            $0.statusCode == 400 && $0.code.rawValue == "EntityTooSmall"
        }
        try await self.client.abortMultipartUpload(
            bucket: self.bucket,
            key: key,
            uploadID: uploadID
        )
    }

    /// Complete naming a wrong part ETag fails with `InvalidPart` and keeps the upload, so the right list succeeds.
    func invalidPartKeepsUpload() async throws {
        let key = "invalid-part.bin"
        let bytes = Pattern.bytes(count: 4096, seed: 6)
        let uploadID = try await self.client.createMultipartUpload(
            bucket: self.bucket,
            key: key
        )
        let part = try await self.uploadPart(key, uploadID, 1, bytes[...])
        let wrong = CompletedPart(partNumber: 1, etag: "\"0123456789abcdef0123456789abcdef\"")
        try await requireThrows(ServiceError.self, "Complete with a wrong part ETag") {
            _ = try await self.client.completeMultipartUpload(
                bucket: self.bucket,
                key: key,
                uploadID: uploadID,
                parts: [wrong]
            )
        } where: {
            $0.statusCode == 400 && $0.code == .invalidPart
        }
        _ = try await self.client.completeMultipartUpload(
            bucket: self.bucket,
            key: key,
            uploadID: uploadID,
            parts: [part]
        )
        let (_, body) = try await self.get(key)
        try require(body == bytes, "GET after the second Complete returned other bytes")
    }
}
