//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageCheckpoint
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@Suite("uploadFile: checkpoints, resume and recovery")
struct UploadFileResumeTests {
    typealias Fixture = UploadFileFixture

    /// Fails the upload (400, not retried) at the third UploadPart with concurrency 1, so exactly
    /// two parts are recorded in the checkpoint.
    static func failAfterTwoParts(_ server: LocalObjectServer) {
        server.faults.add(
            FaultRule(
                operations: [.uploadPart],
                trigger: .nth(3),
                fault: .error(status: 400, code: "InvalidArgument", message: "injected")
            )
        )
    }

    /// Runs the failing first call and checks what it leaves behind.
    static func interruptedUpload(
        _ client: ObjectStorageClient,
        _ server: LocalObjectServer,
        request: UploadFileCall
    ) async throws -> UploadCheckpoint {
        failAfterTwoParts(server)
        var first = request
        first.options.concurrency = 1
        await #expect(throws: ServiceError.self) { try await client.uploadFile(first) }
        server.faults.removeAll()
        let identity = UploadCheckpoint.Identity(
            vendor: client.configuration.vendor.description,
            endpoint: client.configuration.endpoint.description,
            bucket: request.bucket,
            key: request.key,
            sourcePath: request.filePath
        )
        let loaded = CheckpointStore(logger: .scanning).load(
            at: request.filePath + ".ucp",
            expecting: UploadCheckpoint.Expectation(
                identity: identity,
                parameters: parameters(of: request, vendor: client.configuration.vendor)
            )
        )
        let checkpoint = try #require(loaded.checkpoint)
        #expect(checkpoint.parts.map(\.number) == [1, 2])
        #expect(try await Fixture.pendingUploads(client) == [checkpoint.uploadId])
        return checkpoint
    }

    /// What the upload's checkpoint records: the guessed media type and, to S3 with verification on, that the upload
    /// was created for S3's full-object CRC-64/NVME.
    static func parameters(of request: UploadFileCall, vendor: StorageVendor) -> UploadCheckpoint.ObjectParameters {
        var parameters = UploadCheckpoint.ObjectParameters(contentType: "application/octet-stream")
        if vendor == .s3 && request.options.integrityCheck != .off {
            parameters.additionalHeaders["x-amz-checksum-algorithm"] = "CRC64NVME"
        }
        return parameters
    }

    @Test("a failed call keeps the checkpoint; the next call sends only the missing parts", arguments: Fixture.dialects)
    func resumesAfterFailure(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: Fixture.bucket)
            let content = testBytes(Fixture.fileSize(dialect), seed: 21)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            let request = Fixture.request(dialect, path: path)
            let checkpoint = try await Self.interruptedUpload(client, server, request: request)

