//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
package import NIOHTTP1

/// An HTTP request as the transport sends it: method, absolute URL, headers and an optional body.
///
/// The client builds one per attempt, so each attempt carries a fresh signature. The transport knows nothing of
/// signing: a request arrives fully formed (signed headers included) and is sent as is. A custom
/// ``HTTPTransport`` reads it:
///
/// ```swift
/// func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
///     var outgoing = HTTPClientRequest(url: request.url)
///     outgoing.method = request.method
///     outgoing.headers = request.headers
///     if let body = request.body {  // an AsyncSequence of ByteBuffer, with its length when known
///         outgoing.body = .stream(body, length: body.length.map { .known($0) } ?? .unknown)
///     }
///     ...
/// }
/// ```
package struct TransportRequest: Sendable {
    /// The HTTP method.
    package var method: HTTPMethod
    /// The absolute URL, path and query already percent-encoded.
    package var url: String
    /// The headers to send, exactly as given.
    package var headers: HTTPHeaders
    /// The body, or `nil` for none.
    package var body: Body?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method (default `GET`).
    ///   - url: The absolute URL.
    ///   - headers: The headers to send.
    ///   - body: The body, or `nil` for none.
    package init(method: HTTPMethod = .GET, url: String, headers: HTTPHeaders = [:], body: Body? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Whether the request can be sent again after a failed attempt: true without a body or with a
    /// ``Body/bytes(_:)`` or ``Body/file(path:offset:length:chunkSize:progress:)`` body, false with a stream.
    package var isReplayable: Bool {
        self.body?.isReplayable ?? true
    }
}
