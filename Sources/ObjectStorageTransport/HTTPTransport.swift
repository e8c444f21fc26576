//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import Logging
package import NIOCore

/// Sends HTTP requests. The SDK's operations talk to the network only through this protocol, so the package's own
/// tests can put a fake or a recording transport in its place. It is `package`, not public: an application sends
/// through AsyncHTTPClient, with `ObjectStorageClient(configuration:)` or
/// `withObjectStorageClient(configuration:http:)`.
///
/// The shape follows AsyncHTTPClient's `execute(_:deadline:logger:)`: the call returns when the response head
/// arrives, and the body streams afterwards.
package protocol HTTPTransport: Sendable {
    /// Sends one request (no retries) and returns when the response head arrives.
    ///
    /// Cancelling the calling task cancels the request.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - deadline: The point in time by which the response head must have arrived.
    ///   - logger: The logger for this request's trace and debug lines (never headers).
    /// - Returns: The response, whose body may still be arriving.
    /// - Throws: ``TransportError`` when no response could be obtained.
    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse

    /// Sends a request without a body (no retries), hands the body of an answer the consumer accepts to
    /// `consumer` buffer by buffer, and returns once the response has ended. Resumable downloads fetch every
    /// part this way, whatever the transport.
    ///
    /// An optional capability: the default implementation sends with ``execute(_:deadline:logger:)`` and feeds the
    /// consumer from the response body in the calling task. A transport that can hand buffers to the consumer
    /// on its network thread, with no hop to a task per buffer, implements it (``AsyncHTTPClientTransport`` does).
    /// Either way the contract is the same: ``ResponseBodyConsumer/accept(status:headers:)`` once, then
    /// ``ResponseBodyConsumer/consume(_:on:)`` for each buffer in order, never concurrently; its ``BodyDemand``
    /// is honoured; a body that ends before its `Content-Length` throws ``TransportError/Code/bodyTruncated``.
    ///
    /// Cancelling the calling task cancels the request.
    ///
    /// - Parameters:
    ///   - request: The request to send (its body, if any, is not sent).
    ///   - deadline: The point in time by which the response head must have arrived.
    ///   - logger: The logger for trace and debug lines (never headers).
    ///   - consumer: Takes the body of an accepted answer.
    /// - Returns: The response; its body is empty when the consumer took it, and otherwise holds the body of the
    ///   answer it did not accept (an error document for the caller to read, of which the first MiB is kept).
    /// - Throws: ``TransportError`` when the exchange fails, or what the consumer threw.
    func execute(
        _ request: TransportRequest,
        deadline: NIODeadline,
        logger: Logger,
        consumer: some ResponseBodyConsumer
    ) async throws -> TransportResponse
}

extension HTTPTransport {
    /// Sends one request (no retries) with a timeout instead of a deadline.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeout: How long until the response head must have arrived.
    ///   - logger: The logger for this request.
    /// - Returns: The response, whose body may still be arriving.
    /// - Throws: ``TransportError`` when no response could be obtained.
    package func execute(
        _ request: TransportRequest,
        timeout: Duration,
        logger: Logger
    ) async throws -> TransportResponse {
        try await self.execute(request, deadline: .now() + TimeAmount(timeout), logger: logger)
    }
}
