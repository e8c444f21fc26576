//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import NIOHTTP1
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

/// What a server that streams objects out (GET) and in (PUT) for its own clients relies on.
@Suite("The client embedded in a server")
struct EmbeddedServerTests {
    @Test(
        "slow streamed downloads in flight never delay another request",
        arguments: [nil, 16] as [Int?]
    )
    func slowDownloadsNeverDelayAnotherRequest(maximumConnectionsPerHost: Int?) async throws {
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(vendor: .s3, faults: faults, logger: .scanning) { shared, _ in
            // The default client (the SDK's process-wide pool), or one whose pool is set in its one place.
            guard let maximumConnectionsPerHost else {
                return try await expectSmallRequestsUnaffectedBySlowStreams(shared, faults: faults)
            }
            var http = HTTPConfiguration()
            http.maximumConnectionsPerHost = maximumConnectionsPerHost
            try await withObjectStorageClient(configuration: shared.configuration, http: http) { client in
                try await expectSmallRequestsUnaffectedBySlowStreams(client, faults: faults)
            }
        }
    }

    /// Opens ten slow streamed downloads, then expects a small GET and a 404 to be answered while all of them are
    /// still open.
    private func expectSmallRequestsUnaffectedBySlowStreams(
        _ client: ObjectStorageClient,
        faults: FaultInjector
    ) async throws {
        try await client.createBucket(bucket: "slow")
        try await client.createBucket(bucket: "fast")
        try await client.putObject(PutObjectRequest(bucket: "slow", key: "k", body: .bytes(testBytes(4 << 20))))
        let small = testBytes(100 * 1024, seed: 2)
        try await client.putObject(PutObjectRequest(bucket: "fast", key: "k", body: .bytes(small)))
        // Each slow reader's stream takes two minutes: it holds its connection until cancelled.
        faults.add(FaultRule(operations: [.getObject], bucket: "slow", fault: .bandwidthLimit(bytesPerSecond: 32_768)))
        let streams = 10
        let (opened, open) = AsyncStream<Void>.makeStream()
        let finished = CallCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<streams {
                group.addTask {
                    let response = try await client.getObject(GetObjectRequest(bucket: "slow", key: "k"))
                    var chunks = response.body.makeAsyncIterator()
                    _ = try await chunks.next()
                    open.yield()
                    while try await chunks.next() != nil {}
                    finished.increment()
                }
            }
            var count = 0
            for await _ in opened {
                count += 1
                if count == streams { break }
            }
            // Every slow stream now holds a connection and is being read.
            let body = try await client.getObject(GetObjectRequest(bucket: "fast", key: "k")).body
            #expect(try await body.collect(upTo: 1 << 20).bytes == small)
            let missing = await expectServiceError(.noSuchKey, status: 404) {
                _ = try await client.getObject(GetObjectRequest(bucket: "fast", key: "missing"))
            }
            #expect(missing.flatMap { ServiceError.httpStatus(of: $0) } == 404)
            // Both answers came while every slow stream was still open.
            #expect(finished.count == 0)
            group.cancelAll()
        }
    }

    @Test("a reader that pauses past the read-idle timeout gets the whole object; one that stops is cut, typed")
    func pausedReaderIsNotCutButAStoppedOneIs() async throws {
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(vendor: .s3, faults: faults, logger: .scanning) { shared, _ in
            try await shared.createBucket(bucket: "paused")
            let content = testBytes(4 << 20)
            try await shared.putObject(PutObjectRequest(bucket: "paused", key: "k", body: .bytes(content)))
            faults.add(FaultRule(operations: [.getObject], fault: .bandwidthLimit(bytesPerSecond: 1 << 20)))
            var http = HTTPConfiguration()
            // The application's pauses below are three times the read-idle timeout: back-pressure, not a silent
            // server, so they never count against it. Stopping for longer than the unread-body timeout does.
            http.readIdleTimeout = .seconds(2)
            http.unreadBodyTimeout = .seconds(8)
            try await withObjectStorageClient(configuration: shared.configuration, http: http) { client in
                let response = try await client.getObject(GetObjectRequest(bucket: "paused", key: "k"))
                var received: [UInt8] = []
                var pauses = 0
                for try await chunk in response.body {
                    received += chunk.readableBytesView
                    if pauses < 2 && received.count > pauses * (1 << 20) + 100_000 {
                        pauses += 1
                        try await Task.sleep(for: .seconds(6))
                    }
                }
                #expect(pauses == 2)
                #expect(received.count == content.count && received == content)

                let stopped = try await client.getObject(GetObjectRequest(bucket: "paused", key: "k"))
                var chunks = stopped.body.makeAsyncIterator()
                var got = try await chunks.next()?.readableBytes ?? 0
                // The application stops reading past the unread-body timeout.
                try await Task.sleep(for: .seconds(12))
                await #expect {
                    while let chunk = try await chunks.next() { got += chunk.readableBytes }
                } throws: { error in
                    (error as? TransportError)?.code == .bodyUnread
                }
                #expect(got < content.count)
            }
        }
    }

    @Test("a server silent mid-body while the reader waits is a read timeout, within the read-idle timeout")
    func silentServerMidBodyIsAReadTimeout() async throws {
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(vendor: .s3, faults: faults, logger: .scanning) { shared, _ in
            try await shared.createBucket(bucket: "silent")
            try await shared.putObject(PutObjectRequest(bucket: "silent", key: "k", body: .bytes(testBytes(2 << 20))))
            faults.add(FaultRule(operations: [.getObject], fault: .delayBetweenChunks(.seconds(8))))
            var http = HTTPConfiguration()
            http.readIdleTimeout = .seconds(1)
            var configuration = shared.configuration
            configuration.retry = .none
            try await withObjectStorageClient(configuration: configuration, http: http) { client in
                let started = ContinuousClock.now
                await #expect {
                    let response = try await client.getObject(GetObjectRequest(bucket: "silent", key: "k"))
                    for try await _ in response.body {}
                } throws: { error in
                    (error as? TransportError)?.code == .readTimeout
                }
                #expect(ContinuousClock.now - started < .seconds(6))
            }
        }
    }

    @Test("a body that ends before its Content-Length throws, whatever the transport")
    func shortBodyThrowsWhateverTheTransport() async throws {
        let truncating: @Sendable (any HTTPTransport) -> any HTTPTransport = { TruncatingTransport(base: $0) }
        try await LocalObjectServer.withRunning(vendor: .oss, logger: .scanning) { client, _ in
            let client = client.derived(transport: truncating)
            try await client.createBucket(bucket: "short")
            let content = testBytes(300_000)
            try await client.putObject(PutObjectRequest(bucket: "short", key: "k", body: .bytes(content)))
            for range in [nil, ByteRange(httpRangeHeader: "bytes=1000-199999")] {
                var get = GetObjectRequest(bucket: "short", key: "k")
                get.range = range
                let response = try await client.getObject(get)
                await #expect {
                    _ = try await response.body.collect(upTo: 1 << 20)
                } throws: { error in
                    (error as? TransportError)?.code == .bodyTruncated
                }
            }
        }
    }

    @Test("a slow but moving upload and download outlive the operation timeout")
    func slowButMovingTransfersNeverTimeOut() async throws {
        let faults = FaultInjector()
        // Room for connecting and answering on a loaded machine (a full suite on 2 cores took more than 3 s before a
        // body started), and transfers that move for longer than it.
        let shortTimeout: (inout ObjectStorageClient.Configuration) -> Void = { $0.timeout = .seconds(10) }
        try await LocalObjectServer.withRunning(
            vendor: .s3,
            faults: faults,
            logger: .scanning,
            configureClient: shortTimeout
        ) { client, _ in
            try await client.createBucket(bucket: "slow")
            let content = testBytes(130 * 16384)
            // 130 pieces, one every 100 ms: the upload moves for longer than the operation timeout.
            let body = PacedBuffers(content, piece: 16384, every: .milliseconds(100))
            try await client.putObject(
                PutObjectRequest(bucket: "slow", key: "k", body: .stream(body, length: Int64(content.count)))
            )
            // 2,080 KiB at 160 KiB/s: the download moves for longer than the operation timeout.
            faults.add(FaultRule(operations: [.getObject], fault: .bandwidthLimit(bytesPerSecond: 160 * 1024)))
            let response = try await client.getObject(GetObjectRequest(bucket: "slow", key: "k"))
            #expect(try await response.body.collect(upTo: 4 << 20).bytes == content)
        }
    }

    @Test("the HTTP status of a service answer is reachable from what the client threw")
    func serviceStatusIsReachable() async throws {
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(vendor: .oss, faults: faults, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "status")
            do {
                _ = try await client.getObject(GetObjectRequest(bucket: "status", key: "missing"))
                Issue.record("expected NoSuchKey")
            } catch {
                #expect(ServiceError.httpStatus(of: error) == 404)
            }
            faults.add(FaultRule(operations: [.headObject], fault: .slowDown))
            do {
                _ = try await client.headObject(bucket: "status", key: "missing")
                Issue.record("expected SlowDown")
            } catch {
                #expect(ServiceError.httpStatus(of: error) == 503)
            }
        }
        #expect(ServiceError.httpStatus(of: TransportError(code: .connectFailed, message: "refused")) == nil)
        #expect(ServiceError.httpStatus(of: CancellationError()) == nil)
    }
}

/// Cuts every successful GET's body short by a tenth, keeping its headers: a transport whose body ends early
/// without an error.
private struct TruncatingTransport: HTTPTransport {
    let base: any HTTPTransport

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        let response = try await self.base.execute(request, deadline: deadline, logger: logger)
        guard request.method == .GET, response.status.code / 100 == 2,
            let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > 0
        else { return response }
        var kept = try await response.body.collect(upTo: length)
        let short = kept.readSlice(length: length - length / 10) ?? ByteBuffer()
        return TransportResponse(
            status: response.status,
            headers: response.headers,
            body: .stream(
                AsyncStream { continuation in
                    continuation.yield(short)
                    continuation.finish()
                }
            )
        )
    }
}
