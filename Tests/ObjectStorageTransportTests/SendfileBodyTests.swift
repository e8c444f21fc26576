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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("File bodies sent with sendfile over plain http")
struct SendfileBodyTests {
    /// A region of the test file and the piece size it is sent in.
    struct Region: Sendable, CustomTestStringConvertible {
        var offset: Int
        var length: Int
        var pieceSize: Int
        var testDescription: String { "\(self.offset)+\(self.length) in pieces of \(self.pieceSize)" }
    }

    static let fileSize = 3 * 1024 * 1024 + 123

    static let regions = [
        Region(offset: 1000, length: 2 * 1024 * 1024 + 7, pieceSize: 256 * 1024),  // unaligned, many pieces
        Region(offset: 4096, length: 300_000, pieceSize: 300_000),  // exactly one piece
        Region(offset: 0, length: fileSize, pieceSize: 1024 * 1024),  // the whole file, a short last piece
        Region(offset: 77, length: 1, pieceSize: 512 * 1024),  // one byte
        Region(offset: 5, length: 1000, pieceSize: 1),  // a thousand one-byte pieces
    ]

    @Test(arguments: regions, [true, false])
    func bytesArriveIntactAndProgressEndsAtTheLength(_ region: Region, sendfile: Bool) async throws {
        let file = try TestFile(size: Self.fileSize)
        defer { file.remove() }
        let server = try await TestHTTPServer.start()
        let capture = LogCapture()
        let progress = ProgressLog()
        var configuration = HTTPConfiguration()
        configuration.usesSendfile = sendfile
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            let body = TransportRequest.Body.file(
                path: file.path,
                offset: Int64(region.offset),
                length: Int64(region.length),
                chunkSize: region.pieceSize,
                progress: { progress.add($0) }
            )
            let request = TransportRequest(method: .PUT, url: server.url("/echo"), body: body)
            // Generous: without sendfile, a thousand one-byte pieces are a thousand reads on NIO's shared thread
            // pool, which the rest of the suite keeps busy with fsyncs.
            let response = try await transport.execute(request, timeout: .seconds(120), logger: capture.logger)
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "x-received-length") == "\(region.length)")
            let received = try await response.body.collect(upTo: 8 << 20)
            let expected = file.bytes[region.offset..<(region.offset + region.length)]
            #expect(Array(received.readableBytesView) == Array(expected))
        }
        #expect(capture.text.contains("http.body.sendfile") == sendfile)
        let counts = progress.counts
        #expect(counts.allSatisfy { $0 > 0 && $0 <= region.pieceSize })
        #expect(counts.reduce(0, +) == region.length)
        #expect(counts.count == (region.length + region.pieceSize - 1) / region.pieceSize)
        try await server.stop()
    }

    @Test func anEmptyRegionSendsAnEmptyBody() async throws {
        let file = try TestFile(size: 10)
        defer { file.remove() }
        let server = try await TestHTTPServer.start()
        let progress = ProgressLog()
        try await withAsyncHTTPClientTransport { transport in
            let body = TransportRequest.Body.file(path: file.path, offset: 3, length: 0, progress: { progress.add($0) })
            let request = TransportRequest(method: .PUT, url: server.url("/echo"), body: body)
            let response = try await transport.execute(request, timeout: .seconds(30), logger: Logger.scanning)
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "x-received-length") == "0")
            #expect(try await response.body.collect(upTo: 1 << 20).readableBytes == 0)
        }
        #expect(progress.counts.reduce(0, +) == 0)
        try await server.stop()
    }

    @Test func aFileShorterThanTheRegionFailsBeforeSending() async throws {
        let file = try TestFile(size: 1000)
        defer { file.remove() }
        let server = try await TestHTTPServer.start()
        try await withAsyncHTTPClientTransport { transport in
            let request = TransportRequest(
                method: .PUT,
                url: server.url("/echo"),
                body: .file(path: file.path, offset: 500, length: 501)
            )
            await #expect {
                _ = try await transport.execute(request, timeout: .seconds(30), logger: Logger.scanning)
            } throws: { error in
                guard let error = error as? TransportError else { return false }
                return error.code == .fileReadFailed && error.message.contains("ended at byte 1000")
                    && error.path == "/echo"
            }
        }
        #expect(server.hitCount("/echo") == 0)
        try await server.stop()
    }

    @Test func aFileTruncatedBetweenPiecesFailsTyped() async throws {
        let file = try TestFile(size: 4 * 1024 * 1024)
        defer { file.remove() }
        let server = try await TestHTTPServer.start()
        try await withAsyncHTTPClientTransport { transport in
            let body = TransportRequest.Body.file(
                path: file.path,
                length: Int64(file.bytes.count),
                chunkSize: 256 * 1024,
                progress: { _ in file.truncate(to: 1000) }
            )
            let request = TransportRequest(method: .PUT, url: server.url("/echo"), body: body)
            await #expect {
                let response = try await transport.execute(request, timeout: .seconds(30), logger: Logger.scanning)
                _ = try await response.body.collect(upTo: 8 << 20)
            } throws: { error in
                (error as? TransportError)?.code == .fileReadFailed
            }
        }
        try await server.stop()
    }

    @Test func aFileTruncatedUnderAStalledPieceFailsTypedWithoutHanging() async throws {
        let file = try TestFile(size: 64 * 1024 * 1024)
        defer { file.remove() }
        let server = try await TestHTTPServer.start()
        let (events, continuation) = AsyncStream.makeStream(of: Int.self)
        try await withAsyncHTTPClientTransport { transport in
            let body = TransportRequest.Body.file(
                path: file.path,
                length: Int64(file.bytes.count),
                chunkSize: 1024 * 1024,
                progress: { continuation.yield($0) }
            )
            // The server stops reading, so a piece stays in flight; the file then shrinks under it.
            let request = TransportRequest(method: .PUT, url: server.url("/stall-body"), body: body)
            let sending = Task { try await transport.execute(request, timeout: .seconds(60), logger: Logger.scanning) }
            for await _ in events { break }
            file.truncate(to: 0)
            await #expect {
                _ = try await sending.value
            } throws: { error in
                (error as? TransportError)?.code == .fileReadFailed
            }
        }
        continuation.finish()
        try await server.stop()
    }

    /// A response the caller drops without reading is drained, so the connection serves the next request: with one
    /// connection per host, the second request would otherwise wait for ever (here: time out).
    @Test func aResponseBodyDroppedUnreadFreesTheConnection() async throws {
        let file = try TestFile(size: 300_000)
        defer { file.remove() }
        let server = try await TestHTTPServer.start()
        var configuration = HTTPConfiguration(maximumConnectionsPerHost: 1)
        configuration.usesSendfile = true
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            let length = 8 << 20  // far more than the body's high watermark and the socket buffers
            for _ in 0..<2 {
                let request = TransportRequest(
                    method: .PUT,
                    url: server.url("/large/\(length)"),
                    body: .file(path: file.path, length: Int64(file.bytes.count))
                )
                let response = try await transport.execute(request, timeout: .seconds(60), logger: Logger.scanning)
                #expect(response.status == .ok)
            }
            let last = try await transport.execute(
                TransportRequest(url: server.url("/large/\(length)")),
                timeout: .seconds(60),
                logger: Logger.scanning
            )
            var received = 0
            for try await chunk in last.body { received += chunk.readableBytes }
            #expect(received == length)
        }
        #expect(server.hitCount("/large/\(8 << 20)") == 3)
        try await server.stop()
    }

    @Test func aRetryAfterA503ResendsIdenticalBytes() async throws {
        let file = try TestFile(size: 2 * 1024 * 1024)
        defer { file.remove() }
        let server = try await TestHTTPServer.start()
        let capture = LogCapture()
        let progress = ProgressLog()
        let region = 12_345..<(2 * 1024 * 1024 - 3)
        try await withAsyncHTTPClientTransport { transport in
            let request = TransportRequest(
                method: .PUT,
                url: server.url("/script/retry"),
                headers: ["x-script": "503,200"],
                body: .file(
                    path: file.path,
                    offset: Int64(region.lowerBound),
                    length: Int64(region.count),
                    chunkSize: 300_000,
                    progress: { progress.add($0) }
                )
            )
            // The client's retry loop sends the same request again; the file region must go out identically.
            let first = try await transport.execute(request, timeout: .seconds(30), logger: capture.logger)
            #expect(first.status == .serviceUnavailable)
            let second = try await transport.execute(request, timeout: .seconds(30), logger: capture.logger)
            #expect(second.status == .ok)
        }
        let expected = ByteBuffer(bytes: file.bytes[region])
        #expect(server.receivedBodies("/script/retry") == [expected, expected])
        #expect(progress.counts.reduce(0, +) == 2 * region.count)
        #expect(capture.text.contains("http.body.sendfile"))
        try await server.stop()
    }

    @Test func cancellingMidBodyStopsTheSend() async throws {
        let file = try TestFile(size: 64 * 1024 * 1024)
        defer { file.remove() }
        let server = try await TestHTTPServer.start()
        let progress = ProgressLog()
        let (events, continuation) = AsyncStream.makeStream(of: Int.self)
        try await withAsyncHTTPClientTransport { transport in
            let body = TransportRequest.Body.file(
                path: file.path,
                length: Int64(file.bytes.count),
                chunkSize: 1024 * 1024,
                progress: {
                    progress.add($0)
                    continuation.yield($0)
                }
            )
            let request = TransportRequest(method: .PUT, url: server.url("/stall-body"), body: body)
            let sending = Task { try await transport.execute(request, timeout: .seconds(60), logger: Logger.scanning) }
            for await _ in events { break }
            sending.cancel()
            await #expect {
                _ = try await sending.value
            } throws: { error in
                (error as? TransportError)?.code == .cancelled
            }
        }
        continuation.finish()
        #expect(progress.counts.reduce(0, +) < file.bytes.count)
        try await server.stop()
    }
}

/// Counts passed to a body's progress closure, in order.
final class ProgressLog: Sendable {
    private let box = MutexBox<[Int]>([])

    func add(_ count: Int) { self.box.mutate { $0.append(count) } }

    var counts: [Int] { self.box.mutate { $0 } }
}

/// A temporary file of patterned bytes.
struct TestFile {
    let path: String
    let bytes: [UInt8]

    init(size: Int) throws {
        self.path = FileManager.default.temporaryDirectory.appendingPathComponent("sendfile-\(UUID()).bin").path
        // A pattern of a prime length, so no two pieces of a power-of-two size start alike.
        let pattern = generatedBytes(count: 65_521) { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 11) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        while bytes.count < size { bytes.append(contentsOf: pattern.prefix(size - bytes.count)) }
        self.bytes = bytes
        try Data(self.bytes).write(to: URL(fileURLWithPath: self.path))
    }

    func truncate(to size: Int) {
        #if canImport(Glibc)
        _ = Glibc.truncate(self.path, off_t(size))
        #elseif canImport(Darwin)
        _ = Darwin.truncate(self.path, off_t(size))
        #endif
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: self.path)
    }
}
