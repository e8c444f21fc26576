//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import NIOCore

/// A request body that keeps moving slowly: the bytes of `content` in pieces of `piece` bytes, one piece every
/// `interval` (the application's own stream, at a steady trickle).
public struct PacedBuffers: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer

    let content: [UInt8]
    let piece: Int
    let interval: Duration

    /// Creates the sequence.
    ///
    /// - Parameters:
    ///   - content: The bytes to yield.
    ///   - piece: The bytes per piece (at least 1).
    ///   - interval: The wait before each piece.
    public init(_ content: [UInt8], piece: Int, every interval: Duration) {
        self.content = content
        self.piece = Swift.max(1, piece)
        self.interval = interval
    }

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<UInt8>
        let piece: Int
        let interval: Duration

        /// Waits one interval, then yields the next piece.
        public mutating func next() async throws -> ByteBuffer? {
            guard !self.remaining.isEmpty else { return nil }
            try await Task.sleep(for: self.interval)
            let next = self.remaining.prefix(self.piece)
            self.remaining = self.remaining.dropFirst(next.count)
            return ByteBuffer(bytes: next)
        }
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(remaining: self.content[...], piece: self.piece, interval: self.interval)
    }
}
