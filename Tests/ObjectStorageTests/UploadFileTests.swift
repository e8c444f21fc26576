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
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@Suite("uploadFile: single PUT, multipart, integrity")
struct UploadFileTests {
    typealias Fixture = UploadFileFixture

    @Test(
        "a multi-part file arrives intact, with parameters, and the checkpoint is removed",
        arguments: Fixture.dialects
    )
    func multipartRoundTrip(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Fixture.bucket)
            let content = testBytes(Fixture.fileSize(dialect), seed: 11)
            let path = try Fixture.makeFile(content, name: "photo.json")
            defer { Fixture.cleanUp(path) }
            var request = Fixture.request(dialect, path: path)
            request.attributes.metadata = ["origin": "unit-test"]
            request.options.enableMD5Check = true
            let log = ProgressLog()
            let result = try await client.uploadFile(request, progress: log.handler)

            #expect(result.isMultipart)
            #expect(result.partsTransferred == (dialect.provider == .s3 ? 3 : 7))
            #expect(result.partsReused == 0)
            #expect(result.contentMD5Verified)
            // OSS reports its own CRC-64 of the bytes; OBS the one the upload sent, which it checked against them.
            #expect(result.isCRC64Verified == (dialect.provider != .s3))
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
            let head = try await client.headObject(bucket: Fixture.bucket, key: "object")
            #expect(head.crc64 == (dialect.provider == .s3 ? nil : CRC64.checksum(content, polynomial: .xz)))
            #expect(head.contentType == "application/json")
            #expect(head.metadata["origin"] == "unit-test")
            #expect(!FileManager.default.fileExists(atPath: path + ".ucp"))
            #expect(try await Fixture.pendingUploads(client).isEmpty)

            let reports = log.all
            #expect(reports.last?.completedBytes == Int64(content.count))
            #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
        }
    }

    @Test("an empty file: a single PUT, or one empty part when multipart is forced", arguments: Fixture.dialects)
    func emptyFile(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Fixture.bucket)
            let path = try Fixture.makeFile([])
            defer { Fixture.cleanUp(path) }
            var request = Fixture.request(dialect, path: path, key: "empty")
            let single = try await client.uploadFile(request)
            #expect(!single.isMultipart)

            request.key = "empty-multipart"
            request.options.forceMultipart = true
            request.options.enableMD5Check = true
            let forced = try await client.uploadFile(request)
            #expect(forced.isMultipart)
            #expect(forced.partsTransferred == 1)
            for key in ["empty", "empty-multipart"] {
                let head = try await client.headObject(bucket: Fixture.bucket, key: key)
                #expect(head.contentLength == 0)
            }
        }
    }

    @Test("a file of exactly one part is a single PUT; one byte more is two parts", arguments: Fixture.dialects)
    func exactlyOnePart(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Fixture.bucket)
            let size = Int(Fixture.partSize(dialect))
            for (key, count, multipart) in [("one", size, false), ("two", size + 1, true)] {
                let content = testBytes(count, seed: 5)
                let path = try Fixture.makeFile(content)
                defer { Fixture.cleanUp(path) }
                var request = Fixture.request(dialect, path: path, key: key)
                request.options.enableMD5Check = true
                let result = try await client.uploadFile(request)
                #expect(result.isMultipart == multipart)
                #expect(result.partsTransferred == (multipart ? 2 : 1))
                #expect(result.contentMD5Verified)
                #expect(try await Fixture.objectSHA256(client, key: key) == Hashing.SHA256.hash(content))
            }
        }
    }

    @Test("a part size below the provider's minimum is clamped and the upload succeeds", arguments: Fixture.dialects)
    func clampsPartSize(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Fixture.bucket)
            let content = testBytes(Fixture.fileSize(dialect), seed: 9)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            var request = Fixture.request(dialect, path: path)
            request.options.partSize = dialect.provider == .s3 ? 1 << 20 : 50_000
            let result = try await client.uploadFile(request)
            #expect(result.partSize == (dialect.provider == .s3 ? 5_242_880 : 102_400))
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
        }
    }

    @Test(
        "a corrupted part body with Content-MD5 fails with BadDigest; without a checkpoint the upload is aborted",
        arguments: Fixture.dialects
    )
    func badDigest(_ dialect: ClientDialect) async throws {
        let corrupting: @Sendable (any HTTPTransport) -> any HTTPTransport = { CorruptingPartTransport(base: $0) }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: corrupting)
            try await client.createBucket(bucket: Fixture.bucket)
            let path = try Fixture.makeFile(testBytes(Fixture.fileSize(dialect), seed: 2))
            defer { Fixture.cleanUp(path) }
            var request = Fixture.request(dialect, path: path)
            request.options.enableCheckpoint = false
            request.options.enableMD5Check = true
            await #expect {
                try await client.uploadFile(request)
            } throws: { error in
                (error as? ServiceError)?.code == .badDigest
            }
            #expect(try await Fixture.pendingUploads(client).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path + ".ucp"))
        }
    }

    @Test("zero, negative and absurd concurrency are refused before any request", arguments: [0, -3, 10_000])
    func refusesConcurrency(_ concurrency: Int) async throws {
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            var request = UploadFileCall(bucket: Fixture.bucket, key: "k", filePath: "/nonexistent/file")
            request.options.concurrency = concurrency
            await #expect {
                try await client.uploadFile(request)
            } throws: { error in
                (error as? ObjectStorageError)?.code == .invalidArgument
            }
        }
    }
}
