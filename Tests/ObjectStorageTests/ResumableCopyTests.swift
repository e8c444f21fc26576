//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

/// Server-side copies of any size: `resumableCopy` against the local server in each dialect.
@Suite("Resumable server-side copy")
struct ResumableCopyTests {
    static let bucket = UploadFileFixture.bucket
    static let dialects: [ClientDialect] = [.ossV4, .obs, .s3]

    /// A source of many parts: 20 parts of 100 KiB and a tail for OSS/OBS; 3 parts of 5 MiB and a tail for S3.
    static func sourceSize(_ dialect: ClientDialect) -> Int {
        dialect.provider == .s3 ? 3 * dialect.minimumPartSize + 12_345 : 20 * dialect.minimumPartSize + 12_345
    }

    static func options(_ dialect: ClientDialect, concurrency: Int = 4) -> TransferOptions {
        var options = TransferOptions(partSize: Int64(dialect.minimumPartSize), concurrency: concurrency)
        options.forceMultipart = true
        return options
    }

    static func put(_ client: ObjectStorageClient, _ key: String, _ bytes: [UInt8]) async throws {
        var attributes = UploadAttributes()
        attributes.contentType = "video/mp4"
        attributes.metadata = ["origin": "camera"]
        attributes.cacheControl = "max-age=60"
        _ = try await client.putObject(
            PutObjectRequest(bucket: bucket, key: key, body: .bytes(bytes), attributes: attributes)
        )
    }

    /// Copies `source` to `copy` in the test bucket.
    static func copy(_ client: ObjectStorageClient, options: TransferOptions) async throws -> TransferResult {
        try await client.resumableCopy(
            bucket: bucket,
            key: "copy",
            sourceBucket: bucket,
            sourceKey: "source",
            options: options
        )
    }

    static func object(_ client: ObjectStorageClient, _ key: String) async throws -> [UInt8] {
        let response = try await client.getObject(GetObjectRequest(bucket: bucket, key: key))
        let buffer = try await response.body.collect(upTo: 64 << 20)
        return Array(buffer.readableBytesView)
    }

