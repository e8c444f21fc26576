//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
package import NIOHTTP1

/// A response: status, headers, and a body that streams as it arrives.
///
/// The body must be consumed (or dropped) promptly: until then the connection stays busy. Reading it slowly
/// applies backpressure to the server.
package struct TransportResponse: Sendable {
    /// The response status.
    package var status: HTTPResponseStatus
    /// The response headers.
    package var headers: HTTPHeaders
    /// The response body.
    package var body: Body

    /// Creates a response (for transports other than ``AsyncHTTPClientTransport``, and for tests).
    ///
    /// - Parameters:
    ///   - status: The response status.
    ///   - headers: The response headers.
    ///   - body: The response body (default empty).
    package init(status: HTTPResponseStatus, headers: HTTPHeaders = [:], body: Body = Body()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
