//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import Logging
package import NIOCore
package import NIOHTTP1
import NIOPosix

/// Takes a response body buffer by buffer, on the network thread when the transport can (see
/// ``HTTPTransport/execute(_:deadline:logger:consumer:)``): what a download that writes each buffer at its file
/// offset needs.
///
/// A transport calls ``accept(status:headers:)`` once, then ``consume(_:on:)`` for each buffer of an accepted
/// body, in order and never concurrently. Both may run on the connection's event loop, so they must be quick (a
/// `pwrite` into the page cache and a checksum update are; waiting for anything is not: return
/// ``BodyDemand/after(_:)`` instead).
package protocol ResponseBodyConsumer: Sendable {
    /// Decides from the response head whether the body goes to ``consume(_:on:)``, before any body byte arrives.
    ///
    /// - Parameters:
    ///   - status: The response status.
    ///   - headers: The response headers.
    /// - Returns: `true` to take the body through ``consume(_:on:)``; `false` to let the transport collect it (an
    ///   error answer) into the returned response.
    /// - Throws: Anything, to abort the request; the transport rethrows the error unchanged.
    func accept(status: HTTPResponseStatus, headers: HTTPHeaders) throws -> Bool

    /// Takes the next buffer of an accepted body.
    ///
    /// - Parameters:
    ///   - buffer: The buffer.
    ///   - eventLoop: The event loop this runs on, for any future the consumer returns.
    /// - Returns: When to send the next buffer (``BodyDemand``).
    /// - Throws: Anything, to abort the request; the transport rethrows the error unchanged.
    func consume(_ buffer: ByteBuffer, on eventLoop: any EventLoop) throws -> BodyDemand
}

/// What a ``ResponseBodyConsumer`` wants after a buffer.
package enum BodyDemand: Sendable {
    /// The next buffer, as soon as it arrives.
    case more
    /// No more bytes: the transport ends the request early and returns normally.
    case done
    /// The next buffer once the future succeeds (backpressure); a failed future aborts the request with its error.
    case after(EventLoopFuture<Void>)
}

extension HTTPTransport {
    /// Sends with ``execute(_:deadline:logger:)`` and feeds `consumer` from the response body in the calling
    /// task: the default for a transport that cannot hand buffers over on its network thread.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - deadline: The point in time by which the response head must have arrived.
    ///   - logger: The logger for this request.
    ///   - consumer: Takes the body of an accepted answer.
    /// - Returns: The response; its body is empty when the consumer took it, else the unread body.
    /// - Throws: ``TransportError`` when the exchange fails, or what the consumer threw.
    package func execute(
        _ request: TransportRequest,
        deadline: NIODeadline,
        logger: Logger,
        consumer: some ResponseBodyConsumer
    ) async throws -> TransportResponse {
        var request = request
        request.body = nil
        let response = try await self.execute(request, deadline: deadline, logger: logger)
        guard try consumer.accept(status: response.status, headers: response.headers) else { return response }
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let body = response.body.checkingLength(
            method: request.method,
            status: response.status,
            headers: response.headers
        )
        for try await buffer in body {
            switch try consumer.consume(buffer, on: eventLoop) {
            case .more: continue
            case .done: return TransportResponse(status: response.status, headers: response.headers)
            case .after(let ready): try await ready.get()
            }
        }
        return TransportResponse(status: response.status, headers: response.headers)
    }
}
