//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOHTTP1
import NIOPosix
import ObjectStorageTestSupport
import Synchronization

/// A test-only HTTP/1.1 server on 127.0.0.1 with scripted behaviour, chosen by the request path:
///
/// - `/echo`: 200 with the request body; request header `x-test` comes back as `x-echo-test`, the received body
///   length as `x-received-length`.
/// - `/script/<id>`: request header `x-script` lists one step per request to this id (`503,503,200`, `close`
///   to close the connection without answering); the last step repeats. `x-retry-after` is returned as
///   `Retry-After`.
/// - `/close-mid-body`: announces 1000 bytes, sends 100, closes.
/// - `/stall`: never answers.
/// - `/stall-body`: stops reading from the connection after the request head, and never answers.
/// - `/large/<bytes>`: streams that many bytes (byte `i` is `i % 251`), writing each chunk only after the
///   previous one was accepted by the socket.
/// - `/paced/<bytes>`: the same bytes, 16 KiB every 100 ms (about 160 KB/s, a slow link); ``sentBytes(_:)`` says
///   how many the socket accepted before the client closed the connection.
final class TestHTTPServer: Sendable {
    let channel: any Channel
    let port: Int
    private let hits: Mutex<[String: Int]>
    private let bodies: Mutex<[String: [ByteBuffer]]>
    private let sent: Mutex<[String: Int]>
    private let accepted: Mutex<Int>
    /// The path (without query) of each request, as its end arrives: to wait for a request to reach the server.
    let arrivals: AsyncStream<String>
    private let arrived: AsyncStream<String>.Continuation

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
        self.hits = Mutex([:])
        self.bodies = Mutex([:])
        self.sent = Mutex([:])
        self.accepted = Mutex(0)
        (self.arrivals, self.arrived) = AsyncStream.makeStream()
    }

    static func start() async throws -> TestHTTPServer {
        let counter = HitCounter()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                counter.connectionAccepted()
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(ScriptedHandler(counter: counter))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let server = TestHTTPServer(channel: channel)
        counter.server.withLock { $0 = server }
        return server
    }

    func url(_ path: String) -> String {
        "http://127.0.0.1:\(self.port)\(path)"
    }

    /// How many requests reached `path` (without query).
    func hitCount(_ path: String) -> Int {
        self.hits.withLock { $0[path] ?? 0 }
    }

    /// The request bodies that reached `path` (without query), in order.
    func receivedBodies(_ path: String) -> [ByteBuffer] {
        self.bodies.withLock { $0[path] ?? [] }
    }

    /// How many response body bytes of `path` the socket accepted (`/paced/` only).
    func sentBytes(_ path: String) -> Int {
        self.sent.withLock { $0[path] ?? 0 }
    }

    /// How many connections the server has accepted.
    var connectionCount: Int { self.accepted.withLock { $0 } }

    func recordSent(_ count: Int, path: String) {
        self.sent.withLock { $0[path, default: 0] += count }
    }

    func recordConnection() {
        self.accepted.withLock { $0 += 1 }
    }

    func recordBody(_ body: ByteBuffer, path: String) {
        self.bodies.withLock { $0[path, default: []].append(body) }
    }

    func recordHit(_ path: String) -> Int {
        defer { self.arrived.yield(path) }
        return self.hits.withLock { hits in
            hits[path, default: 0] += 1
            return hits[path] ?? 0
        }
    }

    func stop() async throws {
        self.arrived.finish()
        try await self.channel.close()
    }
}

private final class HitCounter: Sendable {
    let server = Mutex<TestHTTPServer?>(nil)

    func connectionAccepted() {
        self.server.withLock { $0?.recordConnection() }
    }

    func sent(_ count: Int, path: String) {
        self.server.withLock { $0?.recordSent(count, path: path) }
    }

    func record(_ path: String, body: ByteBuffer) -> Int {
        self.server.withLock { server in
            server?.recordBody(body, path: path)
            return server?.recordHit(path) ?? 0
        }
    }
}

