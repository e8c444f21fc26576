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
    /// Every other answer is spoiled after the peer executed the request (``FlakyTransport``); the client
    /// retries, re-signing and replaying the bytes or the file, and the results match a clean run.
    func retriesPut() async throws {
        let faultsBefore = self.flaky.faults
        let bytes = Pattern.bytes(count: 200 * 1024 + 9, seed: 8)
        let etag = try await self.put("retry-bytes.bin", bytes, using: self.flakyClient)
        try require(etag == "\"\(md5Hex(bytes))\"", "PUT through retries returned ETag \(etag ?? "nil")")
        let source = self.scratch("retry-upload.bin")
        defer { Files.remove(source) }
        try Files.store(bytes, to: source)
        let put = try await self.flakyClient.putObject(
            PutObjectRequest(bucket: self.bucket, key: "retry-file.bin", body: .file(path: source))
        )
        try require(put.etag == etag, "PUT of the file through retries returned ETag \(put.etag ?? "nil")")
        let (_, body) = try await self.get("retry-file.bin")
        try require(body == bytes, "the object put through retries has other bytes")
        try require(self.flaky.faults - faultsBefore == 2, "\(self.flaky.faults - faultsBefore) faults, not 2")
    }

    /// A get-to-file whose first body is cut off halfway retries and writes the whole object.
    func retriesGetToFileWritable() async throws {
        let bytes = Pattern.bytes(count: 300 * 1024, seed: 10)
        try await self.put("retry-get.bin", bytes)
        let destination = self.scratch("retry-download.bin")
        defer { Files.remove(destination) }
        let faultsBefore = self.flaky.faults
        _ = try await self.flakyClient.getObject(
            GetObjectRequest(bucket: self.bucket, key: "retry-get.bin"),
            toFile: destination
        )
        try require(try Files.load(destination) == bytes, "get-to-file after a cut-off body produced other bytes")
        try require(self.flaky.faults > faultsBefore, "no fault was injected")
    }

    /// Create, two parts and (where the peer repeats Complete idempotently) Complete, each answered 503 once
    /// after the peer executed it.
    func retriesMultipart() async throws {
        let faultsBefore = self.flaky.faults
        let key = "retry-multipart.bin"
        let large = Pattern.bytes(count: Self.partSize + 4096, seed: 9)
        let uploadID = try await self.flakyClient.createMultipartUpload(
            bucket: self.bucket,
            key: key
        )
        let one = try await self.uploadPart(key, uploadID, 1, large[0..<Self.partSize], using: self.flakyClient)
        let two = try await self.uploadPart(key, uploadID, 2, large[Self.partSize...], using: self.flakyClient)
        let completer = self.peer.repeatsCompleteIdempotently ? self.flakyClient : self.client
        _ = try await completer.completeMultipartUpload(
            bucket: self.bucket,
            key: key,
            uploadID: uploadID,
            parts: [one, two]
        )
        let (_, body) = try await self.get(key)
        try require(body == large, "multipart through retries produced other bytes")
        try require(self.flaky.faults - faultsBefore >= 3, "\(self.flaky.faults - faultsBefore) faults, not 3+")
    }

    /// A listing whose XML body is cut off halfway is retried like any other idempotent GET.
    func retriesListing() async throws {
        let faultsBefore = self.flaky.faults
        var keys: [String] = []
        for try await page in self.flakyClient.listObjects(bucket: self.bucket, prefix: "retry-") {
            keys += page.contents.map(\.key)
        }
        var expected: [String] = []
        for try await page in self.client.listObjects(bucket: self.bucket, prefix: "retry-") {
            expected += page.contents.map(\.key)
        }
        try require(expected.contains("retry-get.bin"), "the unfaulted listing misses retry-get.bin: \(expected)")
        try require(keys == expected, "list through retries returned \(keys), not \(expected)")
        try require(self.flaky.faults > faultsBefore, "no fault was injected")
    }

    /// A get-to-file whose first body is cut off halfway retries and writes the whole object.
    func retriesGetToFile(key: String, size: Int) async throws {
        let destination = self.scratch("retry-download.bin")
        defer { Files.remove(destination) }
        let faultsBefore = self.flaky.faults
        _ = try await self.flakyClient.getObject(GetObjectRequest(bucket: self.bucket, key: key), toFile: destination)
        try require(
            try Files.load(destination) == Pattern.bytes(count: size),
            "downloaded file differs from the fixture"
        )
        let (_, ranged) = try await self.get(key) { $0.range = .bytes(10...19) }
        try require(ranged == Array(Pattern.bytes(count: 20)[10...]), "ranged GET returned other bytes")
        try require(self.flaky.faults > faultsBefore, "no fault was injected")
    }
}

/// The lowercase hex MD5 of `bytes`.
func md5Hex(_ bytes: [UInt8]) -> String {
    ByteEncoding.hex(Hashing.MD5.hash(bytes))
}
