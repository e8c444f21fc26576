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
        destinationTransport: (@Sendable (any HTTPTransport) -> any HTTPTransport)? = nil,
        _ body: (_ source: ObjectStorageClient, _ destination: ObjectStorageClient) async throws -> Void
    ) async throws {
        try await withClient(sourceDialect) { sourceClient, _ in
            try await sourceClient.createBucket(bucket: bucket)
            try await Copy.put(sourceClient, "source", source)
            try await withClient(destinationDialect, faults: destinationFaults, transport: destinationTransport) {
                destination,
                _ in
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
                #expect(result.contentMD5Verified)
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
