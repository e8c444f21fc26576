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
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@Suite("Transport bodies over real sockets")
struct TransportBodyTests {
    let logger = Logger.scanning

    @Test func bytesBodyArrivesIntactWithHeaders() async throws {
        let server = try await TestHTTPServer.start()
        try await withAsyncHTTPClientTransport { transport in
            let payload = ByteBuffer(string: String(repeating: "object-storage ", count: 1000))
            var request = TransportRequest(method: .PUT, url: server.url("/echo"), body: .bytes(payload))
            request.headers.add(name: "x-test", value: "hello")
            let response = try await transport.execute(request, timeout: .seconds(30), logger: logger)
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "x-echo-test") == "hello")
            #expect(try await response.body.collect(upTo: 1 << 20) == payload)
        }
        try await server.stop()
    }

    @Test func fileRegionBodyHonoursOffsetAndLength() async throws {
        let server = try await TestHTTPServer.start()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("region-\(UUID()).bin").path
        let bytes = generatedBytes(count: 3 * 1024 * 1024) { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let offset = 1000
        let length = 2 * 1024 * 1024 + 7
        try await withAsyncHTTPClientTransport { transport in
            let body = TransportRequest.Body.file(
                path: path,
                offset: Int64(offset),
                length: Int64(length),
                chunkSize: 256 * 1024
            )
            #expect(body.isReplayable)
            let request = TransportRequest(method: .PUT, url: server.url("/echo"), body: body)
            let response = try await transport.execute(request, timeout: .seconds(30), logger: logger)
            #expect(response.headers.first(name: "x-received-length") == "\(length)")
            let received = try await response.body.collect(upTo: 4 << 20)
            #expect(Array(received.readableBytesView) == Array(bytes[offset..<(offset + length)]))
        }
        try await server.stop()
    }

    @Test func fileShorterThanRegionFailsTyped() async throws {
        let server = try await TestHTTPServer.start()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("short-\(UUID()).bin").path
        try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withAsyncHTTPClientTransport { transport in
            let request = TransportRequest(
                method: .PUT,
                url: server.url("/echo"),
                body: .file(path: path, offset: 0, length: 100)
            )
            await #expect(throws: TransportError.self) {
                let response = try await transport.execute(request, timeout: .seconds(30), logger: logger)
                _ = try await response.body.collect(upTo: 1 << 20)
            }
        }
        try await server.stop()
    }

    @Test func streamBodyWithUnknownLengthArrivesIntact() async throws {
        let server = try await TestHTTPServer.start()
        let chunks = (0..<20).map { ByteBuffer(string: "chunk-\($0);") }
        try await withAsyncHTTPClientTransport { transport in
            let body = TransportRequest.Body.stream(AsyncStreamOfBuffers(chunks), length: nil)
            #expect(!body.isReplayable)
            let request = TransportRequest(method: .PUT, url: server.url("/echo"), body: body)
            let response = try await transport.execute(request, timeout: .seconds(30), logger: logger)
            let received = try await response.body.collect(upTo: 1 << 20)
            #expect(String(buffer: received) == (0..<20).map { "chunk-\($0);" }.joined())
        }
        try await server.stop()
    }

    @Test func streamBodyCannotBeIteratedTwice() async throws {
        let body = TransportRequest.Body.stream(AsyncStreamOfBuffers([ByteBuffer(string: "x")]), length: 1)
        for try await _ in body {}
        await #expect {
            for try await _ in body {}
        } throws: { error in
            (error as? TransportError)?.code == .bodyNotReplayable
        }
    }

    @Test func largeResponseStreamsInChunks() async throws {
        let server = try await TestHTTPServer.start()
        let total = 64 * 1024 * 1024
        try await withAsyncHTTPClientTransport { transport in
            let request = TransportRequest(url: server.url("/large/\(total)"))
            let response = try await transport.execute(request, timeout: .seconds(60), logger: logger)
            var received = 0
            var largestChunk = 0
            var mismatches = 0
            for try await chunk in response.body {
                for index in stride(from: 0, to: chunk.readableBytes, by: 4099) {
                    let byte = chunk.getInteger(at: chunk.readerIndex + index, as: UInt8.self)
                    if byte != UInt8((received + index) % 251) { mismatches += 1 }
                }
                received += chunk.readableBytes
                largestChunk = max(largestChunk, chunk.readableBytes)
            }
            #expect(received == total)
            #expect(mismatches == 0)
            // Delivered as a stream of socket-sized chunks, never as one buffered body.
            #expect(largestChunk < 4 * 1024 * 1024)
        }
        try await server.stop()
    }

    @Test func connectionClosedMidBodyIsTyped() async throws {
        let server = try await TestHTTPServer.start()
        try await withAsyncHTTPClientTransport { transport in
            let request = TransportRequest(url: server.url("/close-mid-body?X-Amz-Signature=secret"))
            let response = try await transport.execute(request, timeout: .seconds(30), logger: logger)
            await #expect {
                _ = try await response.body.collect(upTo: 1 << 20)
            } throws: { error in
                guard let error = error as? TransportError else { return false }
                return error.code == .connectionClosed && error.path == "/close-mid-body"
                    && error.host == "127.0.0.1:\(server.port)" && !"\(error)".contains("secret")
            }
        }
        try await server.stop()
    }

    @Test func aBodyEndingBeforeItsContentLengthThrowsWhateverItsSource() async throws {
        let short = TransportResponse.Body.stream(AsyncStreamOfBuffers([ByteBuffer(string: "abc")]))
            .checkingLength(method: .GET, status: .ok, headers: ["Content-Length": "10"])
        await #expect {
            _ = try await short.collect(upTo: 100)
        } throws: { error in
            guard let error = error as? TransportError else { return false }
            return error.code == .bodyTruncated && error.code.isTransient && error.message.contains("3 of the 10")
        }
        let whole = TransportResponse.Body.stream(AsyncStreamOfBuffers([ByteBuffer(string: "abc")]))
            .checkingLength(method: .GET, status: .ok, headers: ["Content-Length": "3"])
        #expect(try await whole.collect(upTo: 100) == ByteBuffer(string: "abc"))
        // A HEAD answer and a 304 announce a length but carry no body.
        for (method, status) in [(HTTPMethod.HEAD, HTTPResponseStatus.ok), (.GET, .notModified)] {
            let empty = TransportResponse.Body()
                .checkingLength(method: method, status: status, headers: ["Content-Length": "10"])
            #expect(try await empty.collect(upTo: 100).readableBytes == 0)
        }
    }
}

/// A `Sendable` async sequence over fixed buffers.
struct AsyncStreamOfBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let buffers: [ByteBuffer]

    init(_ buffers: [ByteBuffer]) { self.buffers = buffers }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<ByteBuffer>
        mutating func next() async throws -> ByteBuffer? { self.remaining.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: self.buffers[...]) }
}
