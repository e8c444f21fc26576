//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOHTTP1
import ObjectStorageTransport

/// Holds every request body to a minimum rate: fewer than `rate.bytes` bytes of body over `rate.window` of time
/// spent waiting for the client fails the request with ``RequestBodyTooSlow``.
///
/// The idle timeout alone cannot do this: each byte resets it, so a client that drips one byte every 20 seconds
/// holds a connection (and a descriptor, and an upload's temporary file) for as long as it likes.
///
/// It sits after the HTTP decoder, where it sees each request's head, body parts and end, and counts only the time
/// the connection waits for the client: from a read the pipeline asks for until the socket delivers. While the
/// request handler holds bytes back (a disk slower than the client, say), NIO's back-pressure stops asking for
/// reads and that time does not count, as a client's ``MinimumTransferRate`` counts only time spent waiting for the
/// network. The window restarts each time the minimum has arrived, so a pause followed by a burst never trips it.
///
/// When a body falls below the rate, the handler fires ``RequestBodyTooSlow`` down the pipeline, which ends the
/// request body stream with that error: the request handler, reading the body, answers 400 `RequestTimeout` in its
/// dialect and closes the connection; a body nobody is reading fails Hummingbird's drain, which closes it. The
/// handler then asks the socket for nothing more, so a tripped client cannot keep feeding the connection.
final class RequestBodyPacing: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private let minimumBytes: Int
    private let window: TimeAmount
    /// Whether a request's head has arrived and its end has not.
    private var inBody = false
    private var tripped = false
    /// Body bytes in the current window.
    private var bytes = 0
    /// Time spent waiting for the client in the current window, up to the last completed read.
    private var waited = TimeAmount.zero
    /// When the pending read was asked for, if one is pending.
    private var readRequestedAt: NIODeadline?
    private var check: Scheduled<Void>?

    /// - Parameter rate: The slowest body accepted.
    init(rate: MinimumTransferRate) {
        minimumBytes = rate.bytes
        window = LocalObjectServer.timeAmount(rate.window)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !tripped else { return }
        switch unwrapInboundIn(data) {
        case .head:
            inBody = true
            restartWindow()
            schedule(context)
        case .body(let buffer):
            bytes += buffer.readableBytes
            if bytes >= minimumBytes { restartWindow() }
        case .end:
            inBody = false
            check?.cancel()
            check = nil
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if let requested = readRequestedAt {
            waited = waited + (NIODeadline.now() - requested)
            readRequestedAt = nil
        }
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        guard !tripped else { return }
        if readRequestedAt == nil { readRequestedAt = .now() }
        context.read()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        context.fireChannelInactive()
    }

    /// Starts a new window: no bytes yet, and no time waited (a read already pending counts from now).
    private func restartWindow() {
        bytes = 0
        waited = .zero
        if readRequestedAt != nil { readRequestedAt = .now() }
    }

    /// The time waited in the current window, the pending read's included.
    private func waitedSoFar(now: NIODeadline) -> TimeAmount {
        waited + (readRequestedAt.map { now - $0 } ?? .zero)
    }

    /// Checks again when the current window would run out if the client sent nothing more.
    private func schedule(_ context: ChannelHandlerContext) {
        guard check == nil, inBody, !tripped else { return }
        let remaining = window - waitedSoFar(now: .now())
        check = context.eventLoop.assumeIsolated().scheduleTask(in: max(remaining, .milliseconds(1))) {
            self.check = nil
            self.checkRate(context)
        }
    }

    private func checkRate(_ context: ChannelHandlerContext) {
        guard inBody, !tripped else { return }
        let waited = waitedSoFar(now: .now())
        guard waited >= window else { return schedule(context) }
        tripped = true
        context.fireErrorCaught(RequestBodyTooSlow(bytes: bytes, minimumBytes: minimumBytes, window: window))
    }
}

/// A request body that moved fewer than the minimum bytes in a window of waiting (see ``RequestBodyPacing``); the
/// server answers it with 400 `RequestTimeout`, as S3 answers an upload that stops sending.
struct RequestBodyTooSlow: Error, CustomStringConvertible {
    var bytes: Int
    var minimumBytes: Int
    var window: TimeAmount

    var description: String {
        "request body sent \(bytes) bytes in \(window), below the minimum of \(minimumBytes)"
    }
}