            let log = ProgressLog()
            let result = try await client.uploadFile(request, progress: log.handler)
            #expect(result.partsReused == 2)
            #expect(result.partsTransferred == checkpoint.partCount - 2)
            #expect(result.restarts == 0)
            #expect(log.all.first?.completedBytes == checkpoint.bytesCompleted)
            #expect(log.all.first?.resumedBytes == checkpoint.bytesCompleted)
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
            #expect(try await Fixture.pendingUploads(client).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path + ".ucp"))
        }
    }

    @Test("cancelled at a random part, then resumed: the object equals the file", arguments: Fixture.dialects)
    func resumesAfterCancellation(_ dialect: ClientDialect) async throws {
        let content = testBytes(Fixture.fileSize(dialect), seed: 33)
        let path = try Fixture.makeFile(content)
        defer { Fixture.cleanUp(path) }
        let request = Fixture.request(dialect, path: path)
        let partCount = (content.count + Int(Fixture.partSize(dialect)) - 1) / Int(Fixture.partSize(dialect))
        let limit = Int.random(in: 1..<partCount)
        let (events, continuation) = AsyncStream<Int>.makeStream()
        let gate: @Sendable (any HTTPTransport) -> any HTTPTransport = {
            PartGateTransport(base: $0, limit: limit, events: continuation)
        }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: gate)
            try await client.createBucket(bucket: Fixture.bucket)
            let task = Task { try await client.uploadFile(request) }
            for await answered in events where answered >= limit { break }
            task.cancel()
            let outcome = await task.result
            #expect(throws: CancellationError.self) { try outcome.get() }
            #expect(FileManager.default.fileExists(atPath: path + ".ucp"))

            let resumed = try await Fixture.plainClient(like: client).uploadFile(request)
            #expect(resumed.partsReused + resumed.partsTransferred == partCount)
            #expect(resumed.partsReused <= limit + request.options.concurrency - 1)
            #expect(resumed.restarts == 0)
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
            #expect(try await Fixture.pendingUploads(client).isEmpty)
        }
    }

    @Test(
        "parts recorded in the checkpoint but not on the server (wrong ETag, never sent) are sent again",
        arguments: Fixture.dialects
    )
    func resendsUnconfirmedParts(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: Fixture.bucket)
            let content = testBytes(Fixture.fileSize(dialect), seed: 44)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            let request = Fixture.request(dialect, path: path)
            var checkpoint = try await Self.interruptedUpload(client, server, request: request)
            let part2 = checkpoint.range(ofPart: 2)
            try checkpoint.recordPart(
                .init(number: 2, etag: "\"0123456789abcdef0123456789abcdef\"", size: Int64(part2.count))
            )
            let part3 = checkpoint.range(ofPart: 3)
            try checkpoint.recordPart(
                .init(number: 3, etag: "\"feedfacefeedfacefeedfacefeedface\"", size: Int64(part3.count))
            )
            try CheckpointStore(logger: .scanning).save(checkpoint, to: path + ".ucp")

            let result = try await client.uploadFile(request)
            #expect(result.partsReused == 1)
            #expect(result.partsTransferred == checkpoint.partCount - 1)
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
        }
    }

    @Test(
        "an upload aborted behind the checkpoint's back (NoSuchUpload) starts a fresh upload",
        arguments: Fixture.dialects
    )
    func noSuchUploadOnResume(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: Fixture.bucket)
            let content = testBytes(Fixture.fileSize(dialect), seed: 55)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            let request = Fixture.request(dialect, path: path)
            let checkpoint = try await Self.interruptedUpload(client, server, request: request)
            try await client.abortMultipartUpload(
                bucket: Fixture.bucket,
                key: "object",
                uploadID: checkpoint.uploadId
            )

            let result = try await client.uploadFile(request)
            #expect(result.restarts == 1)
            #expect(result.partsReused == 0)
            #expect(result.partsTransferred == checkpoint.partCount)
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
            #expect(try await Fixture.pendingUploads(client).isEmpty)
        }
    }

    @Test("NoSuchUpload answered to UploadPart mid-upload starts a fresh upload", arguments: Fixture.dialects)
    func noSuchUploadDuringParts(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: Fixture.bucket)
            let content = testBytes(Fixture.fileSize(dialect), seed: 66)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            server.faults.add(
                FaultRule(
                    operations: [.uploadPart],
                    trigger: .nth(2),
                    fault: .error(status: 404, code: "NoSuchUpload", message: "injected")
                )
            )
            var request = Fixture.request(dialect, path: path)
            request.options.concurrency = 1
            let result = try await client.uploadFile(request)
            #expect(result.restarts == 1)
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
            // The first upload still holds part 1 on the server (it was never told otherwise).
            #expect(try await Fixture.pendingUploads(client).count <= 1)
        }
    }

    @Test(
        "a file changed between calls: the old upload is aborted and the new object is correct",
        arguments: Fixture.dialects
    )
    func changedFile(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: Fixture.bucket)
            let path = try Fixture.makeFile(testBytes(Fixture.fileSize(dialect), seed: 77))
            defer { Fixture.cleanUp(path) }
            let request = Fixture.request(dialect, path: path)
            let old = try await Self.interruptedUpload(client, server, request: request)

            let changed = testBytes(Fixture.fileSize(dialect) + 1000, seed: 78)
            try Data(changed).write(to: URL(fileURLWithPath: path))
            let result = try await client.uploadFile(request)
            #expect(result.restarts == 1)
            #expect(result.partsReused == 0)
            let pending = try await Fixture.pendingUploads(client)
            #expect(!pending.contains(old.uploadId))
            #expect(pending.isEmpty)
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(changed))
        }
    }

    @Test("abandonUploadFile aborts the server's upload and removes the checkpoint", arguments: [ClientDialect.ossV4])
    func explicitAbort(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: Fixture.bucket)
            let path = try Fixture.makeFile(testBytes(Fixture.fileSize(dialect), seed: 88))
            defer { Fixture.cleanUp(path) }
            let request = Fixture.request(dialect, path: path)
            _ = try await Self.interruptedUpload(client, server, request: request)

            #expect(try await client.abandonUploadFile(request))
            #expect(try await Fixture.pendingUploads(client).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path + ".ucp"))
            #expect(try await client.abandonUploadFile(request) == false)
        }
    }

    @Test("checkpoint off: a failed multipart upload is aborted on the server", arguments: Fixture.dialects)
    func checkpointOffAborts(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: Fixture.bucket)
            let path = try Fixture.makeFile(testBytes(Fixture.fileSize(dialect), seed: 99))
            defer { Fixture.cleanUp(path) }
            Self.failAfterTwoParts(server)
            var request = Fixture.request(dialect, path: path)
            request.options.enableCheckpoint = false
            request.options.concurrency = 1
            await #expect(throws: ServiceError.self) { try await client.uploadFile(request) }
            #expect(try await Fixture.pendingUploads(client).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path + ".ucp"))
        }
    }
}
