//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import NIOCore
import NIOPosix
import Synchronization

/// A request as ``RawHTTPServer`` saw it: the request line and headers (the body is read and dropped).
public struct RawRequest: Sendable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The request target, e.g. `/bucket/key?x=y`.
    public var target: String
    /// The headers, in order, names as sent.
    public var headers: [(name: String, value: String)]

    /// The first value of the header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        self.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What ``RawHTTPServer`` answers to a request: bytes written as they are, so a test can send what no
/// well-behaved HTTP library would (a body longer than its `Content-Length`, a body dripped a byte at a time).
public enum RawReply: Sendable {
    /// Writes the bytes and keeps the connection.
    case bytes([UInt8])
    /// Writes `head`, then the bytes of `body` in pieces of `piece` bytes, one piece every `interval`.
    case drip(head: [UInt8], body: [UInt8], piece: Int, interval: TimeAmount)
    /// Stops reading the request after its head, then reads `piece` bytes every `interval` and never answers
    /// (a server that takes an upload a byte at a time).
    case readSlowly(piece: Int, interval: TimeAmount)

    /// A complete response with `status`, `headers` and `body`, its `Content-Length` set unless `headers` has one.
    ///
    /// - Returns: The reply.
    public static func response(
        _ status: String,
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) -> RawReply {
        .bytes(Self.head(status, headers: headers, contentLength: body.count) + body)
    }

    /// A response head (`HTTP/1.1 <status>`, the headers, `Content-Length` unless given, a blank line).
    ///
    /// - Returns: The head's bytes.
    public static func head(_ status: String, headers: [(String, String)] = [], contentLength: Int?) -> [UInt8] {
        var text = "HTTP/1.1 \(status)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let contentLength, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            text += "Content-Length: \(contentLength)\r\n"
        }
        return Array((text + "\r\n").utf8)
    }
}

/// A test-only HTTP/1.1 server on 127.0.0.1 that parses just enough of each request (its head, and a
/// `Content-Length` body to skip) to count it and answer it with a scripted ``RawReply``.
public final class RawHTTPServer: Sendable {
    private let channel: any Channel
    private let seen: Mutex<[RawRequest]>
    /// The server's port.
    public let port: Int

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
        self.seen = Mutex([])
    }

    /// Starts a server.
    ///
    /// - Parameters:
    ///   - receiveBufferSize: A small `SO_RCVBUF` for accepted connections (so that a slow reader slows the
    ///     sender down soon), or `nil` for the system's.
    ///   - reply: What to answer to each request.
    /// - Returns: The running server; call ``stop()``.
    /// - Throws: When it cannot bind.
    public static func start(
        receiveBufferSize: Int? = nil,
        reply: @escaping @Sendable (RawRequest) -> RawReply
    ) async throws -> RawHTTPServer {
        let recorder = Recorder()
        var bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        if let receiveBufferSize {
            bootstrap = bootstrap.serverChannelOption(
                .socketOption(.so_rcvbuf),
                value: SocketOptionValue(receiveBufferSize)
            )
        }
        let channel = try await bootstrap.childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(RawHandler(recorder: recorder, reply: reply))
            }
        }
        .bind(host: "127.0.0.1", port: 0)
        .get()
        let server = RawHTTPServer(channel: channel)
        recorder.server.withLock { $0 = server }
        return server
    }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> String {
        "http://127.0.0.1:\(self.port)\(path)"
    }

    /// The requests received so far, in order.
    public var requests: [RawRequest] { self.seen.withLock { $0 } }

    fileprivate func record(_ request: RawRequest) {
        self.seen.withLock { $0.append(request) }
    }

    /// Stops listening.
    public func stop() async throws {
        try await self.channel.close()
    }
}

private final class Recorder: Sendable {
    let server = Mutex<RawHTTPServer?>(nil)

    func record(_ request: RawRequest) {
        self.server.withLock { $0?.record(request) }
    }
}

private final class RawHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let recorder: Recorder
    private let reply: @Sendable (RawRequest) -> RawReply
    private var buffer = ByteBuffer()
    private var bodyRemaining = 0
    private var ignoring = false

    init(recorder: Recorder, reply: @escaping @Sendable (RawRequest) -> RawReply) {
        self.recorder = recorder
        self.reply = reply
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.ignoring else { return }
        var chunk = self.unwrapInboundIn(data)
        self.buffer.writeBuffer(&chunk)
        while self.step(context: context) {}
    }

    /// Consumes one head or body piece from the buffer; returns whether to look again.
    private func step(context: ChannelHandlerContext) -> Bool {
        if self.bodyRemaining > 0 {
            let skipped = min(self.bodyRemaining, self.buffer.readableBytes)
            self.buffer.moveReaderIndex(forwardBy: skipped)
            self.bodyRemaining -= skipped
            return self.bodyRemaining == 0 && self.buffer.readableBytes > 0
        }
        let view = self.buffer.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else { return false }
        let headText = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        self.buffer.moveReaderIndex(forwardBy: end.upperBound - view.startIndex)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.isEmpty ? [] : lines.removeFirst().split(separator: " ").map(String.init)
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            return (String(line[..<colon]), String(value))
        }
        let request = RawRequest(
            method: requestLine.first ?? "",
            target: requestLine.count > 1 ? requestLine[1] : "",
            headers: headers
        )
        self.recorder.record(request)
        self.bodyRemaining = Int(request.header("content-length") ?? "0") ?? 0
        self.answer(self.reply(request), context: context)
        return !self.ignoring && self.buffer.readableBytes > 0
    }

    private func answer(_ reply: RawReply, context: ChannelHandlerContext) {
        switch reply {
        case .bytes(let bytes):
            context.writeAndFlush(self.wrapOutboundOut(ByteBuffer(bytes: bytes)), promise: nil)
        case .drip(let head, let body, let piece, let interval):
            context.writeAndFlush(self.wrapOutboundOut(ByteBuffer(bytes: head)), promise: nil)
            let channel = context.channel
            RawHandler.drip(body[...], piece: max(1, piece), interval: interval, on: channel)
        case .readSlowly(let piece, let interval):
            self.ignoring = true
            let channel = context.channel
            channel.setOption(ChannelOptions.autoRead, value: false).flatMap {
                channel.setOption(
                    ChannelOptions.recvAllocator,
                    value: FixedSizeRecvByteBufferAllocator(capacity: max(1, piece))
                )
            }.whenSuccess {
                channel.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { task in
                    guard channel.isActive else {
                        task.cancel()
                        return
                    }
                    channel.read()
                }
            }
        }
    }

    private static func drip(_ rest: ArraySlice<UInt8>, piece: Int, interval: TimeAmount, on channel: any Channel) {
        guard !rest.isEmpty, channel.isActive else { return }
        channel.eventLoop.scheduleTask(in: interval) {
            let next = rest.prefix(piece)
            channel.writeAndFlush(ByteBuffer(bytes: next), promise: nil)
            RawHandler.drip(rest.dropFirst(next.count), piece: piece, interval: interval, on: channel)
        }
    }
}
