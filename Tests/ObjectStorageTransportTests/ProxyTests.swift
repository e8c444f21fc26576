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
import NIOPosix
import NIOSSL
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

@Suite("HTTP proxy")
struct ProxyTests {
    let logger = Logger.scanning

    @Test func aDownloadTravelsThroughTheProxy() async throws {
        try await withProxyAndServer { proxy, server in
            let length = 300_000
            try await withAsyncHTTPClientTransport(configuration: .through(proxy)) { transport in
                let request = TransportRequest(url: server.url("/large/\(length)"))
                let response = try await transport.execute(request, timeout: .seconds(30), logger: logger)
                #expect(response.status == .ok)
                let body = try await response.body.collect(upTo: 1 << 20)
                #expect(Array(body.readableBytesView) == generatedBytes(count: length) { UInt8($0 % 251) })
            }
            #expect(server.hitCount("/large/\(length)") == 1)
            let seen = proxy.seen
            // AsyncHTTPClient tunnels every request through an HTTP proxy with CONNECT, `http` URLs too.
            #expect(seen.tunnels == ["127.0.0.1:\(server.port)"])
            #expect(seen.requestLines == ["GET /large/\(length) HTTP/1.1"])
            #expect(seen.bytesToClient > length)
        }
    }

    @Test func anUploadTravelsThroughTheProxy() async throws {
        try await withProxyAndServer { proxy, server in
            let payload = ByteBuffer(bytes: generatedBytes(count: 100_000) { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
            try await withAsyncHTTPClientTransport(configuration: .through(proxy)) { transport in
                let request = TransportRequest(method: .PUT, url: server.url("/echo"), body: .bytes(payload))
                let response = try await transport.execute(request, timeout: .seconds(30), logger: logger)
                #expect(response.status == .ok)
                #expect(response.headers.first(name: "x-received-length") == "100000")
                #expect(try await response.body.collect(upTo: 1 << 20) == payload)
            }
            let seen = proxy.seen
            #expect(seen.tunnels == ["127.0.0.1:\(server.port)"])
            #expect(seen.requestLines == ["PUT /echo HTTP/1.1"])
            #expect(seen.bytesFromClient > 100_000)
        }
    }

    @Test func aFileBodyIsSentWithSendfileThroughTheTunnel() async throws {
        let file = try TestFile(size: 1_500_000)
        defer { file.remove() }
        let capture = LogCapture()
        let progress = ProgressLog()
        try await withProxyAndServer { proxy, server in
            try await withAsyncHTTPClientTransport(configuration: .through(proxy)) { transport in
                let body = TransportRequest.Body.file(
                    path: file.path,
                    offset: 3,
                    length: 1_400_001,
                    chunkSize: 256 * 1024,
                    progress: { progress.add($0) }
                )
                let request = TransportRequest(method: .PUT, url: server.url("/echo"), body: body)
                let response = try await transport.execute(request, timeout: .seconds(30), logger: capture.logger)
                #expect(response.status == .ok)
                let received = try await response.body.collect(upTo: 4 << 20)
                #expect(Array(received.readableBytesView) == Array(file.bytes[3..<1_400_004]))
            }
            let seen = proxy.seen
            #expect(seen.tunnels == ["127.0.0.1:\(server.port)"])
            #expect(seen.requestLines == ["PUT /echo HTTP/1.1"])
            #expect(seen.bytesFromClient > 1_400_001)
        }
        #expect(capture.text.contains("http.body.sendfile"))
        #expect(progress.counts.reduce(0, +) == 1_400_001)
    }

    @Test(.enabled(if: TLSTestPKI.isEnabled, "needs the openssl command-line tool"))
    func anHTTPSRequestIsTunnelledAndStaysEncrypted() async throws {
        try await withProxyAndServer { proxy, _ in
            let pki = try await TLSTestPKI.shared()
            let server = try await TLSTestServer.start(
                certificatePEM: pki.serverCertificatePEM,
                keyPEM: pki.serverKeyPEM
            )
            var configuration = HTTPConfiguration.through(proxy)
            configuration.tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(pki.caPEM))
            do {
                try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
                    let request = TransportRequest(url: server.url("/secret"))
                    let response = try await transport.execute(request, timeout: .seconds(30), logger: logger)
                    #expect(response.status == .ok)
                    #expect(String(buffer: try await response.body.collect(upTo: 1024)) == TLSTestServer.body)
                }
            } catch {
                try? await server.stop()
                throw error
            }
            try await server.stop()
            let seen = proxy.seen
            #expect(seen.tunnels == ["127.0.0.1:\(server.port)"])
            // The proxy relayed the request but could not read it.
            #expect(seen.bytesFromClient > 0)
            #expect(!seen.requestLines.contains { $0.contains("/secret") })
        }
    }

