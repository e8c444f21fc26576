//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

/// A listing never ends early as if complete, over real sockets on 127.0.0.1.
struct ListingTruncationTests {
    /// A first page of two keys that says it is truncated but carries no continuation token.
    static let truncatedWithoutToken = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult><Name>b</Name><Prefix></Prefix><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys>\
        <IsTruncated>true</IsTruncated>\
        <Contents><Key>a</Key><Size>1</Size><ETag>"0cc175b9c0f1b6a831c399e269772661"</ETag></Contents>\
        <Contents><Key>b</Key><Size>1</Size><ETag>"92eb5ffee6ae2fec3ad71c777531578f"</ETag></Contents>\
        </ListBucketResult>
        """

    @Test("a truncated page without a continuation token throws; it never reads as the end of the listing")
    func aTruncatedPageWithoutATokenThrows() async throws {
        let server = try await RawHTTPServer.start { _ in
            .response(
                "200 OK",
                headers: [("Content-Type", "application/xml")],
                body: Array(Self.truncatedWithoutToken.utf8)
            )
        }
        defer { Task { try? await server.stop() } }
        let client = try server.anonymousS3Client()
        var keys: [String] = []
        let error = await #expect(throws: ObjectStorageError.self) {
            for try await page in client.listObjects(bucket: "b") {
                keys += page.contents.map(\.key)
            }
        }
        #expect(error?.code == .invalidResponse)
        #expect(error.map { "\($0)" }?.contains("no continuation token") == true)
        #expect(keys.isEmpty, "the incomplete page was handed out as if it were the listing: \(keys)")
        #expect(server.requests.count == 1)
    }
}

/// The marker-based ListObjects (V1): chosen by the configuration (by default for OBS), with the same pages as V2.
struct ListObjectsV1Tests {
    @Test("V1 and V2 list the same keys and prefixes, page by page, in every dialect", arguments: ClientDialect.all)
    func v1ListsWhatV2Lists(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "pages")
            let keys = ["a/1", "a/2", "b", "c/d/e", "c/x", "d+e f", "é"]
            for key in keys {
                try await client.putObject(PutObjectRequest(bucket: "pages", key: key, body: .bytes(Array(key.utf8))))
            }
            var listings: [[String]] = []
            for v1 in [true, false] {
                var configuration = client.configuration
                configuration.usesListObjectsV1 = v1
                let lister = ObjectStorageClient(configuration: configuration, logger: .scanning)
                for delimiter in [nil, "/"] as [String?] {
                    var listed: [String] = []
                    for try await page in lister.listObjects(bucket: "pages", delimiter: delimiter, maxKeys: 2) {
                        #expect(page.contents.count + page.commonPrefixes.count <= 2)
                        listed += page.contents.map(\.key) + page.commonPrefixes.map { "prefix " + $0 }
                    }
                    listings.append(listed)
                }
            }
            #expect(listings[0] == keys)
            // Each page lists its keys, then its prefixes.
            #expect(listings[1] == ["b", "prefix a/", "d+e f", "prefix c/", "é"])
            #expect(listings[2] == listings[0])
            #expect(listings[3] == listings[1])
        }
    }

    @Test("OBS lists with V1 by default; OSS and S3 with V2")
    func defaults() throws {
        let endpoint = try Endpoint(url: "http://127.0.0.1:9")
        for (vendor, v1) in [(StorageVendor.obs, true), (.oss, false), (.s3, false)] {
            let configuration = ObjectStorageClient.Configuration(vendor: vendor, endpoint: endpoint, credentials: nil)
            #expect(configuration.usesListObjectsV1 == v1, "\(vendor)")
        }
    }

    @Test("a truncated V1 page without NextMarker goes on after its last key; one with nothing to go on from throws")
    func truncatedV1Pages() async throws {
        let page: @Sendable ([String], Bool) -> String = { keys, truncated in
            "<ListBucketResult><Name>b</Name><IsTruncated>\(truncated)</IsTruncated>"
                + keys.map { "<Contents><Key>\($0)</Key><Size>1</Size></Contents>" }.joined() + "</ListBucketResult>"
        }
        let server = try await RawHTTPServer.start { request in
            let body =
                if request.target.contains("marker=b") {
                    page(["c"], false)
                } else if request.target.contains("prefix=empty") {
                    page([], true)
                } else {
                    page(["a", "b"], true)
                }
            return .response("200 OK", headers: [("Content-Type", "application/xml")], body: Array(body.utf8))
        }
        defer { Task { try? await server.stop() } }
        let client = try server.anonymousS3Client { $0.usesListObjectsV1 = true }
        var keys: [String] = []
        for try await page in client.listObjects(bucket: "b") { keys += page.contents.map(\.key) }
        #expect(keys == ["a", "b", "c"])
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { !$0.target.contains("list-type") })

        let error = await #expect(throws: ObjectStorageError.self) {
            for try await _ in client.listObjects(bucket: "b", prefix: "empty") {}
        }
        #expect(error?.code == .invalidResponse)
        #expect(error.map { "\($0)" }?.contains("no marker") == true)
    }
}
