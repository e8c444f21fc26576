//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import InMemoryLogging
import Logging
import NIOCore
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

/// The seekable reader against the local server, in every dialect: the bytes at any offset, the GETs it sends for
/// footer, sequential and random patterns, and the typed error when the object is replaced.
@Suite("ObjectReader against the local server")
struct ObjectReaderTests {
    static let content = testBytes(600 * 1024, seed: 9)

    /// Runs `body` with a client and a bucket holding `content` at `key`.
    private func withObject(
        _ dialect: ClientDialect,
        key: String = "data/file.bin",
        _ body: (ObjectStorageClient) async throws -> Void
    ) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "reader")
            _ = try await client.putObject(PutObjectRequest(bucket: "reader", key: key, body: .bytes(Self.content)))
            try await body(client)
        }
    }

    /// Whether `buffer` holds `bytes` (a Bool, so a failure does not print 600 KiB).
    static func same(_ buffer: ByteBuffer, _ bytes: [UInt8]) -> Bool {
        buffer.readableBytes == bytes.count && buffer.readableBytesView.elementsEqual(bytes)
    }

    private func expected(_ offset: Int, _ count: Int) -> [UInt8] {
        Array(Self.content[min(offset, Self.content.count)..<min(offset + count, Self.content.count)])
    }

    @Test("reads at any offset, from many tasks at once", arguments: ClientDialect.all)
    func concurrentReadsReturnTheRightBytes(_ dialect: ClientDialect) async throws {
        try await self.withObject(dialect) { client in
            let reader = try await client.openObject(
                bucket: "reader",
                key: "data/file.bin",
                options: .init(endCacheSize: 16 * 1024)
            )
            #expect(reader.size == Int64(Self.content.count))
            #expect(!reader.etag.isEmpty)
            var generator = SystemRandomNumberGenerator()
            let reads = (0..<48).map { _ in
                (
                    Int.random(in: 0..<Self.content.count, using: &generator),
                    Int.random(in: 1...40_000, using: &generator)
                )
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (offset, count) in reads {
                    group.addTask {
                        let bytes = try await reader.read(at: Int64(offset), count: count)
                        #expect(Self.same(bytes, self.expected(offset, count)), "read(at: \(offset))")
                    }
                }
                try await group.waitForAll()
            }
            // The end of the object: fewer bytes, then none; a negative offset is refused.
            let last = try await reader.read(at: reader.size - 10, count: 100)
            #expect(Self.same(last, Array(Self.content.suffix(10))))
            #expect(try await reader.read(at: reader.size, count: 10).readableBytes == 0)
            #expect(try await reader.read(at: 0, count: .max).readableBytes == Self.content.count)
            let refused = await #expect(throws: ObjectStorageError.self) {
                _ = try await reader.read(at: -1, count: 1)
            }
            #expect(refused?.code == .invalidArgument)
        }
    }

    @Test("a Parquet-like pattern: the footer costs no GET, each column chunk one")
    func parquetPatternRequests() async throws {
        try await self.withObject(.s3) { client in
            let reader = try await client.openObject(bucket: "reader", key: "data/file.bin")
            #expect(reader.requestCount == 1)
            let size = Int(reader.size)
            let magic = try await reader.read(at: reader.size - 8, count: 8)
            #expect(Self.same(magic, self.expected(size - 8, 8)))
            let footer = try await reader.read(at: reader.size - 8 - 20_000, count: 20_000)
            #expect(Self.same(footer, self.expected(size - 20_008, 20_000)))
            #expect(reader.requestCount == 1, "the footer came from the tail fetched at open")
            for offset in [70_000, 300_000, 150_000] {
                let column = try await reader.read(at: Int64(offset), count: 30_000)
                #expect(Self.same(column, self.expected(offset, 30_000)))
            }
            #expect(reader.requestCount == 4, "one bounded GET per column chunk, nothing read ahead")
            // The head is fetched once and then kept.
            _ = try await reader.read(at: 0, count: 4)
            _ = try await reader.read(at: 100, count: 1000)
            #expect(reader.requestCount == 5)
        }
    }

    @Test("sequential reads widen the read-ahead; random reads fetch only what they ask")
    func sequentialReadsReadAhead() async throws {
        try await self.withObject(.ossV4) { client in
            let reader = try await client.openObject(
                bucket: "reader",
                key: "data/file.bin",
                options: .init(endCacheSize: 0, maximumReadAhead: 256 * 1024)
            )
            var received: [UInt8] = []
            var offset: Int64 = 0
            while offset < reader.size {
                let bytes = try await reader.read(at: offset, count: 8 * 1024)
                received += bytes.readableBytesView
                offset += Int64(bytes.readableBytes)
            }
            #expect(received.count == Self.content.count && received == Self.content)
            // 75 reads of 8 KiB: the opening GET, two plain reads, then windows of 128 and 256 KiB.
            #expect(reader.requestCount <= 6, "\(reader.requestCount) GETs for 75 sequential reads")
            let before = reader.requestCount
            for offset in [500_000, 10_000, 400_000] {
                _ = try await reader.read(at: Int64(offset), count: 1000)
            }
            #expect(reader.requestCount == before + 3)
        }
    }

    @Test("chunks stream the object from an offset, also through a presigned URL", arguments: ClientDialect.all)
    func chunksFromAnOffset(_ dialect: ClientDialect) async throws {
        try await self.withObject(dialect) { client in
            let reader = try await client.openObject(bucket: "reader", key: "data/file.bin")
            var received: [UInt8] = []
            for try await chunk in reader.chunks(from: 1000) {
                received += chunk.readableBytesView
            }
            #expect(received.count == Self.content.count - 1000 && received == Array(Self.content[1000...]))
            var none = 0
            for try await _ in reader.chunks(from: reader.size) { none += 1 }
            #expect(none == 0)

            let url = try await client.presign(bucket: "reader", key: "data/file.bin").url
            let presigned = try await client.openObject(presignedURL: url)
            #expect(presigned.size == reader.size)
            #expect(presigned.etag == reader.etag)
            let middle = try await presigned.read(at: 123_456, count: 5000)
            #expect(Self.same(middle, self.expected(123_456, 5000)))
        }
    }

    @Test("a replaced object is objectChanged, never a mix of two objects", arguments: ClientDialect.all)
    func replacedObjectIsATypedError(_ dialect: ClientDialect) async throws {
        try await self.withObject(dialect) { client in
            let reader = try await client.openObject(bucket: "reader", key: "data/file.bin")
            _ = try await client.putObject(
                PutObjectRequest(bucket: "reader", key: "data/file.bin", body: .bytes(testBytes(Self.content.count)))
            )
            let read = await #expect(throws: ObjectStorageError.self) {
                _ = try await reader.read(at: 200_000, count: 100)
            }
            #expect(read?.code == .objectChanged)
            let streamed = await #expect(throws: ObjectStorageError.self) {
                for try await _ in reader.chunks(from: 0) {}
            }
            #expect(streamed?.code == .objectChanged)
            // The tail cached at open is still the opened object's.
            let tail = try await reader.read(at: reader.size - 4, count: 4)
            #expect(Self.same(tail, Array(Self.content.suffix(4))))
        }
    }

    @Test("a version opened by id is read as it was, while newer versions are written", arguments: ClientDialect.all)
    func openedVersionIsPinned(_ dialect: ClientDialect) async throws {
        try await self.withObject(dialect) { client in
            try await client.putBucketVersioning(bucket: "reader", .enabled)
            let first = try #require(
                try await client.putObject(PutObjectRequest(bucket: "reader", key: "v", body: .bytes(Self.content)))
                    .versionID
            )
            _ = try await client.putObject(
                PutObjectRequest(bucket: "reader", key: "v", body: .bytes(testBytes(Self.content.count, seed: 3)))
            )
            let reader = try await client.openObject(
                bucket: "reader",
                key: "v",
                versionID: first,
                options: .init(endCacheSize: 0)
            )
            #expect(reader.versionID == first)
            #expect(reader.size == Int64(Self.content.count))
            let middle = try await reader.read(at: 250_000, count: 10_000)
            #expect(Self.same(middle, self.expected(250_000, 10_000)))
            // A third write does not disturb the version the reader is pinned to.
            _ = try await client.putObject(PutObjectRequest(bucket: "reader", key: "v", body: .bytes([9])))
            var streamed: [UInt8] = []
            for try await chunk in reader.chunks(from: 500_000) { streamed += chunk.readableBytesView }
            #expect(streamed.count == Self.content.count - 500_000 && streamed == Array(Self.content[500_000...]))
        }
    }

    @Test("an empty object opens with size 0; a missing one is NoSuchKey")
    func emptyAndMissingObjects() async throws {
        try await self.withObject(.obs) { client in
            _ = try await client.putObject(PutObjectRequest(bucket: "reader", key: "empty", body: .bytes([])))
            let reader = try await client.openObject(bucket: "reader", key: "empty")
            #expect(reader.size == 0)
            #expect(try await reader.read(at: 0, count: 10).readableBytes == 0)
            var chunks = 0
            for try await _ in reader.chunks() { chunks += 1 }
            #expect(chunks == 0)
            _ = await expectServiceError(.noSuchKey, status: 404) {
                _ = try await client.openObject(bucket: "reader", key: "missing")
            }
        }
    }

    @Test("cancelling a read cancels its GET: the server stops sending")
    func cancellingAReadCancelsItsGET() async throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .info
        let serverLogger = Logger.scanning(label: "reader-server", alsoTo: handler)
        let faults = FaultInjector()
        let size = 8 << 20
        try await LocalObjectServer.withRunning(vendor: .s3, faults: faults, logger: serverLogger) { client, _ in
            try await client.createBucket(bucket: "reader")
            _ = try await client.putObject(
                PutObjectRequest(bucket: "reader", key: "big", body: .bytes(testBytes(size)))
            )
            let reader = try await client.openObject(bucket: "reader", key: "big", options: .init(endCacheSize: 0))
            faults.add(FaultRule(operations: [.getObject], fault: .bandwidthLimit(bytesPerSecond: 1 << 20)))
            let read = Task { try await reader.read(at: 0, count: size) }
            try await Task.sleep(for: .seconds(1))
            let cancelled = ContinuousClock.now
            read.cancel()
            let outcome = await read.result
            #expect(ContinuousClock.now - cancelled < .seconds(3))
            #expect(throws: CancellationError.self) { try outcome.get() }
            // The server logs the GET when it ends: cut short, or complete after the 8 s the whole range takes.
            let lines = try await ServerRequestLog.waitForGetObjectToEnd(in: handler, size: size)
            let cut = lines.first { $0.outcome != "complete" }
            #expect(cut != nil, "server lines: \(lines)")
            #expect((cut?.sent ?? size) < size)
        }
    }

}
