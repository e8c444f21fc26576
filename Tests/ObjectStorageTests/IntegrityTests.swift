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

/// A transport that corrupts what passes through, to exercise the CRC-64 checks (a unit test of
/// the client's integrity logic over a real socket).
struct CorruptingTransport: HTTPTransport {
    enum Mode: Sendable {
        case flipFirstBodyByte
        case wrongCRCHeader
    }

    let base: any HTTPTransport
    let mode: Mode
    let counter = CallCounter()

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        self.counter.increment()
        var response = try await self.base.execute(request, deadline: deadline, logger: logger)
        switch self.mode {
        case .wrongCRCHeader:
            response.headers.replaceOrAdd(name: "x-oss-hash-crc64ecma", value: "12345")
        case .flipFirstBodyByte:
            guard request.method == .GET else { return response }
            var body = try await response.body.collect(upTo: 1 << 20)
            if let first = body.getInteger(at: body.readerIndex, as: UInt8.self) {
                body.setInteger(first ^ 0xFF, at: body.readerIndex)
            }
            response.body = .stream(
                AsyncStream { continuation in
                    continuation.yield(body)
                    continuation.finish()
                }
            )
        }
        return response
    }
}

@Suite("OSS CRC-64 integrity checks")
struct IntegrityTests {
    @Test("a corrupted GET body fails at the end of the stream; a ranged GET is not checked")
    func corruptedDownload() async throws {
        try await LocalObjectServer.withRunning(vendor: .oss, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "crc")
            try await client.putObject(PutObjectRequest(bucket: "crc", key: "k", body: .bytes(testBytes(1000))))
            let corrupting = ObjectStorageClient(
                configuration: client.configuration,
                transport: CorruptingTransport(base: AsyncHTTPClientTransport.shared, mode: .flipFirstBodyByte),
                logger: .scanning
            )
            let response = try await corrupting.getObject(GetObjectRequest(bucket: "crc", key: "k"))
            #expect(response.crc64 != nil)
            do {
                _ = try await response.body.collect(upTo: 1 << 20)
                Issue.record("expected an integrity error")
            } catch let error as ObjectStorageError {
                #expect(error.code == .integrityMismatch)
            }
            var ranged = GetObjectRequest(bucket: "crc", key: "k")
            ranged.range = .bytes(0...9)
            let part = try await corrupting.getObject(ranged).body.collect(upTo: 100)
            #expect(part.readableBytes == 10)
            // The honest client reads the same object fine.
            let good = try await client.getObject(GetObjectRequest(bucket: "crc", key: "k")).body
            #expect(try await good.collect(upTo: 1 << 20).bytes == testBytes(1000))
        }
    }

    @Test("an upload whose CRC disagrees is retried, then fails with integrityMismatch")
    func corruptedUpload() async throws {
        try await LocalObjectServer.withRunning(vendor: .oss, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "crc")
            let transport = CorruptingTransport(base: AsyncHTTPClientTransport.shared, mode: .wrongCRCHeader)
            let corrupting = ObjectStorageClient(
                configuration: client.configuration,
                transport: transport,
                logger: .scanning
            )
            do {
                try await corrupting.putObject(PutObjectRequest(bucket: "crc", key: "k", body: .bytes(testBytes(10))))
                Issue.record("expected an integrity error")
            } catch let error as ObjectStorageError {
                #expect(error.code == .integrityMismatch)
            }
            #expect(transport.counter.count == 3)
        }
    }
}
