//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

/// Redirects are refused, malformed answers say what was wrong, stalled bodies fail while slow ones and a
/// consumer's backpressure do not, and an application's `HTTPClient` is checked: over real sockets on 127.0.0.1.
struct TransportSafetyTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// 64 KiB per 500 ms of waiting.
    static let uploadRate = MinimumTransferRate(bytes: 64 * 1024, per: .milliseconds(500))

    // MARK: Malformed answers

    @Test func aBodyLongerThanItsContentLengthIsAMalformedResponse() async throws {
        // The first answer announces 5 bytes; the rest of its body follows once the connection carries the next
        // request, where a response head is expected (the bytes a server with a wrong Content-Length leaves).
        let answers = MutexBox(0)
        let server = try await RawHTTPServer.start { _ in
            let answer = answers.mutate { count in
                count += 1
                return count
            }
            if answer == 1 { return .bytes(RawReply.head("200 OK", contentLength: 5) + Array("hello".utf8)) }
            return .bytes(Array(", and 20 more bytes\r\n".utf8))
        }
        defer { Task { try? await server.stop() } }
        let first = try await AsyncHTTPClientTransport.shared.execute(
            TransportRequest(url: server.url("/object")),
            timeout: .seconds(10),
            logger: logger
        )
        #expect(String(buffer: try await first.body.collect(upTo: 1 << 10)) == "hello")
        let error = await #expect(throws: TransportError.self) {
            let next = try await AsyncHTTPClientTransport.shared.execute(
                TransportRequest(url: server.url("/object")),
                timeout: .seconds(10),
                logger: logger
            )
            _ = try await next.body.collect(upTo: 1 << 10)
        }
        #expect(server.requests.count == 2, "the second request went on the first one's connection")
        #expect(error?.code == .malformedResponse)
        #expect(error?.message.contains("a body longer than its Content-Length") == true)
        #expect(error.map { "\($0)" }?.contains("invalid constant string") == false)
    }

    @Test func anInvalidStatusLineIsAMalformedResponse() async throws {
        let server = try await RawHTTPServer.start { _ in .bytes(Array("HTTP/1.1 abc OK\r\n\r\n".utf8)) }
        defer { Task { try? await server.stop() } }
        let error = await #expect(throws: TransportError.self) {
            _ = try await AsyncHTTPClientTransport.shared.execute(
                TransportRequest(url: server.url("/object")),
                timeout: .seconds(10),
                logger: logger
            )
        }
        #expect(error?.code == .malformedResponse)
        #expect(error?.message.hasPrefix("the server sent a malformed response") == true)
    }

    // MARK: Redirects

    @Test func aRedirectIsRefusedOnTheBodyConsumingPath() async throws {
        let elsewhere = try await RawHTTPServer.start { _ in .response("200 OK") }
        let endpoint = try await RawHTTPServer.start { _ in
            .response("307 Temporary Redirect", headers: [("Location", elsewhere.url("/x"))])
        }
        defer {
            Task {
                try? await elsewhere.stop()
                try? await endpoint.stop()
            }
        }
        let error = await #expect(throws: TransportError.self) {
            _ = try await AsyncHTTPClientTransport.shared.execute(
                TransportRequest(url: endpoint.url("/object")),
                deadline: .now() + .seconds(10),
                logger: logger,
                consumer: DiscardingConsumer()
            )
        }
        #expect(error?.code == .redirectRefused)
        #expect(error?.statusCode == 307)
        #expect(error?.message.contains("127.0.0.1:\(elsewhere.port)") == true)
        #expect(elsewhere.requests.isEmpty)
    }

    // MARK: Stalls

    @Test func aConsumersBackpressureIsNotAStall() async throws {
        let body = [UInt8](repeating: 0x62, count: 4 << 20)
        let server = try await RawHTTPServer.start { _ in .response("200 OK", body: body) }
        defer { Task { try? await server.stop() } }
        var configuration = HTTPConfiguration()
        // 1 KiB per 2 s of waiting, which loopback always delivers, even on a loaded machine; the reader's one
        // pause of 3 s with no byte moving would exceed the window if the time it holds the body back counted.
        configuration.minimumTransferRate = MinimumTransferRate(bytes: 1 << 10, per: .seconds(2))
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            let response = try await transport.execute(
                TransportRequest(url: server.url("/object")),
                timeout: .seconds(30),
                logger: logger
            )
            var received = 0
            var paused = false
            for try await chunk in response.body {
                received += chunk.readableBytes
                if !paused {
                    paused = true
                    try await Task.sleep(for: .seconds(3))
                }
            }
            #expect(received == body.count)
            #expect(paused)
        }
    }

    @Test func anUploadTheServerReadsSlowlyFailsAsStalled() async throws {
        let server = try await RawHTTPServer.start(receiveBufferSize: 4096) { _ in
            .readSlowly(piece: 16, interval: .milliseconds(10))
        }
        defer { Task { try? await server.stop() } }
        var configuration = HTTPConfiguration()
        configuration.minimumTransferRate = Self.uploadRate
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            // Far more than the socket buffers and the server's reads before it starts reading slowly can
            // absorb (a 32 MiB body was sometimes taken whole, and then nothing stalled), generated lazily.
            let body = TransportRequest.Body.stream(RepeatedChunks(chunk: 64 << 10, count: 16_384), length: 1 << 30)
            let started = ContinuousClock.now
            let error = await #expect(throws: TransportError.self) {
                _ = try await transport.execute(
                    TransportRequest(method: .PUT, url: server.url("/object"), body: body),
                    timeout: .seconds(60),
                    logger: logger
                )
            }
            #expect(error?.code == .transferStalled)
            #expect(error?.message.contains("the server accepted") == true)
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }

    @Test func aFileUploadTheServerReadsSlowlyFailsAsStalledWithSendfile() async throws {
        let server = try await RawHTTPServer.start(receiveBufferSize: 4096) { _ in
            .readSlowly(piece: 16, interval: .milliseconds(10))
        }
        defer { Task { try? await server.stop() } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stall-\(UUID().uuidString)").path
        // A sparse 1 GiB file: more than the buffers can absorb, and no disk space used.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = HTTPConfiguration()
        configuration.minimumTransferRate = Self.uploadRate
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            let started = ContinuousClock.now
            let error = await #expect(throws: TransportError.self) {
                _ = try await transport.execute(
                    TransportRequest(
                        method: .PUT,
                        url: server.url("/object"),
                        body: .file(path: path, length: 1 << 30, chunkSize: 64 * 1024)
                    ),
                    timeout: .seconds(60),
                    logger: logger
                )
            }
            #expect(error?.code == .transferStalled)
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }

    // MARK: The HTTP client

    @Test func aConfigurationGivenAloneBuildsAClientOfItsOwn() async throws {
        let transport = AsyncHTTPClientTransport(configuration: .init(maximumConnectionsPerHost: 256))
        #expect(transport.httpClient !== AsyncHTTPClientTransport.shared.httpClient)
        #expect(transport.httpClient !== HTTPClient.shared)
        try await transport.shutdown()
    }
}

/// Takes any accepted body and drops it.
private struct DiscardingConsumer: ResponseBodyConsumer {
    func accept(status: HTTPResponseStatus, headers: HTTPHeaders) throws -> Bool { true }
    func consume(_ buffer: ByteBuffer, on eventLoop: any EventLoop) throws -> BodyDemand { .more }
}

/// `count` buffers of `chunk` bytes, made one at a time as they are asked for.
struct RepeatedChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let chunk: Int
    let count: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let chunk: Int
        var remaining: Int

        mutating func next() async -> ByteBuffer? {
            guard self.remaining > 0 else { return nil }
            self.remaining -= 1
            return ByteBuffer(repeating: 0x63, count: self.chunk)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunk: self.chunk, remaining: self.count) }
}
