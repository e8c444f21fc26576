//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
public import NIOCore

extension TransportResponse {
    /// A response body: an `AsyncSequence` of `ByteBuffer` chunks with backpressure, as they arrive.
    ///
    /// Errors thrown while iterating are ``TransportError`` values (a connection closed mid-body is
    /// ``TransportError/Code/connectionClosed``, a silent server ``TransportError/Code/readTimeout``, a server
    /// dripping bytes ``TransportError/Code/transferStalled``, a body longer than its `Content-Length`
    /// ``TransportError/Code/malformedResponse``). Only the time ``AsyncIterator/next()`` spends waiting counts
    /// towards a stall, so a reader may pause between chunks for as long as it likes (up to the read-idle
    /// timeout, which bounds the connection's silence).
    /// Cancelling the task that iterates cancels the underlying request.
    public struct Body: Sendable {
        enum Storage: Sendable {
            case empty
            case client(HTTPClientResponse.Body, RequestContext, StallMeter?)
            case stream(OneShotStream)
        }

        let storage: Storage

        init(storage: Storage) {
            self.storage = storage
        }

        /// An empty body.
        public init() {
            self.storage = .empty
        }

        /// A body that yields the given buffers (for tests and other transports).
        ///
        /// - Parameter sequence: The body's chunks.
        /// - Returns: A body that can be iterated once.
        public static func stream<Bytes: AsyncSequence & Sendable>(
            _ sequence: Bytes
        ) -> Body where Bytes.Element == ByteBuffer {
            Body(storage: .stream(OneShotStream(sequence)))
        }

        /// Accumulates the whole body into one buffer.
        ///
        /// - Parameter maxBytes: The most bytes to accept.
        /// - Returns: The body's bytes.
        /// - Throws: ``TransportError/Code/bodyTooLarge`` when the body exceeds `maxBytes`, or the error that
        ///   ended the stream.
        public func collect(upTo maxBytes: Int) async throws -> ByteBuffer {
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
    public typealias Element = ByteBuffer

    /// Iterates the body's chunks as they arrive.
    public struct AsyncIterator: AsyncIteratorProtocol {
        enum State {
            case empty
            case client(HTTPClientResponse.Body.AsyncIterator, RequestContext, StallMeter?)
            case stream(OneShotStream.Iterator)
        }

        var state: State

        /// Waits for the next chunk.
        ///
        /// - Returns: The next chunk, or `nil` at the end of the body.
        /// - Throws: ``TransportError`` when the connection fails or times out, or the task is cancelled.
        public mutating func next() async throws -> ByteBuffer? {
            switch self.state {
            case .empty:
                return nil
            case .client(var iterator, let context, var meter):
                do {
                    let waitStart = NIODeadline.now()
                    let chunk = try await iterator.next()
                    if let chunk {
                        try meter?.record(
                            bytes: chunk.readableBytes,
                            waited: (NIODeadline.now() - waitStart).nanoseconds
                        )
                    }
                    self.state = .client(iterator, context, meter)
                    return chunk
                } catch {
                    self.state = .empty
                    throw TransportError.translating(error, context: context)
                }
            case .stream(let iterator):
                return try await iterator.next()
            }
        }
    }

    /// Starts iterating the body.
    ///
    /// - Returns: An iterator over the body's chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        switch self.storage {
        case .empty:
            return AsyncIterator(state: .empty)
        case .client(let body, let context, let meter):
            return AsyncIterator(state: .client(body.makeAsyncIterator(), context, meter))
        case .stream(let stream):
            return AsyncIterator(state: .stream(stream.makeIterator()))
        }
    }
}
