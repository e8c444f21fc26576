//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOPosix
import Synchronization

/// Sends hand-built request bytes to 127.0.0.1 and returns everything the server answers until it closes: a
/// request no HTTP library would change (no header added, no body re-encoded).
public enum RawHTTPExchange {
    /// Sends `request` (which should carry `Connection: close`) and collects the answer.
    ///
    /// - Parameters:
    ///   - request: The request's bytes.
    ///   - port: The server's port on 127.0.0.1.
    /// - Returns: The answer's bytes.
    /// - Throws: When the connection fails.
    public static func send(_ request: [UInt8], port: Int) async throws -> [UInt8] {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(collector)
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        try await channel.writeAndFlush(ByteBuffer(bytes: request)).get()
        try await channel.closeFuture.get()
        return collector.bytes
    }

    /// A request: the request line, the headers, `Content-Length` and `Connection: close`, and the body.
    ///
    /// - Returns: The request's bytes.
    public static func request(
        _ method: String,
        _ target: String,
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) -> [UInt8] {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(text.utf8) + body
    }
}

private final class Collector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let received = Mutex<[UInt8]>([])

    var bytes: [UInt8] { self.received.withLock { $0 } }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = self.unwrapInboundIn(data)
        self.received.withLock { $0.append(contentsOf: buffer.readableBytesView) }
    }
}
