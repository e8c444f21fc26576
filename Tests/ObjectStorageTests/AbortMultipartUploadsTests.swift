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

@Suite("Aborting unfinished multipart uploads under a prefix")
struct AbortMultipartUploadsTests {
    @Test("only the uploads under the prefix and older than the cutoff are aborted", arguments: ClientDialect.all)
    func abortsByPrefixAndAge(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "housekeeping")
            var started: [String: String] = [:]
            for key in ["logs/a", "logs/b", "logsy", "data/c"] {
                started[key] = try await client.createMultipartUpload(bucket: "housekeeping", key: key)
            }
            _ = try await client.uploadPart(
                bucket: "housekeeping",
                key: "logs/a",
                uploadID: try #require(started["logs/a"]),
                partNumber: 1,
                body: .bytes(Array(repeating: 1, count: 1024))
            )

            let spared = try await client.abortMultipartUploads(
                bucket: "housekeeping",
                prefix: "logs/",
                startedBefore: Date(timeIntervalSinceNow: -3600)
            )
            #expect(spared.isEmpty)
            #expect(try await Self.unfinished(client).count == 4)

            let aborted = try await client.abortMultipartUploads(bucket: "housekeeping", prefix: "logs/")
            #expect(aborted.map(\.key) == ["logs/a", "logs/b"])
            #expect(aborted.map(\.uploadID) == [started["logs/a"], started["logs/b"]])
            #expect(try await Self.unfinished(client) == ["data/c", "logsy"])
            await #expect(throws: ServiceError.self) {
                for try await _ in client.listParts(
                    bucket: "housekeeping",
                    key: "logs/a",
                    uploadID: try #require(started["logs/a"])
                ) {}
            }

            let rest = try await client.abortMultipartUploads(
                bucket: "housekeeping",
                startedBefore: Date(timeIntervalSinceNow: 60)
            )
            #expect(rest.map(\.key) == ["data/c", "logsy"])
            #expect(try await Self.unfinished(client).isEmpty)
            #expect(try await client.abortMultipartUploads(bucket: "housekeeping").isEmpty)
        }
    }

    private static func unfinished(_ client: ObjectStorageClient) async throws -> [String] {
        var keys: [String] = []
        for try await page in client.listMultipartUploads(bucket: "housekeeping") {
            keys += page.uploads.map(\.key)
        }
        return keys
    }
}