private final class ScriptedHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private static let pattern = ByteBuffer(bytes: generatedBytes(count: 251 * 256) { UInt8($0 % 251) })

    private let counter: HitCounter
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(counter: HitCounter) {
        self.counter = counter
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            self.body.clear()
            if head.uri == "/stall-body" {
                context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            }
        case .body(var chunk):
            self.body.writeBuffer(&chunk)
        case .end:
            guard let head = self.head else { return }
            self.respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
        let hit = self.counter.record(path, body: self.body)
        if path == "/echo" {
            var headers: HTTPHeaders = ["x-received-length": "\(self.body.readableBytes)"]
            if let value = head.headers.first(name: "x-test") { headers.add(name: "x-echo-test", value: value) }
            self.send(status: .ok, headers: headers, body: self.body, context: context)
        } else if path.hasPrefix("/script/") {
            let steps = (head.headers.first(name: "x-script") ?? "200").split(separator: ",").map(String.init)
            let step = steps[min(hit, steps.count) - 1]
            if step == "close" {
                context.close(promise: nil)
                return
            }
            var headers = HTTPHeaders()
            if let retryAfter = head.headers.first(name: "x-retry-after") {
                headers.add(name: "Retry-After", value: retryAfter)
            }
            let status = HTTPResponseStatus(statusCode: Int(step) ?? 500)
            self.send(status: status, headers: headers, body: ByteBuffer(string: "step \(hit)"), context: context)
        } else if path == "/close-mid-body" {
            let responseHead = HTTPResponseHead(version: head.version, status: .ok, headers: ["content-length": "1000"])
            context.write(self.wrapOutboundOut(.head(responseHead)), promise: nil)
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(repeating: 7, count: 100)))))
                .whenComplete { _ in loopBound.value.close(promise: nil) }
        } else if path == "/stall" {
            return
        } else if path.hasPrefix("/large/"), let total = Int(path.dropFirst("/large/".count)) {
            let responseHead = HTTPResponseHead(
                version: head.version,
                status: .ok,
                headers: ["content-length": "\(total)"]
            )
            context.write(self.wrapOutboundOut(.head(responseHead)), promise: nil)
            self.writeLarge(offset: 0, total: total, context: context)
        } else if path.hasPrefix("/paced/"), let total = Int(path.dropFirst("/paced/".count)) {
            let responseHead = HTTPResponseHead(
                version: head.version,
                status: .ok,
                headers: ["content-length": "\(total)"]
            )
            context.writeAndFlush(self.wrapOutboundOut(.head(responseHead)), promise: nil)
            self.writePaced(offset: 0, total: total, path: path, context: context)
        } else {
            self.send(status: .notFound, headers: [:], body: ByteBuffer(), context: context)
        }
    }

    private func writeLarge(offset: Int, total: Int, context: ChannelHandlerContext) {
        guard offset < total else {
            context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        // Chunks are a multiple of 251 bytes long, so every chunk starts the pattern afresh.
        let count = min(Self.pattern.readableBytes, total - offset)
        let chunk = Self.pattern.getSlice(at: Self.pattern.readerIndex, length: count) ?? ByteBuffer()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(chunk)))).whenSuccess {
            let (handler, context) = loopBound.value
            handler.writeLarge(offset: offset + count, total: total, context: context)
        }
    }

    private func writePaced(offset: Int, total: Int, path: String, context: ChannelHandlerContext) {
        guard offset < total else {
            context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let count = min(16 * 1024, total - offset)
        let chunk = ByteBuffer(bytes: (offset..<offset + count).map { UInt8($0 % 251) })
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(chunk)))).whenSuccess {
            let (handler, context) = loopBound.value
            handler.counter.sent(count, path: path)
            context.eventLoop.scheduleTask(in: .milliseconds(100)) {
                let (handler, context) = loopBound.value
                handler.writePaced(offset: offset + count, total: total, path: path, context: context)
            }
        }
    }

    private func send(
        status: HTTPResponseStatus,
        headers: HTTPHeaders,
        body: ByteBuffer,
        context: ChannelHandlerContext
    ) {
        var headers = headers
        headers.replaceOrAdd(name: "content-length", value: "\(body.readableBytes)")
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        context.write(self.wrapOutboundOut(.head(head)), promise: nil)
        context.write(self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
    }
}
