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
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@Suite("Retries, faults, cancellation and clock skew")
struct ResilienceTests {
    @Test("5xx and throttling then success", arguments: ClientDialect.all)
    func retriesServerErrors(_ dialect: ClientDialect) async throws {
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "retry")
            try await client.putObject(PutObjectRequest(bucket: "retry", key: "k", body: .bytes(testBytes(10))))
            faults.add(FaultRule(operations: [.getObject], trigger: .nth(1), fault: .internalError))
            faults.add(FaultRule(operations: [.getObject], trigger: .nth(2), fault: .slowDown))
            let body = try await client.getObject(GetObjectRequest(bucket: "retry", key: "k")).body
            #expect(try await body.collect(upTo: 100).bytes == testBytes(10))
            faults.add(
                FaultRule(operations: [.putObject], trigger: .first(2), fault: .tooManyRequests(retryAfterSeconds: 0))
            )
            try await client.putObject(PutObjectRequest(bucket: "retry", key: "k2", body: .bytes(testBytes(10))))
            faults.removeAll()
            faults.add(FaultRule(operations: [.headObject], fault: .internalError))
            _ = await expectServiceError(.internalError, status: 500) {
                _ = try await client.headObject(bucket: "retry", key: "k")
            }
        }
    }

    @Test(
        "a connection closed mid-body surfaces from the stream and is retried by get-to-file",
        arguments: [ClientDialect.ossV4, .obs, .s3]
    )
    func connectionClosedMidBody(_ dialect: ClientDialect) async throws {
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "close")
            let content = testBytes(200_000)
            try await client.putObject(PutObjectRequest(bucket: "close", key: "k", body: .bytes(content)))
            faults.add(
                FaultRule(operations: [.getObject], trigger: .nth(1), fault: .closeConnection(afterBodyBytes: 1000))
            )
            let response = try await client.getObject(GetObjectRequest(bucket: "close", key: "k"))
            await #expect(throws: TransportError.self) { _ = try await response.body.collect(upTo: 1 << 20) }

            faults.add(
                FaultRule(operations: [.getObject], trigger: .nth(2), fault: .closeConnection(afterBodyBytes: 5000))
            )
            let path = temporaryPath("retried")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try await client.getObject(GetObjectRequest(bucket: "close", key: "k"), toFile: path)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(content))
        }
    }

    @Test("an XML answer cut off mid-body is retried", arguments: ClientDialect.all)
    func cutOffXMLAnswerIsRetried(_ dialect: ClientDialect) async throws {
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "cut-off")
            for key in ["a", "b", "c"] {
                try await client.putObject(PutObjectRequest(bucket: "cut-off", key: key, body: .bytes([1])))
            }
            faults.add(
                FaultRule(operations: [.listObjectsV2], trigger: .nth(1), fault: .closeConnection(afterBodyBytes: 40))
            )
            var keys: [String] = []
            for try await page in client.listObjects(bucket: "cut-off") {
                keys += page.contents.map(\.key)
            }
            #expect(keys == ["a", "b", "c"])
        }
    }

    @Test("cancelling the task stops a GET mid-stream")
    func cancellationMidStream() async throws {
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, server in
            try await client.createBucket(bucket: "cancel")
            try await client.putObject(PutObjectRequest(bucket: "cancel", key: "k", body: .bytes(testBytes(4 << 20))))
            server.faults.add(FaultRule(operations: [.getObject], fault: .bandwidthLimit(bytesPerSecond: 256 * 1024)))
            let (firstChunk, firstChunkContinuation) = AsyncStream<Void>.makeStream()
            let task = Task {
                let response = try await client.getObject(GetObjectRequest(bucket: "cancel", key: "k"))
                var received = 0
                for try await chunk in response.body {
                    if received == 0 { firstChunkContinuation.yield() }
                    received += chunk.readableBytes
                }
                return received
            }
            for await _ in firstChunk { break }
            task.cancel()
            let result = await task.result
            // Cancellation is a pause, not a failure: the task ends with `CancellationError`, whatever the
            // transport saw of it.
            #expect(throws: CancellationError.self) { _ = try result.get() }
        }
    }

    @Test("a skewed signing clock is corrected from the server's answer and retried", arguments: ClientDialect.all)
    func clockSkew(_ dialect: ClientDialect) async throws {
        let skewed: (inout ObjectStorageClient.Configuration) -> Void = {
            dialect.configure(&$0)
            $0.now = { Date().addingTimeInterval(-20 * 60) }
        }
        try await LocalObjectServer.withRunning(vendor: dialect.wire, logger: .scanning, configureClient: skewed) {
            client,
            _ in
            try await client.createBucket(bucket: "skew")
            let offset = client.clockOffset.components.seconds
            // The server's Date has one-second resolution and the answer takes a moment on a loaded
            // machine; what matters is that ~20 minutes were learned (drift under 5 minutes is ignored).
            #expect((20 * 60 - 30)...(20 * 60 + 30) ~= offset)
            try await client.putObject(PutObjectRequest(bucket: "skew", key: "k", body: .bytes([1, 2, 3])))
            let presigned = try await client.presign(bucket: "skew", key: "k")
            let fetched = try await HTTPClientFetch.get(presigned.url)
            #expect(fetched.status == 200)
            #expect(fetched.body == [1, 2, 3])
        }
    }

    @Test("without retries a skewed clock fails with RequestTimeTooSkewed")
    func clockSkewWithoutRetries() async throws {
        let skewedWithoutRetries: (inout ObjectStorageClient.Configuration) -> Void = {
            $0.now = { Date().addingTimeInterval(-20 * 60) }
            $0.retry = .none
        }
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning, configureClient: skewedWithoutRetries) {
            client,
            _ in
            _ = await expectServiceError(.requestTimeTooSkewed, status: 403) {
                try await client.createBucket(bucket: "skew")
            }
            #expect(client.clockOffset.components.seconds > 19 * 60)
        }
    }

    @Test("a skewed HEAD (bodiless 403) learns the offset from the Date header")
    func clockSkewOnHead() async throws {
        try await LocalObjectServer.withRunning(vendor: .oss, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "skew")
            try await client.putObject(PutObjectRequest(bucket: "skew", key: "k", body: .bytes([1])))
            var configuration = client.configuration
            configuration.now = { Date().addingTimeInterval(30 * 60) }
            let skewed = ObjectStorageClient(
                configuration: configuration,
                transport: AsyncHTTPClientTransport.shared,
                logger: .scanning
            )
            let head = try await skewed.headObject(bucket: "skew", key: "k")
            #expect(head.contentLength == 1)
            #expect(skewed.clockOffset.components.seconds < -29 * 60)
        }
    }
}
