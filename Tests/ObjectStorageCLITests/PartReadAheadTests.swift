//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import Synchronization
import Testing

@testable import ObjectStorageCLI

/// `PartReadAhead`: the bounded hand-over between a part's GET and standard output in `cp URL -`.
@Suite("cp URL -: a part's read-ahead")
struct PartReadAheadTests {
    struct Failure: Error, Equatable {}

    static func block(_ byte: UInt8, count: Int = 10) -> ByteBuffer {
        ByteBuffer(bytes: [UInt8](repeating: byte, count: count))
    }

    @Test("blocks come out in order, then the end or the producer's error")
    func blocksInOrderThenTheEnd() async throws {
        let finished = PartReadAhead(limit: 1_000)
        for byte: UInt8 in 1...3 { try await finished.send(Self.block(byte)) }
        finished.finish()
        var seen: [UInt8] = []
        while let block = try await finished.next() { seen.append(block.getInteger(at: 0) ?? 0) }
        #expect(seen == [1, 2, 3])
        #expect(try await finished.next() == nil)

        let failed = PartReadAhead(limit: 1_000)
        try await failed.send(Self.block(7))
        failed.finish(throwing: Failure())
        #expect(try await failed.next() == Self.block(7))
        await #expect(throws: Failure.self) { try await failed.next() }
    }

    @Test("a producer at the limit waits until the consumer takes a block")
    func theProducerWaitsAtTheLimit() async throws {
        let readAhead = PartReadAhead(limit: 20)
        let sent = Mutex(0)
        let producer = Task {
            for byte: UInt8 in 1...4 {
                try await readAhead.send(Self.block(byte))
                sent.withLock { $0 += 1 }
            }
            readAhead.finish()
        }
        // 20 bytes wait after the second block: its send does not return while nobody reads.
        try await Task.sleep(for: .milliseconds(200))
        #expect(sent.withLock { $0 } == 1)
        var seen: [UInt8] = []
        while let block = try await readAhead.next() { seen.append(block.getInteger(at: 0) ?? 0) }
        try await producer.value
        #expect(seen == [1, 2, 3, 4])
        #expect(sent.withLock { $0 } == 4)
    }

    @Test("cancelling a waiting producer or consumer wakes it with CancellationError")
    func cancellationWakesEitherSide() async throws {
        let full = PartReadAhead(limit: 10)
        let producer = Task { try await full.send(Self.block(1)) }
        try await Task.sleep(for: .milliseconds(100))
        producer.cancel()
        await #expect(throws: CancellationError.self) { try await producer.value }

        let empty = PartReadAhead(limit: 10)
        let consumer = Task { try await empty.next() }
        try await Task.sleep(for: .milliseconds(100))
        consumer.cancel()
        await #expect(throws: CancellationError.self) { try await consumer.value }
    }
}
