//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import ObjectStorageTransport
import Synchronization

/// Counts the bytes of one upload request (a part, or a single PUT) as they are read from the file for
/// sending, so progress moves within a part instead of one whole part at a time.
///
/// Each attempt sends a fresh ``body(path:range:)``; ``rewind()`` takes back what a failed attempt
/// counted (the reporter keeps its high-water mark, so reports still never go backwards).
final class UploadProgressCounter: Sendable {
    private let reporter: TransferProgressReporter
    private let counted = Atomic<Int64>(0)

    init(reporter: TransferProgressReporter) {
        self.reporter = reporter
    }

    /// A one-shot body over `range` of the file at `path` that counts its chunks as they are read.
    func body(path: String, range: Range<Int64>) -> RequestBody {
        let length = range.upperBound - range.lowerBound
        let file = TransportRequest.Body.file(path: path, offset: range.lowerBound, length: length)
        return .stream(CountingSequence(base: file, counter: self), length: length)
    }

    /// Runs `send` under the client's retry policy, each attempt with a fresh counting body.
    func send<Result: Sendable>(
        client: ObjectStorageClient,
        path: String,
        range: Range<Int64>,
        logger: Logger,
        _ send: (RequestBody) async throws -> Result
    ) async throws -> Result {
        try await client.withRetries(replayable: true, logger: logger) { _ in
            self.rewind()
            do {
                return try await send(self.body(path: path, range: range))
            } catch {
                self.rewind()
                throw error
            }
        }
    }

    fileprivate func add(_ count: Int) {
        self.counted.add(Int64(count), ordering: .relaxed)
        self.reporter.add(Int64(count))
    }

    /// Takes back the bytes counted by an attempt that did not succeed.
    func rewind() {
        let count = self.counted.exchange(0, ordering: .relaxed)
        if count != 0 { self.reporter.remove(count) }
    }
}

/// Passes buffers through unchanged while counting them.
private struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: TransportRequest.Body
    let counter: UploadProgressCounter

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: TransportRequest.Body.AsyncIterator
        let counter: UploadProgressCounter

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await self.base.next() else { return nil }
            self.counter.add(chunk.readableBytes)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: self.base.makeAsyncIterator(), counter: self.counter)
    }
}
