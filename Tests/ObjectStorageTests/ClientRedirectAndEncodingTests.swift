//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Foundation
import NIOCore
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// The client returns stored bytes and never follows a redirect, over real sockets on 127.0.0.1.
struct ClientRedirectAndEncodingTests {
    static let gzipped = gzippedText

    @Test(arguments: ["301 Moved Permanently", "302 Found", "307 Temporary Redirect", "308 Permanent Redirect"])
    func aRedirectToAnotherPortIsNotFollowed(_ status: String) async throws {
        let elsewhere = try await RawHTTPServer.start { _ in .response("200 OK", body: Array("stolen".utf8)) }
        let location = elsewhere.url("/bucket/key?X-Amz-Signature=0123456789abcdef")
        let endpoint = try await RawHTTPServer.start { _ in .response(status, headers: [("Location", location)]) }
        defer {
            Task {
                try? await elsewhere.stop()
                try? await endpoint.stop()
            }
        }
        var configuration = ObjectStorageClient.Configuration(
            vendor: .s3,
            endpoint: try Endpoint(url: endpoint.url("")),
            region: "us-east-1",
            credentials: .static(
                accessKeyID: "AKIDEXAMPLE",
                secretAccessKey: "redirect-test-secret-5d2a",
                securityToken: "redirect-test-session-token-7c1e"
            )
        )
        configuration.retry = testRetry
        let client = ObjectStorageClient(configuration: configuration, logger: .scanning)

        let error = await #expect(throws: TransportError.self) {
            _ = try await client.getObject(GetObjectRequest(bucket: "bucket", key: "key"))
        }
        #expect(error?.code == .redirectRefused)
        #expect(error?.statusCode == Int(status.prefix(3)))
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(String(status.prefix(3))))
        #expect(text.contains("127.0.0.1:\(elsewhere.port)"))
        #expect(!text.contains("Signature") && !text.contains("0123456789abcdef") && !text.contains("redirect-test"))
        #expect(elsewhere.requests.isEmpty, "the redirect target received a request")
        #expect(endpoint.requests.count == 1, "a refused redirect is not retried")

        let upload = await #expect(throws: TransportError.self) {
            _ = try await client.putObject(
                PutObjectRequest(bucket: "bucket", key: "key", body: .bytes(Array("x".utf8)))
            )
        }
        #expect(upload?.code == .redirectRefused)
        #expect(elsewhere.requests.isEmpty, "the redirect target received a request")
    }

    @Test(arguments: ClientDialect.all)
    func aGzipEncodedObjectComesBackAsStored(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "enc")
            var put = PutObjectRequest(bucket: "enc", key: "log.gz", body: .bytes(Self.gzipped))
            put.attributes.contentEncoding = "gzip"
            try await client.putObject(put)

            let object = try await client.getObject(GetObjectRequest(bucket: "enc", key: "log.gz"))
            #expect(try await object.body.collect(upTo: 1 << 20).bytes == Self.gzipped)
            // The server answers with the encoding, so a client that decompresses would inflate the body.
            #expect(object.attributes.contentEncoding == "gzip")
            #expect(object.attributes.contentLength == Int64(Self.gzipped.count))

            let file = temporaryPath("log.gz")
            defer { try? FileManager.default.removeItem(atPath: file) }
            try await client.getObject(GetObjectRequest(bucket: "enc", key: "log.gz"), toFile: file)
            #expect(try fileBytes(file) == Self.gzipped)

            let resumed = temporaryPath("resumed.gz")
            defer { try? FileManager.default.removeItem(atPath: resumed) }
            let result = try await client.resumableDownload(bucket: "enc", key: "log.gz", to: resumed)
            #expect(result.bytesTransferred == Int64(Self.gzipped.count))
            #expect(try fileBytes(resumed) == Self.gzipped)
        }
    }
}
