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

/// Takes a response body on the network thread, buffer by buffer, with no hop to a task per buffer: what a
/// download that writes each buffer at its file offset needs.
///
/// A transport calls ``accept(status:headers:)`` once, then ``consume(_:)`` for each buffer of an accepted body,
/// in order and never concurrently. Both run on the connection's event loop, so they must be quick (a `pwrite`
/// into the page cache and a checksum update are; waiting for anything is not).
package protocol ResponseBodyConsumer: Sendable {
    /// Decides from the response head whether the body goes to ``consume(_:)``, before any body byte arrives.
    ///
    /// - Parameters:
    ///   - status: The response status.
    ///   - headers: The response headers.
    /// - Returns: `true` to take the body through ``consume(_:)``; `false` to let the transport collect it (an
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

/// A transport that can hand a response body to a ``ResponseBodyConsumer`` on its network thread.
package protocol BodyConsumingTransport: HTTPTransport {
    /// Sends a request without a body and returns once the response has ended.
    ///
    /// Cancelling the calling task cancels the request.
    ///
    /// - Parameters:
    ///   - request: The request to send (its body, if any, is not sent: use ``HTTPTransport/execute(_:deadline:logger:)``).
    ///   - deadline: The point in time by which the response head must have arrived.
    ///   - logger: The logger for trace and debug lines (never headers).
    ///   - consumer: Takes the body of an accepted answer.
    /// - Returns: The response; its body is empty when the consumer took it, and otherwise holds the first MiB of
    ///   the body (an error answer for the caller to read).
    /// - Throws: ``TransportError`` when the exchange fails, or what the consumer threw.
    func execute(
        _ request: TransportRequest,
        deadline: NIODeadline,
        logger: Logger,
        consumer: some ResponseBodyConsumer
    ) async throws -> TransportResponse
}