    @Test(arguments: dialects)
    func aCopyOfManyPartsIsByteIdenticalAndKeepsTheSourcesMetadata(_ dialect: ClientDialect) async throws {
        let source = testBytes(Self.sourceSize(dialect), seed: 11)
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            try await Self.put(client, "source", source)
            let result = try await Self.copy(client, options: Self.options(dialect))
            let expectedParts = dialect.provider == .s3 ? 4 : 21
            #expect(result.isMultipart)
            #expect(result.partCount == expectedParts)
            #expect(result.partsTransferred == expectedParts)
            #expect(result.bytesTransferred == Int64(source.count))
            #expect(try await Self.object(client, "copy") == source)
            let head = try await client.headObject(bucket: Self.bucket, key: "copy")
            #expect(head.contentType == "video/mp4")
            #expect(head.metadata == ["origin": "camera"])
            #expect(head.cacheControl == "max-age=60")
            #expect(head.etag?.hasSuffix("-\(expectedParts)\"") == true)
            if dialect.provider == .oss {
                #expect(result.verification == .crc64(CRC64.checksum(source)))
            }
            #expect(try await UploadFileFixture.pendingUploads(client).isEmpty)
        }
    }

    @Test(arguments: dialects)
    func replacedMetadataComesFromTheAttributes(_ dialect: ClientDialect) async throws {
        let source = testBytes(Self.sourceSize(dialect), seed: 12)
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            try await Self.put(client, "source", source)
            var attributes = UploadAttributes()
            attributes.contentType = "application/x-archive"
            attributes.metadata = ["stage": "archived"]
            _ = try await client.resumableCopy(
                bucket: Self.bucket,
                key: "copy",
                sourceBucket: Self.bucket,
                sourceKey: "source",
                attributes: attributes,
                replacesMetadata: true,
                options: Self.options(dialect)
            )
            let head = try await client.headObject(bucket: Self.bucket, key: "copy")
            #expect(head.contentType == "application/x-archive")
            #expect(head.metadata == ["stage": "archived"])
            #expect(head.cacheControl == nil)
            #expect(try await Self.object(client, "copy") == source)
        }
    }

    @Test(arguments: dialects)
    func aSmallSourceIsOneCopyObject(_ dialect: ClientDialect) async throws {
        let source = testBytes(1000, seed: 13)
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            try await Self.put(client, "source", source)
            let result = try await Self.copy(client, options: TransferOptions())
            #expect(!result.isMultipart)
            #expect(result.partCount == 1)
            #expect(try await Self.object(client, "copy") == source)
            #expect(try await client.headObject(bucket: Self.bucket, key: "copy").metadata == ["origin": "camera"])
        }
    }

    @Test(arguments: dialects)
    func anInterruptedCopyResumesWithoutCopyingItsPartsAgain(_ dialect: ClientDialect) async throws {
        let source = testBytes(Self.sourceSize(dialect), seed: 14)
        let directory = temporaryPath("copy-resume")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            try await Self.put(client, "source", source)
            var options = Self.options(dialect, concurrency: 1)
            options.enableCheckpoint = true
            options.checkpointFilePath = directory + "/copy.ccp"
            // The third part copy fails for good (no retry helps): the first run stops with two parts recorded.
            faults.add(
                FaultRule(
                    operations: [.uploadPart],
                    trigger: .nth(3),
                    fault: .error(status: 403, code: "AccessDenied", message: "Access Denied.")
                )
            )
            await #expect(throws: ServiceError.self) {
                try await Self.copy(client, options: options)
            }
            #expect(FileManager.default.fileExists(atPath: directory + "/copy.ccp"))
            let uploads = try await UploadFileFixture.pendingUploads(client)
            #expect(uploads.count == 1)
            faults.removeAll()
            let result = try await Self.copy(client, options: options)
            #expect(result.partsReused == 2)
            #expect(result.partsTransferred == result.partCount - 2)
            #expect(result.bytesReused == 2 * Int64(dialect.minimumPartSize))
            #expect(try await Self.object(client, "copy") == source)
            #expect(!FileManager.default.fileExists(atPath: directory + "/copy.ccp"))
            #expect(try await UploadFileFixture.pendingUploads(client).isEmpty)
        }
    }

    @Test(arguments: dialects)
    func aSourceReplacedMidCopyRestartsTheCopyFromTheNewSource(_ dialect: ClientDialect) async throws {
        let first = testBytes(Self.sourceSize(dialect), seed: 15)
        let second = testBytes(Self.sourceSize(dialect) + 777, seed: 16)
        let transport = SourceReplacingTransport(base: AsyncHTTPClientTransport.shared)
        let wrap: @Sendable (any HTTPTransport) -> any HTTPTransport = { _ in transport }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: wrap)
            try await client.createBucket(bucket: Self.bucket)
            try await Self.put(client, "source", first)
            // Before the second part copy is sent, another writer replaces the source: that part and every later
            // one of the first round fail their If-Match.
            transport.replacement.withLock {
                $0 = {
                    _ = try await client.putObject(
                        PutObjectRequest(bucket: Self.bucket, key: "source", body: .bytes(second))
                    )
                }
            }
            let result = try await Self.copy(client, options: Self.options(dialect, concurrency: 1))
            #expect(transport.replaced.withLock { $0 })
            #expect(result.restarts == 1)
            #expect(result.objectSize == Int64(second.count))
            #expect(try await Self.object(client, "copy") == second)
            #expect(try await UploadFileFixture.pendingUploads(client).isEmpty)
        }
    }

    @Test func aCheckpointNeedsAPath() async throws {
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            var options = TransferOptions()
            options.enableCheckpoint = true
            await #expect(throws: ObjectStorageError.self) {
                try await client.resumableCopy(
                    bucket: "b",
                    key: "k",
                    sourceBucket: "b",
                    sourceKey: "s",
                    options: options
                )
            }
        }
    }
}

/// Runs a replacement of the copy source (once) just before the second part copy is sent.
final class SourceReplacingTransport: HTTPTransport {
    let base: any HTTPTransport
    let replacement = Mutex<(@Sendable () async throws -> Void)?>(nil)
    let replaced = Mutex(false)

    init(base: any HTTPTransport) { self.base = base }

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        let query = request.url.split(separator: "?").dropFirst().first?.split(separator: "&") ?? []
        if request.method == .PUT, query.contains("partNumber=2"),
            let replace = replacement.withLock({ work in
                defer { work = nil }
                return work
            })
        {
            try await replace()
            replaced.withLock { $0 = true }
        }
        return try await base.execute(request, deadline: deadline, logger: logger)
    }
}
