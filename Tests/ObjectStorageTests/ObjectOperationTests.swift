//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import NIOCore
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

@Suite("Object operations against the local server")
struct ObjectOperationTests {
    @Test("bucket and object round trip", arguments: ClientDialect.all)
    func roundTrip(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "bucket")
            _ = try await client.headBucket(bucket: "bucket")
            let content = testBytes(3000)
            var put = PutObjectRequest(bucket: "bucket", key: "dir/hello world+.txt", body: .bytes(content))
            put.attributes.contentType = "text/plain"
            put.attributes.metadata = ["Color": "blue"]
            put.attributes.cacheControl = "max-age=60"
            put.attributes.contentDisposition = "attachment"
            put.computesContentMD5 = true
            let putResponse = try await client.putObject(put)
            #expect(putResponse.etag != nil)

            let head = try await client.headObject(bucket: "bucket", key: "dir/hello world+.txt")
            #expect(head.contentLength == 3000)
            #expect(head.contentType == "text/plain")
            #expect(head.metadata["color"] == "blue")
            #expect(head.cacheControl == "max-age=60")
            #expect(head.contentDisposition == "attachment")
            #expect(head.etag == putResponse.etag)

            let get = try await client.getObject(GetObjectRequest(bucket: "bucket", key: "dir/hello world+.txt"))
            #expect(try await get.body.collect(upTo: 1 << 20).bytes == content)

            var ranged = GetObjectRequest(bucket: "bucket", key: "dir/hello world+.txt")
            ranged.range = .bytes(10...19)
            let part = try await client.getObject(ranged)
            #expect(part.contentRange == "bytes 10-19/\(content.count)")
            #expect(try await part.body.collect(upTo: 1 << 20).bytes == Array(content[10...19]))

