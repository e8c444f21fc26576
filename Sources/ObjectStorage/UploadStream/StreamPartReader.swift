//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore

/// Cuts a stream of byte buffers of any sizes into parts of exactly `partSize` bytes (the last one shorter).
///
/// It holds at most the part being assembled plus the unread rest of one chunk of the stream. An iterator that
/// ends because its task was cancelled (as `AsyncStream`'s does) is not taken for the end of the stream:
/// ``nextPart()`` and ``isAtEnd()`` then throw `CancellationError`, so a cancelled upload never completes a
/// truncated object.
struct StreamPartReader<Source: AsyncIteratorProtocol> where Source.Element == ByteBuffer {
    private var source: Source
    /// Bytes read from the source that no part holds yet.
    private var pending = ByteBuffer()
    private var ended = false
    /// The size of every part but the last.
    let partSize: Int
    /// Called with the size of each chunk read from the source.
    private let onRead: (Int) -> Void

    /// - Parameters:
    ///   - source: The stream's iterator.
    ///   - partSize: The size of every part but the last (> 0).
    ///   - onRead: Called with the size of each chunk read from the source.
    init(_ source: Source, partSize: Int, onRead: @escaping (Int) -> Void = { _ in }) {
        self.source = source
        self.partSize = partSize
        self.onRead = onRead
    }

    /// The next part: `partSize` bytes, or fewer when the stream ends first.
    ///
    /// - Returns: The part, or `nil` when the stream has ended.
    /// - Throws: What the stream throws; `CancellationError` when the task is cancelled.
    mutating func nextPart() async throws -> ByteBuffer? {
        var part = ByteBuffer()
        while part.readableBytes < partSize {
            if pending.readableBytes == 0 {
                guard try await fill() else { break }
            }
            let wanted = min(partSize - part.readableBytes, pending.readableBytes)
            if part.readableBytes == 0 && wanted == partSize {
                // A chunk holding a whole part: no copy.
                guard let whole = pending.readSlice(length: wanted) else { break }
                return whole
            }
            if part.capacity == 0 { part.reserveCapacity(partSize) }
            guard var slice = pending.readSlice(length: wanted) else { break }
            part.writeBuffer(&slice)
        }
        return part.readableBytes == 0 ? nil : part
    }

    /// Whether the stream has no more bytes (reads ahead one chunk to know).
    ///
    /// - Throws: What the stream throws; `CancellationError` when the task is cancelled.
    mutating func isAtEnd() async throws -> Bool {
        if pending.readableBytes > 0 { return false }
        return try await !fill()
    }

    /// Reads the next non-empty chunk into `pending`.
    ///
    /// - Returns: `false` when the stream has ended.
    private mutating func fill() async throws -> Bool {
        guard !ended else { return false }
        while let chunk = try await source.next() {
            try Task.checkCancellation()
            guard chunk.readableBytes > 0 else { continue }
            onRead(chunk.readableBytes)
            pending = chunk
            return true
        }
        try Task.checkCancellation()
        ended = true
        return false
    }
}
