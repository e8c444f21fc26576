//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import Synchronization

/// The bytes of one part of an ordered download on their way from its GET to standard output: at most `limit`
/// bytes wait here. A producer that would go past it waits until the consumer takes some, and meanwhile reads no
/// more from its connection, so TCP flow control holds the rest of the part at the sender.
///
/// One producer (the part's GET) and one consumer (the writer, once it is the part's turn). Either side's task
/// being cancelled wakes it with `CancellationError`.
final class PartReadAhead: Sendable {
    private struct State {
        var blocks = CircularBuffer<ByteBuffer>()
        var buffered = 0
        var end: Result<Void, any Error>?
        var consumer: CheckedContinuation<ByteBuffer?, any Error>?
        var producer: CheckedContinuation<Void, any Error>?
    }

    private let limit: Int
    private let state = Mutex(State())

    /// Creates an empty read-ahead.
    ///
    /// - Parameter limit: The most bytes that wait before the producer pauses (at least one block is always taken).
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Hands `block` over; waits while `limit` bytes or more are already waiting.
    ///
    /// - Throws: `CancellationError` when the producer's task is cancelled while it waits.
    func send(_ block: ByteBuffer) async throws {
        let waits = self.state.withLock { state -> Bool in
            if let consumer = state.consumer {
                state.consumer = nil
                consumer.resume(returning: block)
                return false
            }
            state.blocks.append(block)
            state.buffered += block.readableBytes
            return state.buffered >= self.limit
        }
        guard waits else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                self.state.withLock { state in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else if state.buffered < self.limit {
                        continuation.resume()
                    } else {
                        state.producer = continuation
                    }
                }
            }
        } onCancel: {
            self.state.withLock { state in
                state.producer.take()?.resume(throwing: CancellationError())
            }
        }
    }

    /// Ends the part: after the waiting blocks the consumer gets `nil`, or `error`.
    func finish(throwing error: (any Error)? = nil) {
        self.state.withLock { state in
            guard state.end == nil else { return }
            state.end = error.map { .failure($0) } ?? .success(())
            guard let consumer = state.consumer else { return }
            state.consumer = nil
            if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
        }
    }

    /// The next block, `nil` at the end of the part.
    ///
    /// - Throws: The producer's error; `CancellationError` when the consumer's task is cancelled while it waits.
    func next() async throws -> ByteBuffer? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ByteBuffer?, any Error>) in
                self.state.withLock { state in
                    if let block = state.blocks.popFirst() {
                        state.buffered -= block.readableBytes
                        if state.buffered < self.limit { state.producer.take()?.resume() }
                        continuation.resume(returning: block)
                    } else if let end = state.end {
                        continuation.resume(with: end.map { nil })
                    } else if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        state.consumer = continuation
                    }
                }
            }
        } onCancel: {
            self.state.withLock { state in
                state.consumer.take()?.resume(throwing: CancellationError())
            }
        }
    }
}