            let copied = try await client.copyObject(
                bucket: "bucket",
                key: "copy",
                sourceBucket: "bucket",
                sourceKey: "dir/hello world+.txt"
            )
            #expect(copied.etag != nil)
            let copyBody = try await client.getObject(GetObjectRequest(bucket: "bucket", key: "copy")).body
            #expect(try await copyBody.collect(upTo: 1 << 20).bytes == content)
            // A copy keeps the source's media type and metadata unless told to replace them.
            let kept = try await client.headObject(bucket: "bucket", key: "copy")
            #expect(kept.contentType == "text/plain" && kept.metadata["color"] == "blue")
            var attributes = UploadAttributes(metadata: ["shade": "dark"])
            await #expect {
                try await client.copyObject(
                    bucket: "bucket",
                    key: "copy",
                    sourceBucket: "bucket",
                    sourceKey: "dir/hello world+.txt",
                    attributes: attributes
                )
            } throws: { error in
                (error as? ObjectStorageError)?.code == .invalidArgument
            }
            attributes.contentType = "application/json"
            try await client.copyObject(
                bucket: "bucket",
                key: "copy",
                sourceBucket: "bucket",
                sourceKey: "dir/hello world+.txt",
                attributes: attributes,
                replacesMetadata: true
            )
            let replaced = try await client.headObject(bucket: "bucket", key: "copy")
            #expect(replaced.contentType == "application/json")
            #expect(replaced.metadata == ["shade": "dark"])

            let deleted = try await client.deleteObjects(
                bucket: "bucket",
                keys: ["copy", "dir/hello world+.txt"]
            )
            #expect(Set(deleted.deleted) == ["copy", "dir/hello world+.txt"])
            try await client.deleteObject(bucket: "bucket", key: "never-existed")
            _ = await expectServiceError(.noSuchKey, status: 404) {
                _ = try await client.headObject(bucket: "bucket", key: "copy")
            }
            try await client.deleteBucket(bucket: "bucket")
            _ = await expectServiceError(.noSuchBucket, status: 404) {
                _ = try await client.headBucket(bucket: "bucket")
            }
        }
    }

    @Test("error paths: 404, 412, 304, 416", arguments: ClientDialect.all)
    func errorPaths(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "errors")
            let put = try await client.putObject(
                PutObjectRequest(bucket: "errors", key: "k", body: .bytes(testBytes(100)))
            )
            let missing = await expectServiceError(.noSuchKey, status: 404) {
                _ = try await client.getObject(GetObjectRequest(bucket: "errors", key: "missing"))
            }
            #expect(missing?.requestID != nil)
            #expect(missing?.message.isEmpty == false)
            _ = await expectServiceError(.noSuchBucket, status: 404) {
                _ = try await client.getObject(GetObjectRequest(bucket: "nobucket", key: "k"))
            }
            var ifMatch = GetObjectRequest(bucket: "errors", key: "k")
            ifMatch.ifMatch = "\"0123456789abcdef0123456789abcdef\""
            _ = await expectServiceError(.preconditionFailed, status: 412) { _ = try await client.getObject(ifMatch) }
            var ifNoneMatch = GetObjectRequest(bucket: "errors", key: "k")
            ifNoneMatch.ifNoneMatch = put.etag
            _ = await expectServiceError(.notModified, status: 304) { _ = try await client.getObject(ifNoneMatch) }
            var modifiedSince = GetObjectRequest(bucket: "errors", key: "k")
            modifiedSince.ifModifiedSince = Date().addingTimeInterval(3600)
            _ = await expectServiceError(.notModified, status: 304) { _ = try await client.getObject(modifiedSince) }
            var unmodifiedSince = GetObjectRequest(bucket: "errors", key: "k")
            unmodifiedSince.ifUnmodifiedSince = Date(timeIntervalSince1970: 1_000_000)
            _ = await expectServiceError(.preconditionFailed, status: 412) {
                _ = try await client.getObject(unmodifiedSince)
            }
            var pastEnd = GetObjectRequest(bucket: "errors", key: "k")
            pastEnd.range = .bytes(500...600)
            if dialect.provider == .oss {
                // OSS's documented legacy behaviour: an unsatisfiable range returns the whole object.
                let whole = try await client.getObject(pastEnd)
                #expect(try await whole.body.collect(upTo: 1 << 20).readableBytes == 100)
            } else {
                _ = await expectServiceError(.invalidRange, status: 416) { _ = try await client.getObject(pastEnd) }
            }
        }
    }

    @Test("a wrong secret gives SignatureDoesNotMatch with the server's string-to-sign", arguments: ClientDialect.all)
    func wrongSecret(_ dialect: ClientDialect) async throws {
        let wrong = Credentials(
            accessKeyID: LocalObjectServer.developmentCredentials.accessKeyID,
            secretAccessKey: "not-the-secret-operations"
        )
        let wrongSecret: (inout ObjectStorageClient.Configuration) -> Void = {
            dialect.configure(&$0)
            $0.credentials = .static(accessKeyID: wrong.accessKeyID, secretAccessKey: wrong.secretAccessKey)
        }
        try await LocalObjectServer.withRunning(vendor: dialect.wire, logger: .scanning, configureClient: wrongSecret) {
            client,
            _ in
            let error = await expectServiceError(.signatureDoesNotMatch, status: 403) {
                try await client.createBucket(bucket: "wrong-secret")
            }
            #expect(error?.stringToSign?.isEmpty == false)
            // The description names the bucket, and never the secret.
            #expect(error.map { "\($0)" }?.contains("bucket wrong-secret") == true)
            #expect(error.map { "\($0)" }?.contains("not-the-secret") == false)
        }
    }

    @Test("listing pages with prefix and delimiter", arguments: ClientDialect.all)
    func listing(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "list")
            let keys = ["a/1", "a/2", "b/1", "c", "d", "e f", "g"]
            for key in keys {
                try await client.putObject(PutObjectRequest(bucket: "list", key: key, body: .bytes(Array(key.utf8))))
            }
            var pages = 0
            var listed: [String] = []
            for try await page in client.listObjects(bucket: "list", maxKeys: 2) {
                pages += 1
                listed += page.contents.map(\.key)
            }
            #expect(listed == keys.sorted())
            #expect(pages == 4)

            var objects: [String] = []
            var prefixes: [String] = []
            for try await page in client.listObjects(bucket: "list", delimiter: "/", maxKeys: 3) {
                objects += page.contents.map(\.key)
                prefixes += page.commonPrefixes
            }
            #expect(prefixes == ["a/", "b/"])
            #expect(objects == ["c", "d", "e f", "g"])

            var prefixedKeys: [String] = []
            for try await page in client.listObjects(bucket: "list", prefix: "a/", maxKeys: 1) {
                prefixedKeys += page.contents.map(\.key)
            }
            #expect(prefixedKeys == ["a/1", "a/2"])

            await #expect(throws: ServiceError.self) {
                for try await _ in client.listObjects(bucket: "missing") {}
            }
        }
    }

    @Test("get to a file, and upload from a file", arguments: [ClientDialect.ossV4, .s3])
    func files(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "files")
            let content = testBytes(700_000)
            let source = temporaryPath("source")
            try Data(content).write(to: URL(fileURLWithPath: source))
            defer { try? FileManager.default.removeItem(atPath: source) }
            try await client.putObject(PutObjectRequest(bucket: "files", key: "big", body: .file(path: source)))
            try await client.putObject(
                PutObjectRequest(bucket: "files", key: "slice", body: .file(path: source, offset: 1000, length: 5000))
            )
            let destination = temporaryPath("dest")
            defer { try? FileManager.default.removeItem(atPath: destination) }
            let head = try await client.getObject(GetObjectRequest(bucket: "files", key: "big"), toFile: destination)
            #expect(head.contentLength == 700_000)
            #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data(content))
            let slice = try await client.getObject(GetObjectRequest(bucket: "files", key: "slice")).body
            #expect(try await slice.collect(upTo: 1 << 20).bytes == Array(content[1000..<6000]))

            // A failed download leaves the existing file alone and no temporary file behind.
            try Data("keep".utf8).write(to: URL(fileURLWithPath: destination))
            await #expect(throws: ServiceError.self) {
                try await client.getObject(GetObjectRequest(bucket: "files", key: "missing"), toFile: destination)
            }
            #expect(try String(contentsOfFile: destination, encoding: .utf8) == "keep")
            let directory = (destination as NSString).deletingLastPathComponent
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasPrefix((destination as NSString).lastPathComponent + ".download-") }
            #expect(leftovers.isEmpty)
        }
    }

    @Test("presigned GET works with plain AsyncHTTPClient", arguments: ClientDialect.all)
    func presignedGet(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "presign")
            try await client.putObject(
                PutObjectRequest(bucket: "presign", key: "a b/c", body: .bytes(Array("hello".utf8)))
            )
            let presigned = try await client.presign(
                bucket: "presign",
                key: "a b/c",
                expires: .seconds(300),
                query: ["response-content-type": "application/x-test", "response-content-disposition": "attachment"]
            )
            let response = try await HTTPClientFetch.get(presigned.url)
            #expect(response.status == 200)
            #expect(response.body == Array("hello".utf8))
            #expect(response.headers["content-type"] == "application/x-test")
            #expect(response.headers["content-disposition"] == "attachment")
        }
    }
}
