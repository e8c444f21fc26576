//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import ObjectStorageTransport

/// Hummingbird's HTTP/1 child channel with ``RequestBodyPacing`` right after the HTTP decoder, behind TLS when
/// the server has a certificate.
///
/// Hummingbird adds its `additionalChannelHandlers` after its conversion to HTTP types, whose parts this module
/// cannot name; the pacing reads NIO's own parts instead, so it goes in just after NIO's request decoder.
struct PacedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    /// The slowest request body accepted; `nil` for no minimum.
    let minimumBodyRate: MinimumTransferRate?
    /// The TLS context of an HTTPS server; `nil` for plain HTTP.
    let tls: NIOSSLContext?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let minimumBodyRate = self.minimumBodyRate
        if let tls = self.tls {
            do {
                try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            guard let minimumBodyRate else { return value }
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(RequestBodyPacing(rate: minimumBodyRate), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
