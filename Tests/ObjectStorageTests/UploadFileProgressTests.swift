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

@Suite("uploadFile progress and object options")
struct UploadFileProgressTests {
    typealias Fixture = UploadFileFixture

    /// A progress test, not a timing one: in a full suite on 2 cores a slowed body can wait out the usual 20 s.
    /// The client for `dialect`, with time for the slow link.
    static func patient(_ dialect: ClientDialect) -> (inout ObjectStorageClient.Configuration) -> Void {
        { configuration in
            dialect.configure(&configuration)
            configuration.timeout = .seconds(120)
        }
    }

    @Test("progress moves within a part, never backwards, and ends at the file size", arguments: Fixture.dialects)
    func progressWithinParts(_ dialect: ClientDialect) async throws {
        // Parts of 2 MiB (S3: 5 MiB) are read in 512 KiB chunks; the server reads them slowly, so the
        // throttled reporter is due between two chunks of one part.
        let partSize: Int64 = dialect.provider == .s3 ? 5 << 20 : 2 << 20
        let content = testBytes(Int(partSize) * 2 + 4321, seed: 21)
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: Self.patient(dialect)
        ) { client, _ in
            let client = client.derived(transport: SlowBodyTransport.wrapping)
            try await client.createBucket(bucket: Fixture.bucket)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            var request = Fixture.request(dialect, path: path)
            request.options.partSize = partSize
            request.options.concurrency = 1
            let log = ProgressLog()
            let result = try await client.uploadFile(request, progress: log.handler)
            #expect(result.partsTransferred == 3)
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))

            let reports = log.all.map(\.completedBytes)
            #expect(reports.first == 0)
            #expect(reports.last == Int64(content.count))
            #expect(zip(reports, reports.dropFirst()).allSatisfy { $0 <= $1 })
            // Some reports fall strictly inside a part (not at a part boundary).
            #expect(reports.contains { !$0.isMultiple(of: partSize) && $0 < Int64(content.count) })
            #expect(log.all.allSatisfy { $0.totalBytes == Int64(content.count) })
        }
    }

    @Test("a fast 40 MiB upload reports at least every mebibyte, not only at 0 and 100 %")
    func fastUploadReportsEveryMebibyte() async throws {
        let content = testBytes(40 << 20, seed: 23)
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: Fixture.bucket)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            var request = Fixture.request(.s3, path: path)
            request.options.partSize = 8 << 20
            request.options.concurrency = 4
            let log = ProgressLog()
            _ = try await client.uploadFile(request, progress: log.handler)
            let reports = log.all.map(\.completedBytes)
            #expect(reports.first == 0)
            #expect(reports.last == Int64(content.count))
            // Bytes are counted in pieces of at most 512 KiB, so no gap between two reports can exceed
            // one mebibyte plus one piece from each of the four parts in flight.
            let largestGap = zip(reports, reports.dropFirst()).map { $1 - $0 }.max() ?? Int64(content.count)
            #expect(largestGap <= (1 << 20) + 4 * (512 << 10), "reports: \(reports)")
            #expect(reports.count >= 20)
        }
    }

    @Test("a single PUT reports progress within the file too", arguments: [ClientDialect.ossV4, .s3])
    func progressWithinSinglePut(_ dialect: ClientDialect) async throws {
        let content = testBytes(2 << 20, seed: 22)
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: Self.patient(dialect)
        ) { client, _ in
            let client = client.derived(transport: SlowBodyTransport.wrapping)
            try await client.createBucket(bucket: Fixture.bucket)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            var request = Fixture.request(dialect, path: path)
            request.options.partSize = 8 << 20
            let log = ProgressLog()
            let result = try await client.uploadFile(request, progress: log.handler)
            #expect(!result.isMultipart)
            let reports = log.all.map(\.completedBytes)
            #expect(reports.contains { $0 > 0 && $0 < Int64(content.count) })
            #expect(reports.last == Int64(content.count))
            #expect(zip(reports, reports.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    @Test(
        "a failed part attempt is retried and its bytes are not counted twice",
        arguments: [ClientDialect.ossV4, .s3]
    )
    func retriedPartCountsOnce(_ dialect: ClientDialect) async throws {
        let partSize = Int64(dialect.minimumPartSize)
        let content = testBytes(Int(partSize) * 2 + 99, seed: 23)
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: FailFirstPartTransport.wrapping)
            try await client.createBucket(bucket: Fixture.bucket)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            var request = Fixture.request(dialect, path: path)
            request.options.concurrency = 1
            let log = ProgressLog()
            _ = try await client.uploadFile(request, progress: log.handler)
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
            let reports = log.all.map(\.completedBytes)
            #expect(reports.allSatisfy { $0 <= Int64(content.count) })
            #expect(reports.last == Int64(content.count))
            #expect(zip(reports, reports.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    @Test(
        "the website redirect location reaches CreateMultipartUpload, directly and through uploadFile",
        arguments: Fixture.dialects
    )
    func websiteRedirectLocation(_ dialect: ClientDialect) async throws {
        let recorder = Mutex<[HTTPHeaders]>([])
        let transport: @Sendable (any HTTPTransport) -> any HTTPTransport = { base in
            RecordingTransport(base: base) { request in
                if request.method == .POST, request.url.contains("?uploads"), !request.url.contains("uploadId") {
                    recorder.withLock { $0.append(request.headers) }
                }
            }
        }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: transport)
            try await client.createBucket(bucket: Fixture.bucket)
            var attributes = UploadAttributes()
            attributes.websiteRedirectLocation = "/direct.html"
            let uploadID = try await client.createMultipartUpload(
                bucket: Fixture.bucket,
                key: "direct",
                attributes: attributes
            )
            try await client.abortMultipartUpload(bucket: Fixture.bucket, key: "direct", uploadID: uploadID)

            let path = try Fixture.makeFile(testBytes(1000, seed: 24))
            defer { Fixture.cleanUp(path) }
            var request = Fixture.request(dialect, path: path, key: "engine")
            request.options.forceMultipart = true
            request.attributes.websiteRedirectLocation = "/engine.html"
            _ = try await client.uploadFile(request)

            let name =
                client.configuration.vendor == .oss
                ? "x-oss-"
                : client.configuration.vendor == .obs
                    ? "x-obs-" : "x-amz-"
            let values = recorder.withLock { $0 }.map { $0.first(name: name + "website-redirect-location") }
            #expect(values == ["/direct.html", "/engine.html"])
        }
    }
}