    @Test func anUnreachableProxyIsAConnectionError() async throws {
        try await withProxyAndServer { proxy, server in
            let closed = try RefusingPort()
            defer { closed.release() }
            var configuration = HTTPConfiguration()
            configuration.proxy = .init(host: "127.0.0.1", port: closed.port)
            try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
                let request = TransportRequest(url: server.url("/echo"))
                let error = await #expect(throws: TransportError.self) {
                    _ = try await transport.execute(request, timeout: .seconds(20), logger: logger)
                }
                #expect(error?.code == .connectFailed)
                #expect(error?.code.isTransient == true)
            }
            #expect(server.hitCount("/echo") == 0)
            #expect(proxy.seen.tunnels.isEmpty)
        }
    }

    @Test func aProxyThatCannotReachTheServerIsAConnectionError() async throws {
        try await withProxyAndServer { proxy, server in
            let closed = try RefusingPort()
            defer { closed.release() }
            let port = closed.port
            try await withAsyncHTTPClientTransport(configuration: .through(proxy)) { transport in
                let request = TransportRequest(url: "http://127.0.0.1:\(port)/echo")
                let error = await #expect(throws: TransportError.self) {
                    _ = try await transport.execute(request, timeout: .seconds(20), logger: logger)
                }
                #expect(error?.code == .connectFailed)
                #expect(error?.message.contains("proxy") == true)
            }
            #expect(proxy.seen.tunnels == ["127.0.0.1:\(port)"])
            #expect(proxy.seen.requestLines.isEmpty)
        }
    }

    /// Starts a proxy and a server, runs `body`, and stops both whether or not it throws.
    private func withProxyAndServer(
        _ body: (TunnellingProxy, TestHTTPServer) async throws -> Void
    ) async throws {
        let server = try await TestHTTPServer.start()
        let proxy: TunnellingProxy
        do {
            proxy = try await TunnellingProxy.start()
        } catch {
            try? await server.stop()
            throw error
        }
        do {
            try await body(proxy, server)
        } catch {
            try? await proxy.stop()
            try? await server.stop()
            throw error
        }
        try await proxy.stop()
        try await server.stop()
    }
}

extension HTTPConfiguration {
    fileprivate static func through(_ proxy: TunnellingProxy) -> Self {
        var configuration = Self()
        configuration.proxy = .init(host: "127.0.0.1", port: proxy.port)
        return configuration
    }
}

/// A minimal HTTP forward proxy on 127.0.0.1.
///
/// AsyncHTTPClient sends every request through an HTTP proxy inside a `CONNECT host:port` tunnel, so that is all
/// this proxy serves: it connects to the target, answers `200`, then relays bytes both ways. A target it cannot
/// reach gets `502 Bad Gateway`, any other method `405`. It records what it saw.
final class TunnellingProxy: Sendable {
    /// What the proxy saw.
    struct Seen: Sendable {
        /// The `CONNECT` targets, in order.
        var tunnels: [String] = []
        /// The first line the client sent inside each tunnel that got that far.
        var requestLines: [String] = []
        /// Bytes relayed from clients to targets, and back.
        var bytesFromClient = 0
        var bytesToClient = 0
    }

    let port: Int
    private let channel: any Channel
    private let record: ProxyRecord

    private init(channel: any Channel, record: ProxyRecord) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
        self.record = record
    }

    static func start() async throws -> TunnellingProxy {
        let record = ProxyRecord()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(TunnelClientSideHandler(record: record))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TunnellingProxy(channel: channel, record: record)
    }

    var seen: Seen { self.record.seen.withLock { $0 } }

    func stop() async throws {
        try await self.channel.close()
    }
}

