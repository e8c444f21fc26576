//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

extension PeerSuite {
    func createBucket() async throws {
        try await self.client.createBucket(bucket: self.bucket)
        _ = try await self.client.headBucket(bucket: self.bucket)
    }

    func putGetHead() async throws {
        let bytes = Pattern.bytes(count: 100 * 1024 + 3, seed: 1)
        var request = PutObjectRequest(bucket: self.bucket, key: "dir/hello.bin", body: .bytes(bytes))
        request.attributes.contentType = "application/x-interop"
        request.computesContentMD5 = true
        let put = try await self.client.putObject(request)
        let etag = try put.etag.orFail("PutObject returned no ETag")
        let (got, body) = try await self.get("dir/hello.bin")
        try require(body == bytes, "GET returned \(body.count) bytes that differ from the \(bytes.count) put")
        try require(got.attributes.etag == etag, "GET ETag \(got.attributes.etag ?? "nil") != PUT ETag \(etag)")
        let head = try await self.client.headObject(bucket: self.bucket, key: "dir/hello.bin")
        try require(
            head.contentLength == Int64(bytes.count),
            "HEAD length \(head.contentLength ?? -1)"
        )
        try require(head.etag == etag, "HEAD ETag \(head.etag ?? "nil") != \(etag)")
        try require(
            head.contentType == "application/x-interop",
            "HEAD Content-Type \(head.contentType ?? "nil")"
        )
    }

    func putFileGetToFile() async throws {
        let bytes = Pattern.bytes(count: 2 * 1024 * 1024 + 11, seed: 2)
        let source = self.scratch("upload.bin")
        let destination = self.scratch("download.bin")
        defer {
            Files.remove(source)
            Files.remove(destination)
        }
        try Files.store(bytes, to: source)
        _ = try await self.client.putObject(
            PutObjectRequest(bucket: self.bucket, key: "file.bin", body: .file(path: source))
        )
        let head = try await self.client.getObject(
            GetObjectRequest(bucket: self.bucket, key: "file.bin"),
            toFile: destination
        )
        try require(
            head.contentLength == Int64(bytes.count),
            "length \(head.contentLength ?? -1)"
        )
        try require(try Files.load(destination) == bytes, "downloaded file differs from the uploaded file")
    }

    /// The separator of listing tests: `/`, or `_` where the peer cannot verify a signed `/` in the query.
    var separator: String { self.peer.acceptsSlashInSignedQuery ? "/" : "_" }

    var listedKeys: [String] {
        let separator = self.separator
        return ["list\(separator)a.txt", "list\(separator)b.txt", "list\(separator)sub\(separator)c.txt"]
    }

    func listObjects() async throws {
        let keys = self.listedKeys
        for key in keys {
            try await self.put(key, Array(key.utf8))
        }
        let prefix = "list\(self.separator)"
        var listed: [String] = []
        var prefixes: [String] = []
        for try await page in self.client.listObjects(bucket: self.bucket, prefix: prefix, delimiter: self.separator) {
            listed += page.contents.map(\.key)
            prefixes += page.commonPrefixes
        }
        try require(listed == Array(keys[0...1]), "delimited keys \(listed)")
        try require(prefixes == ["\(prefix)sub\(self.separator)"], "common prefixes \(prefixes)")
        var pages = 0
        listed = []
        for try await page in self.client.listObjects(bucket: self.bucket, prefix: prefix, maxKeys: 1) {
            pages += 1
            listed += page.contents.map(\.key)
            if let object = page.contents.first, object.key == keys[0] {
                try require(object.size == Int64(keys[0].utf8.count), "\(keys[0]) listed with size \(object.size)")
            }
        }
        try require(listed == keys, "paginated keys \(listed)")
        try require(pages == 3, "expected 3 pages of one key, got \(pages)")
    }

    func deleteObjects() async throws {
        let keys = self.listedKeys
        let response = try await self.client.deleteObjects(bucket: self.bucket, keys: keys)
        try require(response.failures.isEmpty, "failures \(response.failures)")
        try await self.client.deleteObject(bucket: self.bucket, key: "dir/hello.bin")
        for key in [keys[0], "dir/hello.bin"] {
            try await requireThrows(ServiceError.self, "HEAD \(key) after delete") {
                _ = try await self.client.headObject(bucket: self.bucket, key: key)
            } where: {
                $0.statusCode == 404
            }
        }
        var remaining: [String] = []
        for try await page in self.client.listObjects(bucket: self.bucket, prefix: "list\(self.separator)") {
            remaining += page.contents.map(\.key)
        }
        try require(remaining.isEmpty, "still listed after delete: \(remaining)")
    }

    func cleanUp() async throws {
        var keys: [String] = []
        for try await page in self.client.listObjects(bucket: self.bucket) {
            keys += page.contents.map(\.key)
        }
        if !keys.isEmpty {
            _ = try await self.client.deleteObjects(bucket: self.bucket, keys: keys)
        }
        try await self.client.deleteBucket(bucket: self.bucket)
        try await requireThrows(ServiceError.self, "HEAD bucket after delete") {
            _ = try await self.client.headBucket(bucket: self.bucket)
        } where: {
            $0.statusCode == 404
        }
    }
}

extension Optional {
    /// The value, or a check failure with `message`.
    func orFail(_ message: @autoclosure () -> String) throws -> Wrapped {
        guard let value = self else { throw CheckFailure(message()) }
        return value
    }
}
