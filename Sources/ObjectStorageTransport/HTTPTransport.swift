//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
public import NIOCore

/// Sends HTTP requests. The SDK's operations talk to the network only through this protocol, so an application
/// can supply its own implementation (or a fake in tests).
///
/// The shape follows AsyncHTTPClient's `execute(_:deadline:logger:)`: the call returns when the response head
/// arrives, and the body streams afterwards.
public protocol HTTPTransport: Sendable {
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
    public func execute(
        _ request: TransportRequest,
        timeout: Duration,
        logger: Logger
    ) async throws -> TransportResponse {
        try await self.execute(request, deadline: .now() + TimeAmount(timeout), logger: logger)
    }
}
