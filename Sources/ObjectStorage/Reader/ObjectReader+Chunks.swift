//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import NIOCore
import ObjectStorageTransport
import Synchronization

extension ObjectReader {
    /// The object's bytes from `offset` to the end, as they arrive.
    ///
    /// Each GET is pinned like a read and bounded: the first asks for 1 MiB, each next one for twice as much, up to
    /// ``Options/maximumReadAhead``. The body streams with back-pressure (a consumer that pauses pauses the
    /// download), so memory stays at a few network buffers whatever the object's size. A connection that breaks
    /// mid-body is resumed from the byte reached, up to three times per sequence.
    ///
    /// - Parameter offset: The first byte (0 by default); at or past the end, the sequence is empty.
    /// - Returns: The sequence (iterate once per iterator; each iterator sends its own GETs).
    public func chunks(from offset: Int64 = 0) -> Chunks {
        Chunks(reader: self, start: min(max(offset, 0), self.size))
    }

    /// The object's bytes from an offset, as they arrive: see ``ObjectReader/chunks(from:)``.
    public struct Chunks: AsyncSequence, Sendable {
        /// A buffer of bytes.
        public typealias Element = ByteBuffer

        let reader: ObjectReader
        let start: Int64

        /// Makes an iterator.
        ///
        /// - Returns: The iterator.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(reader: self.reader, position: self.start)
        }

        /// The iterator.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let reader: ObjectReader
            var position: Int64
            var window = 1024 * 1024
            var body: TransportResponse.Body.AsyncIterator?
            var bodyEnd: Int64 = 0
            var resumes = 0

            /// The next bytes, or `nil` at the end of the object.
            ///
            /// - Returns: The next buffer.
            /// - Throws: As ``ObjectReader/read(at:count:)``.
            public mutating func next() async throws -> ByteBuffer? {
                while self.position < self.reader.size {
                    if self.position >= self.reader.tailStart {
                        let tail = self.reader.tail.getSlice(
                            at: Int(self.position - self.reader.tailStart),
                            length: Int(self.reader.size - self.position)
                        )
                        self.position = self.reader.size
                        return tail
                    }
                    if self.body == nil {
                        try await self.open()
                    }
                    do {
                        if let chunk = try await self.body?.next() {
                            guard Int64(chunk.readableBytes) <= self.bodyEnd - self.position else {
                                throw ObjectStorageError.invalidResponse("a ranged GET's body ran past its range")
                            }
                            self.position += Int64(chunk.readableBytes)
                            return chunk
                        }
                        self.body = nil
                        guard self.position == self.bodyEnd else {
                            throw TransportError(
                                code: .connectionClosed,
                                message: "a ranged GET's body ended at offset \(self.position) of \(self.bodyEnd)"
                            )
                        }
                    } catch let error as TransportError where error.code != .cancelled && self.resumes < 3 {
                        // Resume from the byte reached with a new pinned GET.
                        self.body = nil
                        self.resumes += 1
                        if Task.isCancelled { throw CancellationError() }
                        _ = error
                    } catch {
                        if ObjectStorageClient.isCancellation(error) { throw CancellationError() }
                        throw error
                    }
                }
                return nil
            }

            /// Opens the next GET: from the position to the window's end (or the cached tail's start).
            private mutating func open() async throws {
                let (end, overflow) = self.position.addingReportingOverflow(Int64(self.window))
                let range = self.position..<(overflow ? self.reader.tailStart : Swift.min(end, self.reader.tailStart))
                let reader = self.reader
                reader.state.withLock { $0.requests += 1 }
                let response = try await reader.pinned {
                    try await reader.client.send(reader.pinnedGET(range), logger: reader.logger) { response in
                        try reader.check(response, for: range)
                        return response
                    }
                }
                self.body = response.body.makeAsyncIterator()
                self.bodyEnd = range.upperBound
                self.window = Swift.min(self.window * 2, Swift.max(reader.options.maximumReadAhead, 1024 * 1024))
            }
        }
    }
}
