//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
package import NIOCore
package import NIOHTTP1

extension TransportResponse {
    /// A response body: an `AsyncSequence` of `ByteBuffer` chunks with backpressure, as they arrive.
    ///
    /// Errors thrown while iterating are ``TransportError`` values (a connection closed mid-body is
    /// ``TransportError/Code/connectionClosed``, a silent server ``TransportError/Code/readTimeout``, a server
    /// dripping bytes ``TransportError/Code/transferStalled``, a body longer than its `Content-Length`
    /// ``TransportError/Code/malformedResponse``, a body that ends before its `Content-Length`
    /// ``TransportError/Code/bodyTruncated``: a body never ends early as if it were complete). Only the time
    /// ``AsyncIterator/next()`` spends waiting counts towards a stall, so a reader's own pauses between chunks
    /// never count as the server's. A reader that pauses never loses the connection to the read-idle timeout,
    /// which times only the server while the reader waits; one that reads nothing for
    /// ``HTTPConfiguration/unreadBodyTimeout`` gets ``TransportError/Code/bodyUnread`` (the request is cancelled to
    /// free its connection).
    /// Cancelling the task that iterates cancels the underlying request.
    package struct Body: Sendable {
        enum Storage: Sendable {
            case empty
            case client(HTTPClientResponse.Body, RequestContext, StallMeter?, BodyPacing)
            case stream(OneShotStream)
        }

        let storage: Storage
        /// The length the response's `Content-Length` announced, which the body must reach before it ends.
        var announcedLength: Int64?

        init(storage: Storage) {
            self.storage = storage
        }

        /// An empty body.
        package init() {
            self.storage = .empty
        }

        /// A body that yields the given buffers (for tests and other transports).
        ///
        /// - Parameter sequence: The body's chunks.
        /// - Returns: A body that can be iterated once.
        package static func stream<Bytes: AsyncSequence & Sendable>(
            _ sequence: Bytes
        ) -> Body where Bytes.Element == ByteBuffer {
            Body(storage: .stream(OneShotStream(sequence)))
        }

        /// This body, checked against the length that a response to `method` with `status` and `headers`
        /// announces: iterating it throws ``TransportError/Code/bodyTruncated`` if it ends short of that length.
        ///
        /// - Parameters:
        ///   - method: The request's method (a `HEAD` answer has no body).
        ///   - status: The response's status.
        ///   - headers: The response's headers.
        /// - Returns: The checked body.
        package func checkingLength(method: HTTPMethod, status: HTTPResponseStatus, headers: HTTPHeaders) -> Body {
            var body = self
            body.announcedLength = TransportResponse.announcedBodyLength(
                method: method,
                status: status,
                headers: headers
            )
            return body
        }

        /// Accumulates the whole body into one buffer.
        ///
        /// - Parameter maxBytes: The most bytes to accept.
        /// - Returns: The body's bytes.
        /// - Throws: ``TransportError/Code/bodyTooLarge`` when the body exceeds `maxBytes`, or the error that
        ///   ended the stream.
        package func collect(upTo maxBytes: Int) async throws -> ByteBuffer {
            var result = ByteBuffer()
            for try await var chunk in self {
                guard result.readableBytes + chunk.readableBytes <= maxBytes else {
                    throw TransportError(
                        code: .bodyTooLarge,
                        message: "response body exceeds the limit of \(maxBytes) bytes"
                    )
                }
                result.writeBuffer(&chunk)
            }
            return result
        }
    }
}

extension TransportResponse.Body: AsyncSequence {
    /// The element type: a chunk of the body.
    package typealias Element = ByteBuffer

    /// Iterates the body's chunks as they arrive.
    package struct AsyncIterator: AsyncIteratorProtocol {
        enum State {
            case empty
            case client(HTTPClientResponse.Body.AsyncIterator, RequestContext, StallMeter?, BodyPacing)
            case stream(OneShotStream.Iterator)
        }

        var state: State
        /// The body's length from its `Content-Length`, when known.
        let expectedLength: Int64?
        var received: Int64 = 0

        /// Waits for the next chunk.
        ///
        /// - Returns: The next chunk, or `nil` at the end of the body.
        /// - Throws: ``TransportError`` when the connection fails or times out, or the task is cancelled.
        package mutating func next() async throws -> ByteBuffer? {
            switch self.state {
            case .empty:
                try self.checkComplete()
                return nil
            case .client(var iterator, let context, var meter, let pacing):
                do {
                    let waitStart = NIODeadline.now()
                    let chunk = try await iterator.next()
                    guard let chunk else {
                        self.state = .empty
                        try self.checkComplete()
                        return nil
                    }
                    try meter?.record(bytes: chunk.readableBytes, waited: (NIODeadline.now() - waitStart).nanoseconds)
                    self.received += Int64(chunk.readableBytes)
                    self.state = .client(iterator, context, meter, pacing)
                    // Holding the chunk back holds the connection back (backpressure); not counted as a stall.
                    try await pacing.wait(for: chunk.readableBytes, .receive)
                    return chunk
                } catch {
                    self.state = .empty
                    throw TransportError.translating(error, context: context)
                }
            case .stream(let iterator):
                guard let chunk = try await iterator.next() else {
                    self.state = .empty
                    try self.checkComplete()
                    return nil
                }
                self.received += Int64(chunk.readableBytes)
                return chunk
            }
        }
    }

    /// Starts iterating the body.
    ///
    /// - Returns: An iterator over the body's chunks.
    package func makeAsyncIterator() -> AsyncIterator {
        let state: AsyncIterator.State
        switch self.storage {
        case .empty: state = .empty
        case .client(let body, let context, let meter, let pacing):
            state = .client(body.makeAsyncIterator(), context, meter, pacing)
        case .stream(let stream): state = .stream(stream.makeIterator())
        }
        return AsyncIterator(state: state, expectedLength: self.announcedLength)
    }
}

extension TransportResponse.Body.AsyncIterator {
    /// Throws ``TransportError/Code/bodyTruncated`` when the body ended before its announced length.
    func checkComplete() throws(TransportError) {
        guard let expected = self.expectedLength, self.received < expected else { return }
        throw .bodyTruncated(received: self.received, announced: expected)
    }
}

extension TransportResponse {
    /// The number of body bytes a response to `method` with `status` and `headers` announces by its
    /// `Content-Length`, or `nil` when it carries no body or announces no length (a `HEAD`, a 1xx, 204 or 304
    /// answer, chunked framing).
    static func announcedBodyLength(method: HTTPMethod, status: HTTPResponseStatus, headers: HTTPHeaders) -> Int64? {
        guard method != .HEAD, status.code >= 200, status != .noContent, status != .notModified,
            let value = headers.first(name: "content-length")
        else { return nil }
        return Int64(value).flatMap { $0 >= 0 ? $0 : nil }
    }
}

extension TransportError {
    /// A body that ended after `received` of the `announced` bytes.
    static func bodyTruncated(received: Int64, announced: Int64) -> TransportError {
        TransportError(
            code: .bodyTruncated,
            message: "the response body ended after \(received) of the \(announced) bytes its Content-Length "
                + "announced; the connection closed early"
        )
    }
}
