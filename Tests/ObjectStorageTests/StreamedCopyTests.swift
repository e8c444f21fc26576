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

/// `resumableCopy(bucket:key:from:...)`: copies between two local servers of different dialects, streamed
/// through the client.
@Suite("Streamed copy between endpoints")
struct StreamedCopyTests {
    typealias Copy = ResumableCopyTests
    static let bucket = Copy.bucket

    /// Runs `body` with a source server and a destination server, the source holding `source`.
    static func withServers(
        from sourceDialect: ClientDialect,
        to destinationDialect: ClientDialect,
        source: [UInt8],
        destinationFaults: FaultInjector = FaultInjector(),
        destinationTransport: @Sendable (any HTTPTransport) -> any HTTPTransport = { $0 },
        _ body: (_ source: ObjectStorageClient, _ destination: ObjectStorageClient) async throws -> Void
    ) async throws {
        try await LocalObjectServer.withRunning(
            vendor: sourceDialect.wire,
            logger: .scanning,
            configureClient: sourceDialect.configure
        ) { sourceClient, _ in
            try await sourceClient.createBucket(bucket: bucket)
            try await Copy.put(sourceClient, "source", source)
            try await LocalObjectServer.withRunning(
                vendor: destinationDialect.wire,
                faults: destinationFaults,
                logger: .scanning,
                configureClient: destinationDialect.configure
            ) { destination, _ in
                let destination = destination.derived(transport: destinationTransport)
                try await destination.createBucket(bucket: bucket)
                try await body(sourceClient, destination)
                #expect(try await UploadFileFixture.pendingUploads(destination).isEmpty)
            }
        }
    }

    static func copy(
        _ destination: ObjectStorageClient,
        from source: ObjectStorageClient,
        options: TransferOptions
    ) async throws -> TransferResult {
        try await destination.resumableCopy(
            bucket: bucket,
            key: "copy",
            from: source,
            sourceBucket: bucket,
            sourceKey: "source",
            options: options
        )
    }

    /// Parts of the larger of the two dialects' minimum part sizes.
    static func options(_ dialects: ClientDialect..., concurrency: Int = 4) -> TransferOptions {
        let partSize = dialects.map(\.minimumPartSize).max() ?? 0
        var options = TransferOptions(partSize: Int64(partSize), concurrency: concurrency)
        options.forceMultipart = true
        return options
    }

    @Test("OSS to OBS and S3 to OSS: byte-identical, metadata carried, CRC-64 compared end to end")
    func acrossProviders() async throws {
        // Many small parts between OSS and OBS; the fewest S3 allows (5 MiB each) from S3.
        for (from, to, parts) in [(ClientDialect.ossV4, ClientDialect.obs, 8), (.s3, .ossV4, 3)] {
            let size = (parts - 1) * max(from.minimumPartSize, to.minimumPartSize) + 4_321
            let source = testBytes(size, seed: 41)
            try await Self.withServers(from: from, to: to, source: source) { sourceClient, destination in
                let result = try await Self.copy(destination, from: sourceClient, options: Self.options(from, to))
                #expect(result.isMultipart)
                #expect(result.partCount == parts)
                #expect(result.partsTransferred == parts)
                #expect(result.bytesTransferred == Int64(size))
                // Parts stream from the GET into the UploadPart: no Content-MD5, the ETags are compared instead.
                #expect(!result.contentMD5Verified)
                // OSS reports a CRC-64: as the source it checks the bytes read, as the destination the bytes stored.
                #expect(result.verification == .crc64(CRC64.checksum(source)))
                #expect(try await Copy.object(destination, "copy") == source)
                let head = try await destination.headObject(bucket: Self.bucket, key: "copy")
                #expect(head.contentType == "video/mp4")
                #expect(head.metadata == ["origin": "camera"])
                #expect(head.cacheControl == "max-age=60")
            }
        }
    }

    @Test("with enableMD5Check, each part is read whole and sent with its Content-MD5")
    func partsCarryContentMD5WhenAsked() async throws {
        let size = 3 * ClientDialect.s3.minimumPartSize + 17
        let source = testBytes(size, seed: 47)
        try await Self.withServers(from: .obs, to: .s3, source: source) { sourceClient, destination in
            var options = Self.options(.obs, .s3)
            options.enableMD5Check = true
            let result = try await Self.copy(destination, from: sourceClient, options: options)
            #expect(result.partCount == 4)
            #expect(result.contentMD5Verified)
            #expect(try await Copy.object(destination, "copy") == source)
        }
    }

    @Test("bytes damaged on their way to the destination: the part's ETag is not their MD5; it is read and sent again")
    func aDamagedPartIsSentAgain() async throws {
        let size = 2 * ClientDialect.s3.minimumPartSize + 3
        let source = testBytes(size, seed: 48)
        let transport = FirstPartDamagingTransport(base: AsyncHTTPClientTransport.shared)
        let wrap: @Sendable (any HTTPTransport) -> any HTTPTransport = { _ in transport }
        try await Self.withServers(from: .ossV4, to: .s3, source: source, destinationTransport: wrap) {
            sourceClient,
            destination in
            let result = try await Self.copy(destination, from: sourceClient, options: Self.options(.ossV4, .s3))
            #expect(transport.damaged.withLock { $0 })
            #expect(result.partCount == 3)
            // One part went twice: the damaged attempt and the one that replaced it.
            #expect(transport.uploadParts.withLock { $0 } == 4)
            #expect(try await Copy.object(destination, "copy") == source)
        }
    }

