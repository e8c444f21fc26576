//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOHTTP1
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// The client's one retry path, which every request takes whatever the transport.
@Suite("The client's retry path")
struct ClientRetryPathTests {
    @Test("a stream body is sent once: a retryable answer is not retried", arguments: [ClientDialect.ossV4, .s3])
    func streamBodyIsNotRetried(_ dialect: ClientDialect) async throws {
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "once")
            faults.add(FaultRule(operations: [.putObject], trigger: .first(1), fault: .internalError))
            let content = testBytes(1000)
            let stream = AsyncStream { continuation in
                continuation.yield(ByteBuffer(bytes: content))
                continuation.finish()
            }
            _ = await expectServiceError(.internalError, status: 500) {
                try await client.putObject(
                    PutObjectRequest(bucket: "once", key: "k", body: .stream(stream, length: Int64(content.count)))
                )
            }
            // The same 500 on a replayable body is retried, and the second attempt succeeds.
            faults.add(FaultRule(operations: [.putObject], trigger: .first(1), fault: .internalError))
            try await client.putObject(PutObjectRequest(bucket: "once", key: "k", body: .bytes(content)))
            let body = try await client.getObject(GetObjectRequest(bucket: "once", key: "k")).body
            #expect(try await body.collect(upTo: 1 << 20).bytes == content)
        }
    }
}
