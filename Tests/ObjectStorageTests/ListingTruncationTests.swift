//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
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
        let configuration = ObjectStorageClient.Configuration(
            vendor: .s3,
            endpoint: try Endpoint(url: server.url("")),
            region: "us-east-1",
            credentials: nil
        )
        let client = ObjectStorageClient(configuration: configuration, logger: .scanning)
        var keys: [String] = []
        let error = await #expect(throws: ObjectStorageError.self) {
            for try await page in client.listObjectsV2(bucket: "b") {
                keys += page.contents.map(\.key)
            }
        }
        #expect(error?.code == .invalidResponse)
        #expect(error.map { "\($0)" }?.contains("no continuation token") == true)
        #expect(keys.isEmpty, "the incomplete page was handed out as if it were the listing: \(keys)")
        #expect(server.requests.count == 1)
    }
}
