//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

@Suite("Buckets and objects")
struct ObjectOperationTests {
    @Test func bucketLifecycle() async throws {
        try await withServer { client, _ in
            #expect(try await client.send("HEAD", "/bkt").status == 404)
            #expect(try await client.send("PUT", "/bkt").status == 200)
            let again = try await client.send("PUT", "/bkt")
            #expect(again.status == 409)
            #expect(again.element("Code") == "BucketAlreadyOwnedByYou")
            #expect(try await client.send("HEAD", "/bkt").status == 200)
            let list = try await client.send("GET", "/")
            #expect(list.elements("Name") == ["bkt"])
            _ = try await client.send("PUT", "/bkt/k", body: [1])
            let notEmpty = try await client.send("DELETE", "/bkt")
            #expect(notEmpty.status == 409)
            #expect(notEmpty.element("Code") == "BucketNotEmpty")
            #expect(try await client.send("DELETE", "/bkt/k").status == 204)
            #expect(try await client.send("DELETE", "/bkt").status == 204)
            let missing = try await client.send("GET", "/bkt")
            #expect(missing.status == 404)
            #expect(missing.element("Code") == "NoSuchBucket")
            #expect(try await client.send("PUT", "/Bad_Name").element("Code") == "InvalidBucketName")
        }
    }

    @Test func putGetHeadDelete() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let put = try await client.send(
                "PUT",
                "/bkt/dir/hello%20world.txt",
                headers: [
                    ("Content-Type", "text/plain"), ("x-amz-meta-colour", "blue"), ("Cache-Control", "no-cache"),
                ],
                body: Array("hello world".utf8)
            )
            #expect(put.status == 200)
            #expect(put.header("ETag") == "\"5eb63bbbe01eeed093cb22bb8f5acdc3\"")
            let get = try await client.send("GET", "/bkt/dir/hello%20world.txt")
            #expect(get.status == 200)
            #expect(get.text == "hello world")
            #expect(get.header("Content-Type") == "text/plain")
            #expect(get.header("x-amz-meta-colour") == "blue")
            #expect(get.header("Cache-Control") == "no-cache")
            #expect(get.header("x-amz-request-id") != nil)
            let head = try await client.send("HEAD", "/bkt/dir/hello%20world.txt")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "11")
            #expect(head.body.isEmpty)
            #expect(try await client.send("DELETE", "/bkt/dir/hello%20world.txt").status == 204)
            let gone = try await client.send("GET", "/bkt/dir/hello%20world.txt")
            #expect(gone.status == 404)
            #expect(gone.element("Code") == "NoSuchKey")
            #expect(gone.element("Key") == "dir/hello world.txt")
            #expect(try await client.send("HEAD", "/bkt/dir/hello%20world.txt").status == 404)
        }
    }

    @Test func contentMD5IsChecked() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let good = try await client.send(
                "PUT",
                "/bkt/k",
                headers: [("Content-MD5", "XrY7u+Ae7tCTyyK7j1rNww==")],
                body: Array("hello world".utf8)
            )
            #expect(good.status == 200)
            let bad = try await client.send(
                "PUT",
                "/bkt/k",
                headers: [("Content-MD5", "AAAAAAAAAAAAAAAAAAAAAA==")],
                body: Array("hello world".utf8)
            )
            #expect(bad.status == 400)
            #expect(bad.element("Code") == "BadDigest")
            let invalid = try await client.send("PUT", "/bkt/k", headers: [("Content-MD5", "nope")], body: [1])
            #expect(invalid.element("Code") == "InvalidDigest")
            let sha = try await client.send(
                "PUT",
                "/bkt/k",
                headers: [("x-amz-content-sha256", String(repeating: "0", count: 64))],
                body: [1]
            )
            #expect(sha.element("Code") == "XAmzContentSHA256Mismatch")
            #expect(try await client.send("GET", "/bkt/k").text == "hello world")
        }
    }

    @Test func copyObject() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/src")
            _ = try await client.send("PUT", "/dst")
            _ = try await client.send(
                "PUT",
                "/src/a",
                headers: [("x-amz-meta-m", "1"), ("Content-Type", "text/plain")],
                body: Array("abc".utf8)
            )
            let copy = try await client.send("PUT", "/dst/b", headers: [("x-amz-copy-source", "/src/a")])
            #expect(copy.status == 200)
            #expect(copy.element("ETag") == "&quot;900150983cd24fb0d6963f7d28e17f72&quot;")
            let copied = try await client.send("GET", "/dst/b")
            #expect(copied.text == "abc")
            #expect(copied.header("x-amz-meta-m") == "1")
            let replaced = try await client.send(
                "PUT",
                "/dst/c",
                headers: [
                    ("x-amz-copy-source", "src/a"), ("x-amz-metadata-directive", "REPLACE"), ("x-amz-meta-n", "2"),
                ]
            )
            #expect(replaced.status == 200)
            let head = try await client.send("HEAD", "/dst/c")
            #expect(head.header("x-amz-meta-n") == "2")
            #expect(head.header("x-amz-meta-m") == nil)
            let missing = try await client.send("PUT", "/dst/d", headers: [("x-amz-copy-source", "/src/none")])
            #expect(missing.element("Code") == "NoSuchKey")
        }
    }

    @Test func ossDialectHeadersAndErrors() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt", headers: ossDialect)
            let put = try await client.send("PUT", "/bkt/k", headers: ossDialect, body: Array("123456789".utf8))
            #expect(put.header("ETag") == "\"25F9E794323B453885F5181F1B624D0B\"")
            #expect(put.header("x-oss-hash-crc64ecma") == "11051210869376104954")
            #expect(put.header("x-oss-request-id") != nil)
            let head = try await client.send("HEAD", "/bkt/k", headers: ossDialect)
            #expect(head.header("x-oss-hash-crc64ecma") == "11051210869376104954")
            #expect(head.header("x-oss-object-type") == "Normal")
            let missing = try await client.send("GET", "/bkt/none", headers: ossDialect)
            #expect(missing.status == 404)
            #expect(missing.element("EC") == "0026-00000001")
            #expect(missing.header("x-oss-ec") == "0026-00000001")
            #expect(missing.element("RequestId") == missing.header("x-oss-request-id"))
        }
    }

    @Test func virtualHostedAddressing() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/vbucket")
            let host = ("Host", "vbucket.localhost")
            #expect(try await client.send("PUT", "/a/b.txt", headers: [host], body: [7, 8]).status == 200)
            #expect(try await client.send("GET", "/vbucket/a/b.txt").body == [7, 8])
            let list = try await client.send("GET", "/?prefix=a/", headers: [host])
            #expect(list.elements("Key") == ["a/b.txt"])
        }
    }

    @Test func directoryStorageSurvivesRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objstore-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = LocalObjectServer.Configuration(storage: .directory(directory), authentication: .anonymous)
        try await withServer(configuration) { client, _ in
            _ = try await client.send("PUT", "/bkt")
            _ = try await client.send("PUT", "/bkt/k", headers: [("x-amz-meta-a", "b")], body: testBytes(3000))
        }
        try await withServer(configuration) { client, _ in
            let get = try await client.send("GET", "/bkt/k")
            #expect(get.body == testBytes(3000))
            #expect(get.header("x-amz-meta-a") == "b")
        }
    }

    @Test func unsignedRequestIsRejectedWhenCredentialsAreRequired() async throws {
        try await withServer(.init(storage: .memory)) { client, _ in
            let response = try await client.send("GET", "/")
            #expect(response.status == 403)
            #expect(response.element("Code") == "AccessDenied")
        }
    }
}
