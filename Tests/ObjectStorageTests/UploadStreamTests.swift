//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@Suite("uploadStream: unknown length, single PUT or multipart, abort on failure")
struct UploadStreamTests {
    typealias Fixture = UploadFileFixture

    /// The dialect's smallest part size, two parts in flight.
    static func options(_ dialect: ClientDialect) -> TransferOptions {
        TransferOptions(partSize: Fixture.partSize(dialect), concurrency: 2)
    }

    @Test("a stream ending within the first part is one PUT", arguments: Fixture.dialects)
    func shortStreamIsOnePut(_ dialect: ClientDialect) async throws {
        let tally = RequestTally()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: tally.transport)
            try await client.createBucket(bucket: Fixture.bucket)
            let partSize = Int(Fixture.partSize(dialect))
            for (key, size) in [("short", partSize - 1), ("exact", partSize), ("empty", 0)] {
                let content = testBytes(size, seed: 3)
                let before = tally.puts
                let log = ProgressLog()
                let result = try await client.uploadStream(
                    ChunkedBytes(content: content, chunkSizes: [1000, 0, 70_001]),
                    bucket: Fixture.bucket,
                    key: key,
                    options: Self.options(dialect),
                    progress: log.handler
                )
                #expect(!result.isMultipart)
                #expect(result.objectSize == Int64(size))
                #expect(tally.puts == before + 1)
                #expect(log.all.last?.isTotalKnown == true)
                #expect(log.all.last?.completedBytes == Int64(size))
                #expect(try await Fixture.objectSHA256(client, key: key) == Hashing.SHA256.hash(content))
            }
            #expect(tally.creates == 0)
            #expect(tally.parts == 0)
        }
    }

    @Test("chunks not aligned to parts: the object equals the stream", arguments: Fixture.dialects)
    func multipartWithOddChunks(_ dialect: ClientDialect) async throws {
        let tally = RequestTally()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: tally.transport)
            try await client.createBucket(bucket: Fixture.bucket)
            let partSize = Int(Fixture.partSize(dialect))
            let content = testBytes(3 * partSize + 12_345, seed: 5)
            let bucketPuts = tally.puts
            var options = Self.options(dialect)
            options.enableMD5Check = true
            let log = ProgressLog()
            let result = try await client.uploadStream(
                ChunkedBytes(content: content, chunkSizes: [7_777, 65_539, 1, 300_007]),
                bucket: Fixture.bucket,
                key: "odd",
                options: options,
                progress: log.handler
            )
            #expect(result.isMultipart)
            #expect(result.partCount == 4)
            #expect(result.objectSize == Int64(content.count))
            #expect(result.contentMD5Verified)
            #expect(tally.parts == 4)
            #expect(tally.puts == bucketPuts)
            if dialect.provider == .oss { #expect(result.verification == .crc64(result.crc64 ?? 0)) }
            #expect(log.all.dropLast().allSatisfy { !$0.isTotalKnown })
            #expect(log.all.last?.totalBytes == Int64(content.count))
            #expect(log.all.last?.isTotalKnown == true)
            #expect(try await Fixture.objectSHA256(client, key: "odd") == Hashing.SHA256.hash(content))
            #expect(try await Fixture.pendingUploads(client).isEmpty)
        }
    }

    @Test("a stream that throws half way: its error, and no upload left", arguments: Fixture.dialects)
    func failingStreamAborts(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Fixture.bucket)
            let partSize = Int(Fixture.partSize(dialect))
            var bytes = ChunkedBytes(content: testBytes(4 * partSize, seed: 7), chunkSizes: [50_000])
            bytes.failAfter = 2 * partSize + partSize / 2
            await #expect(throws: ChunkedBytes.StreamFailure.self) {
                try await client.uploadStream(
                    bytes,
                    bucket: Fixture.bucket,
                    key: "failed",
                    options: Self.options(dialect)
                )
            }
            #expect(try await Fixture.pendingUploads(client).isEmpty)
            await #expect(throws: ServiceError.self) {
                try await client.headObject(bucket: Fixture.bucket, key: "failed")
            }
        }
    }

    @Test("cancelled half way: CancellationError, and no upload left", arguments: Fixture.dialects)
    func cancelledUploadAborts(_ dialect: ClientDialect) async throws {
        let (events, continuation) = AsyncStream<Int>.makeStream()
        let gate: @Sendable (any HTTPTransport) -> any HTTPTransport = {
            PartGateTransport(base: $0, limit: 1_000, events: continuation)
        }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: gate)
            try await client.createBucket(bucket: Fixture.bucket)
            let partSize = Int(Fixture.partSize(dialect))
            // Three parts' worth of bytes, then a stream that never ends.
            let (stream, source) = AsyncStream<ByteBuffer>.makeStream()
            source.yield(ByteBuffer(bytes: testBytes(3 * partSize + 10, seed: 9)))
            let options = Self.options(dialect)
            let task = Task {
                try await client.uploadStream(stream, bucket: Fixture.bucket, key: "cancelled", options: options)
            }
            for await answered in events where answered >= 2 { break }
            task.cancel()
            let outcome = await task.result
            #expect(throws: CancellationError.self) { try outcome.get() }
            source.finish()
            #expect(try await Fixture.pendingUploads(client).isEmpty)
            await #expect(throws: ServiceError.self) {
                try await client.headObject(bucket: Fixture.bucket, key: "cancelled")
            }
        }
    }

    @Test("a stream longer than the part-count limit fails before the extra part", arguments: Fixture.dialects)
    func partCountLimit(_ dialect: ClientDialect) async throws {
        let tally = RequestTally()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: tally.transport)
            try await client.createBucket(bucket: Fixture.bucket)
            let partSize = Int(Fixture.partSize(dialect))
            let fits = testBytes(2 * partSize, seed: 11)
            let result = try await client.uploadStream(
                ChunkedBytes(content: fits, chunkSizes: [100_000]),
                bucket: Fixture.bucket,
                key: "fits",
                options: Self.options(dialect),
                maximumPartCount: 2
            )
            #expect(result.partCount == 2)
            let partsBefore = tally.parts
            do {
                _ = try await client.uploadStream(
                    ChunkedBytes(content: fits + [1], chunkSizes: [100_000]),
                    bucket: Fixture.bucket,
                    key: "too-long",
                    options: Self.options(dialect),
                    maximumPartCount: 2
                )
                Issue.record("expected the part-count limit to fail the upload")
            } catch let error as ObjectStorageError {
                #expect(error.code == .invalidArgument)
                #expect(error.message.contains("longer than 2 parts"))
            }
            #expect(tally.parts == partsBefore + 2)
            #expect(try await Fixture.pendingUploads(client).isEmpty)
        }
    }

    @Test("a checkpoint is refused before any request", arguments: [ClientDialect.ossV4])
    func checkpointRefused(_ dialect: ClientDialect) async throws {
        let tally = RequestTally()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: tally.transport)
            var options = Self.options(dialect)
            options.enableCheckpoint = true
            do {
                _ = try await client.uploadStream(
                    ChunkedBytes(content: [1, 2, 3], chunkSizes: [1]),
                    bucket: Fixture.bucket,
                    key: "k",
                    options: options
                )
                Issue.record("expected enableCheckpoint to be refused")
            } catch let error as ObjectStorageError {
                #expect(error.code == .invalidArgument)
            }
            #expect(tally.total == 0)
        }
    }
}
