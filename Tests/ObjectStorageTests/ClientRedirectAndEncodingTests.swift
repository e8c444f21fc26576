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
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// The client returns stored bytes and never follows a redirect, over real sockets on 127.0.0.1.
struct ClientRedirectAndEncodingTests {
    /// 1,120 bytes of text, gzip-compressed to 84 bytes (Python's gzip, mtime 0): what a client that inflates
    /// would turn back into text.
    static let gzipped: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff, 0xcb, 0x4f, 0xca, 0x4a, 0x4d, 0x2e, 0x51, 0x28,
        0x2e, 0xc9, 0x2f, 0x4a, 0x4c, 0x4f, 0x55, 0x28, 0x4a, 0x2d, 0x29, 0x2d, 0xca, 0x2b, 0x56, 0x28, 0xc9, 0x48,
        0x05, 0x8b, 0xa5, 0xa6, 0x28, 0x24, 0x55, 0x96, 0xa4, 0x16, 0xeb, 0x28, 0xe4, 0xa5, 0x96, 0xa5, 0x16, 0x29,
        0x64, 0xe6, 0xa5, 0xe5, 0x24, 0x96, 0xa4, 0xa6, 0x70, 0xe5, 0x8f, 0xea, 0x1b, 0xd5, 0x37, 0xaa, 0x6f, 0x54,
        0x1f, 0x01, 0x7d, 0x00, 0x68, 0xe1, 0xef, 0xb0, 0x60, 0x04, 0x00, 0x00,
    ]

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
            provider: .s3,
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
        try await withClient(dialect) { client, _ in
            try await client.createBucket(CreateBucketRequest(bucket: "enc"))
            var put = PutObjectRequest(bucket: "enc", key: "log.gz", body: .bytes(Self.gzipped))
            put.contentEncoding = "gzip"
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
            #expect(result.bytesDownloaded == Int64(Self.gzipped.count))
            #expect(try fileBytes(resumed) == Self.gzipped)
        }
    }

    @Test func anHTTPClientThatFollowsRedirectsOrDecompressesIsRefused() async throws {
        let configuration = ObjectStorageClient.Configuration(
            provider: .s3,
            endpoint: try Endpoint(url: "http://127.0.0.1:9"),
            region: "us-east-1"
        )
        let shared = #expect(throws: TransportError.self) {
            _ = try ObjectStorageClient(configuration: configuration, httpClient: .shared)
        }
        #expect(shared?.code == .unsafeHTTPClient)
        #expect(shared?.message.contains("redirects") == true)
        #expect(shared?.message.contains("decompresses") == true)
    }
}