private final class ProxyRecord: Sendable {
    let seen = Mutex(TunnellingProxy.Seen())
}

/// The proxy's end of a client connection: reads the `CONNECT` head, opens the tunnel, then forwards.
private final class TunnelClientSideHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        case readingHead(ByteBuffer)
        case connecting(pending: ByteBuffer)
        case tunnelling(target: any Channel, firstLine: ByteBuffer?)
        case closed
    }

    private let record: ProxyRecord
    private var state = State.readingHead(ByteBuffer())

    init(record: ProxyRecord) {
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = self.unwrapInboundIn(data)
        switch self.state {
        case .readingHead(var head):
            head.writeBuffer(&bytes)
            self.readHead(head, context: context)
        case .connecting(var pending):
            pending.writeBuffer(&bytes)
            self.state = .connecting(pending: pending)
        case .tunnelling:
            self.forward(bytes)
        case .closed:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .tunnelling(let target, _) = self.state { target.close(promise: nil) }
        self.state = .closed
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func readHead(_ head: ByteBuffer, context: ChannelHandlerContext) {
        let text = String(decoding: head.readableBytesView, as: UTF8.self)
        guard let end = text.firstRange(of: "\r\n\r\n") else {
            self.state = .readingHead(head)
            return
        }
        var pending = head
        pending.moveReaderIndex(forwardBy: text[..<end.upperBound].utf8.count)
        let words = text[..<end.lowerBound].prefix { $0 != "\r\n" }.split(separator: " ")
        guard words.count == 3, words[0] == "CONNECT", let colon = words[1].lastIndex(of: ":"),
            let port = Int(words[1][words[1].index(after: colon)...])
        else {
            self.refuse("405 Method Not Allowed", context: context)
            return
        }
        let target = String(words[1])
        self.record.seen.withLock { $0.tunnels.append(target) }
        self.state = .connecting(pending: pending)

        let record = self.record
        let clientSide = context.channel
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = TunnelTargetSideHandler(clientSide: clientSide, record: record)
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
            .connect(host: String(words[1][..<colon]), port: port)
            .whenComplete { result in
                let (handler, context) = loopBound.value
                handler.connected(result, context: context)
            }
    }

    private func connected(_ result: Result<any Channel, any Error>, context: ChannelHandlerContext) {
        switch (result, self.state) {
        case (.success(let target), .connecting(let pending)):
            context.writeAndFlush(
                self.wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n")),
                promise: nil
            )
            self.state = .tunnelling(target: target, firstLine: ByteBuffer())
            if pending.readableBytes > 0 { self.forward(pending) }
        case (.success(let target), _):
            target.close(promise: nil)
        case (.failure, .connecting):
            self.refuse("502 Bad Gateway", context: context)
        case (.failure, _):
            break
        }
    }

    private func forward(_ bytes: ByteBuffer) {
        guard case .tunnelling(let target, var firstLine) = self.state else { return }
        if var line = firstLine {
            line.writeImmutableBuffer(bytes)
            let text = String(decoding: line.readableBytesView, as: UTF8.self)
            if let end = text.firstRange(of: "\r\n") {
                self.record.seen.withLock { $0.requestLines.append(String(text[..<end.lowerBound])) }
                firstLine = nil
            } else {
                firstLine = line
            }
            self.state = .tunnelling(target: target, firstLine: firstLine)
        }
        self.record.seen.withLock { $0.bytesFromClient += bytes.readableBytes }
        target.writeAndFlush(bytes, promise: nil)
    }

    private func refuse(_ status: String, context: ChannelHandlerContext) {
        self.state = .closed
        let response = "HTTP/1.1 \(status)\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(self.wrapOutboundOut(ByteBuffer(string: response))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

/// The proxy's end of the connection to the target: relays everything back to the client.
private final class TunnelTargetSideHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let clientSide: any Channel
    private let record: ProxyRecord

    init(clientSide: any Channel, record: ProxyRecord) {
        self.clientSide = clientSide
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = self.unwrapInboundIn(data)
        self.record.seen.withLock { $0.bytesToClient += bytes.readableBytes }
        self.clientSide.writeAndFlush(bytes, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.clientSide.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
