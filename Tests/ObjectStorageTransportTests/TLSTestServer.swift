//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ObjectStorageTestSupport

/// An HTTPS/1.1 server on 127.0.0.1 that answers every request with 200 and ``body``, with the length and a
/// checksum of the request body it received as `x-received-length` and `x-received-checksum`.
final class TLSTestServer: Sendable {
    static let body = "hello over verified TLS"

    let channel: any Channel
    let port: Int

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
    }

    static func start(certificatePEM: [UInt8], keyPEM: [UInt8]) async throws -> TLSTestServer {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(certificatePEM).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: keyPEM, format: .pem))
        )
        let context = try NIOSSLContext(configuration: configuration)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(TLSHelloHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TLSTestServer(channel: channel)
    }

    func url(_ path: String) -> String {
        "https://127.0.0.1:\(self.port)\(path)"
    }

    func stop() async throws {
        try await self.channel.close()
    }
}

private final class TLSHelloHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var received = ByteBuffer()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head:
            self.received.clear()
            return
        case .body(var chunk):
            self.received.writeBuffer(&chunk)
            return
        case .end:
            break
        }
        let body = ByteBuffer(string: TLSTestServer.body)
        let head = HTTPResponseHead(
            version: .http1_1,
            status: .ok,
            headers: [
                "content-length": "\(body.readableBytes)", "content-type": "text/plain",
                "x-received-length": "\(self.received.readableBytes)",
                "x-received-checksum": "\(self.received.readableBytesView.reduce(0) { ($0 &* 31) &+ Int($1) })",
            ]
        )
        context.write(self.wrapOutboundOut(.head(head)), promise: nil)
        context.write(self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
    }
}