    @Test("a source no larger than one part is one GET and one PUT")
    func aSmallSourceIsOneGetAndOnePut() async throws {
        let source = testBytes(5_000, seed: 42)
        try await Self.withServers(from: .obs, to: .s3, source: source) { sourceClient, destination in
            let result = try await Self.copy(destination, from: sourceClient, options: TransferOptions())
            #expect(!result.isMultipart)
            #expect(result.partCount == 1)
            #expect(try await Copy.object(destination, "copy") == source)
            #expect(try await destination.headObject(bucket: Self.bucket, key: "copy").metadata == ["origin": "camera"])
        }
    }

    @Test("interrupted, then resumed: the parts already copied are not read or sent again")
    func anInterruptedCopyResumes() async throws {
        let source = testBytes(20 * ClientDialect.ossV4.minimumPartSize + 99, seed: 43)
        let directory = temporaryPath("streamed-copy")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let faults = FaultInjector()
        try await Self.withServers(from: .ossV4, to: .obs, source: source, destinationFaults: faults) {
            sourceClient,
            destination in
            var options = Self.options(.ossV4, .obs, concurrency: 1)
            options.enableCheckpoint = true
            options.checkpointFilePath = directory + "/streamed.ccp"
            faults.add(
                FaultRule(
                    operations: [.uploadPart],
                    trigger: .nth(3),
                    fault: .error(status: 403, code: "AccessDenied", message: "Access Denied.")
                )
            )
            await #expect(throws: ServiceError.self) {
                try await Self.copy(destination, from: sourceClient, options: options)
            }
            #expect(FileManager.default.fileExists(atPath: directory + "/streamed.ccp"))
            faults.removeAll()
            let result = try await Self.copy(destination, from: sourceClient, options: options)
            #expect(result.partsReused == 2)
            #expect(result.partsTransferred == result.partCount - 2)
            #expect(try await Copy.object(destination, "copy") == source)
            #expect(!FileManager.default.fileExists(atPath: directory + "/streamed.ccp"))
        }
    }

    @Test("a source replaced mid-copy: its next GET fails If-Match and the copy restarts from the new source")
    func aReplacedSourceRestartsTheCopy() async throws {
        let first = testBytes(3 * ClientDialect.obs.minimumPartSize, seed: 44)
        let second = testBytes(3 * ClientDialect.obs.minimumPartSize + 555, seed: 45)
        let transport = SourceReplacingTransport(base: AsyncHTTPClientTransport.shared)
        let wrap: @Sendable (any HTTPTransport) -> any HTTPTransport = { _ in transport }
        try await Self.withServers(from: .ossV4, to: .obs, source: first, destinationTransport: wrap) {
            sourceClient,
            destination in
            // Before part 2 is sent, another writer replaces the source: part 3's GET no longer matches.
            transport.replacement.withLock {
                $0 = {
                    _ = try await sourceClient.putObject(
                        PutObjectRequest(bucket: Self.bucket, key: "source", body: .bytes(second))
                    )
                }
            }
            let result = try await Self.copy(
                destination,
                from: sourceClient,
                options: Self.options(.ossV4, .obs, concurrency: 1)
            )
            #expect(transport.replaced.withLock { $0 })
            #expect(result.restarts == 1)
            #expect(try await Copy.object(destination, "copy") == second)
        }
    }

    @Test("bytes corrupted between source and client: the CRC-64 comparison with the source fails the copy")
    func corruptedReadsFailTheCopy() async throws {
        let source = testBytes(5 * ClientDialect.ossV4.minimumPartSize, seed: 46)
        try await Self.withServers(from: .ossV4, to: .obs, source: source) { sourceClient, destination in
            let corrupting = ObjectStorageClient(
                configuration: sourceClient.configuration,
                transport: CorruptingTransport(base: AsyncHTTPClientTransport.shared, mode: .flipFirstBodyByte),
                logger: .scanning
            )
            let error = await #expect(throws: ObjectStorageError.self) {
                try await Self.copy(destination, from: corrupting, options: Self.options(.ossV4, .obs))
            }
            #expect(error?.code == .integrityMismatch)
            await #expect(throws: ServiceError.self) {
                try await destination.headObject(bucket: Self.bucket, key: "copy")
            }
        }
    }
}

/// Flips the first byte of the first UploadPart body it sends, as a faulty path between client and service would:
/// the service stores what it received, and answers with the MD5 of that.
final class FirstPartDamagingTransport: HTTPTransport {
    let base: any HTTPTransport
    let damaged = Mutex(false)
    let uploadParts = Mutex(0)

    init(base: any HTTPTransport) { self.base = base }

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        guard request.method == .PUT, request.url.contains("partNumber="), let body = request.body else {
            return try await base.execute(request, deadline: deadline, logger: logger)
        }
        uploadParts.withLock { $0 += 1 }
        let first = damaged.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return try await base.execute(request, deadline: deadline, logger: logger) }
        var altered = request
        altered.body = .stream(FirstByteFlipped(base: body), length: body.length)
        return try await base.execute(altered, deadline: deadline, logger: logger)
    }

    struct FirstByteFlipped: AsyncSequence, Sendable {
        let base: TransportRequest.Body

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: TransportRequest.Body.AsyncIterator
            var flipped = false

            mutating func next() async throws -> ByteBuffer? {
                guard var chunk = try await base.next() else { return nil }
                if !flipped, let byte = chunk.getInteger(at: chunk.readerIndex, as: UInt8.self) {
                    chunk.setInteger(byte ^ 0xFF, at: chunk.readerIndex)
                    flipped = true
                }
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
    }
}