/// Reads each upload body slowly (a pause after every chunk), like a slow link.
struct SlowBodyTransport: HTTPTransport {
    static let wrapping: @Sendable (any HTTPTransport) -> any HTTPTransport = { SlowBodyTransport(base: $0) }

    let base: any HTTPTransport

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        guard request.method == .PUT, let body = request.body else {
            return try await base.execute(request, deadline: deadline, logger: logger)
        }
        var bytes = ByteBuffer()
        for try await var chunk in body {
            bytes.writeBuffer(&chunk)
            try await Task.sleep(for: .milliseconds(150))
        }
        var slowed = request
        slowed.body = .bytes(bytes)
        return try await base.execute(slowed, deadline: deadline, logger: logger)
    }
}

/// Reads the first UploadPart body halfway, then fails it with a transient connection error.
final class FailFirstPartTransport: HTTPTransport {
    static let wrapping: @Sendable (any HTTPTransport) -> any HTTPTransport = { FailFirstPartTransport(base: $0) }

    let base: any HTTPTransport
    private let failed = Mutex(false)

    init(base: any HTTPTransport) { self.base = base }

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        guard request.method == .PUT, request.url.contains("partNumber="), let body = request.body,
            failed.withLock({ failed in
                defer { failed = true }
                return !failed
            })
        else {
            return try await base.execute(request, deadline: deadline, logger: logger)
        }
        var read = 0
        for try await chunk in body {
            read += chunk.readableBytes
            if read >= Int(body.length ?? 0) / 2 { break }
        }
        throw TransportError(code: .connectionClosed, message: "test: connection dropped mid-part")
    }
}

/// Passes every request through after showing it to `inspect`, which may also act first (and fail the request by
/// throwing).
struct RecordingTransport: HTTPTransport {
    let base: any HTTPTransport
    let inspect: @Sendable (TransportRequest) async throws -> Void

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        try await inspect(request)
        return try await base.execute(request, deadline: deadline, logger: logger)
    }
}
