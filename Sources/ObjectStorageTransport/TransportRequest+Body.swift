//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import NIOCore
import Synchronization

extension TransportRequest {
    /// A request body: bytes in memory, a region of a file read in chunks, or an async sequence of buffers.
    ///
    /// `Body` is itself an `AsyncSequence` of `ByteBuffer`, so any transport can send it. Bytes and file bodies
    /// can be iterated any number of times (they are *replayable*); a stream body can be iterated once, and a
    /// second iteration throws ``TransportError/Code/bodyNotReplayable``.
    package struct Body: Sendable {
        enum Storage: Sendable {
            case bytes(ByteBuffer)
            case file(FileRegionBody)
            case stream(OneShotStream, length: Int64?)
        }

        let storage: Storage

        /// The default size of the chunks a file body is read in: 512 KiB.
        package static let defaultFileChunkSize = 512 * 1024

        /// A body of bytes held in memory.
        ///
        /// - Parameter buffer: The bytes to send.
        /// - Returns: A replayable body.
        package static func bytes(_ buffer: ByteBuffer) -> Body {
            Body(storage: .bytes(buffer))
        }

        /// A body read from a region of a file, one chunk at a time; the file is never loaded whole.
        ///
        /// The file is opened once per attempt and closed when the attempt ends. If the file has fewer than
        /// `offset + length` bytes the send fails with ``TransportError/Code/fileReadFailed``.
        ///
        /// Over plain `http`, ``AsyncHTTPClientTransport`` hands the region to the kernel (`sendfile`) in pieces of
        /// `chunkSize` bytes, so the bytes are never copied into the process; otherwise (TLS, or iterating the
        /// body) they are read in chunks of `chunkSize` bytes.
        ///
        /// - Parameters:
        ///   - path: The file's path.
        ///   - offset: The first byte to send (default 0).
        ///   - length: How many bytes to send.
        ///   - chunkSize: How many bytes to read or send at a time (default ``defaultFileChunkSize``, at least 1).
        ///   - progress: Called with a count of bytes each time a chunk has been read for sending or a piece
        ///     has been written to the connection; the counts of one complete send add up to `length`. It may be
        ///     called on a network thread, so it must be quick and must not block. Default none.
        /// - Returns: A replayable body of exactly `length` bytes.
        package static func file(
            path: String,
            offset: Int64 = 0,
            length: Int64,
            chunkSize: Int = Body.defaultFileChunkSize,
            progress: (@Sendable (Int) -> Void)? = nil
        ) -> Body {
            let region = FileRegionBody(
                path: path,
                offset: Swift.max(0, offset),
                length: Swift.max(0, length),
                chunkSize: Swift.max(1, chunkSize),
                progress: progress
            )
            return Body(storage: .file(region))
        }

        /// A body produced by an async sequence of buffers. It can be sent only once, so a request carrying it is
        /// never retried.
        ///
        /// - Parameters:
        ///   - sequence: The buffers to send, in order.
        ///   - length: The total length if known (sent as `Content-Length`), or `nil` for chunked encoding.
        /// - Returns: A body that is not replayable.
        package static func stream<Bytes: AsyncSequence & Sendable>(
            _ sequence: Bytes,
            length: Int64?
        ) -> Body where Bytes.Element == ByteBuffer {
            Body(storage: .stream(OneShotStream(sequence), length: length))
        }

        /// The number of bytes the body holds, when known in advance.
        package var length: Int64? {
            switch self.storage {
            case .bytes(let buffer): return Int64(buffer.readableBytes)
            case .file(let region): return region.length
            case .stream(_, let length): return length
            }
        }

        /// Whether the body can be sent again: true for bytes and file regions, false for streams.
        package var isReplayable: Bool {
            switch self.storage {
            case .bytes, .file: return true
            case .stream: return false
            }
        }
    }
}

extension TransportRequest.Body: AsyncSequence {
    /// The element type: a chunk of the body.
    package typealias Element = ByteBuffer

    /// Iterates the body's chunks.
    package struct AsyncIterator: AsyncIteratorProtocol {
        enum State {
            case bytes(ByteBuffer?)
            case file(FileRegionBody.Iterator)
            case stream(OneShotStream.Iterator)
        }

        var state: State

        /// Returns the next chunk, or `nil` at the end of the body.
        ///
        /// - Returns: The next chunk, or `nil`.
        /// - Throws: ``TransportError`` when the file cannot be read or a stream is iterated a second time, or
        ///   whatever the stream throws.
        package mutating func next() async throws -> ByteBuffer? {
            switch self.state {
            case .bytes(let buffer):
                self.state = .bytes(nil)
                return buffer
            case .file(let iterator):
                return try await iterator.next()
            case .stream(let iterator):
                return try await iterator.next()
            }
        }
    }

    /// Starts iterating the body.
    ///
    /// - Returns: An iterator over the body's chunks.
    package func makeAsyncIterator() -> AsyncIterator {
        switch self.storage {
        case .bytes(let buffer):
            return AsyncIterator(state: .bytes(buffer.readableBytes > 0 ? buffer : nil))
        case .file(let region):
            return AsyncIterator(state: .file(region.makeIterator()))
        case .stream(let stream, _):
            return AsyncIterator(state: .stream(stream.makeIterator()))
        }
    }
}

/// A type-erased async sequence of buffers that may be iterated only once.
final class OneShotStream: Sendable {
    private let started: Mutex<Bool>
    private let makeNext: @Sendable () -> (() async throws -> ByteBuffer?)

    init<Bytes: AsyncSequence & Sendable>(_ sequence: Bytes) where Bytes.Element == ByteBuffer {
        self.started = Mutex(false)
        self.makeNext = {
            var iterator = sequence.makeAsyncIterator()
            return { try await iterator.next() }
        }
    }

    /// The iterator holds the producing closure in a class so the (non-`Sendable`) underlying iterator is owned by
    /// exactly one consumer.
    final class Iterator {
        private let nextChunk: (() async throws -> ByteBuffer?)?

        init(_ nextChunk: (() async throws -> ByteBuffer?)?) {
            self.nextChunk = nextChunk
        }

        func next() async throws -> ByteBuffer? {
            guard let nextChunk = self.nextChunk else {
                throw TransportError(
                    code: .bodyNotReplayable,
                    message: "a stream request body was iterated a second time; streams can be sent only once"
                )
            }
            return try await nextChunk()
        }
    }

    func makeIterator() -> Iterator {
        let first = self.started.withLock { started in
            defer { started = true }
            return !started
        }
        return Iterator(first ? self.makeNext() : nil)
    }
}
