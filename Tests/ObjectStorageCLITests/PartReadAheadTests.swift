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
///
/// The side that waits runs on a ``SteppedExecutor``: after `runUntilIdle()` it has finished or is waiting, so
/// each check sees where it stopped without a sleep. (A bug that left a side waiting forever hangs the test until
/// its time limit.)
@Suite("cp URL -: a part's read-ahead", .timeLimit(.minutes(1)))
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
        let executor = SteppedExecutor()
        let producer = Task(executorPreference: executor) {
            for byte: UInt8 in 1...4 {
                try await readAhead.send(Self.block(byte))
                sent.withLock { $0 += 1 }
            }
            readAhead.finish()
        }
        // 20 bytes wait after the second block: its send does not return while nobody reads.
        executor.runUntilIdle()
        #expect(sent.withLock { $0 } == 1)
        var seen: [UInt8] = []
        for taken in 1...3 {
            // A block is waiting, so this returns at once; taking it lets the producer's send return, and the
            // next one wait again at the limit.
            let block = try await readAhead.next()
            seen.append(block?.getInteger(at: 0) ?? 0)
            #expect(sent.withLock { $0 } == taken)
            executor.runUntilIdle()
            #expect(sent.withLock { $0 } == taken + 1)
        }
        while let block = try await readAhead.next() { seen.append(block.getInteger(at: 0) ?? 0) }
        try await producer.value
        #expect(seen == [1, 2, 3, 4])
        #expect(sent.withLock { $0 } == 4)
    }

    @Test("cancelling a waiting producer or consumer wakes it with CancellationError")
    func cancellationWakesEitherSide() async throws {
        let executor = SteppedExecutor()
        let full = PartReadAhead(limit: 10)
        let returned = Mutex(false)
        let producer = Task(executorPreference: executor) {
            try await full.send(Self.block(1))
            returned.withLock { $0 = true }
        }
        // Its block fills the read-ahead: the producer waits in `send`, and only cancellation can wake it.
        executor.runUntilIdle()
        #expect(!returned.withLock { $0 })
        producer.cancel()
        executor.runUntilIdle()
        await #expect(throws: CancellationError.self) { try await producer.value }

        let empty = PartReadAhead(limit: 10)
        let consumer = Task(executorPreference: executor) { try await empty.next() }
        // Nothing was sent: the consumer waits in `next`.
        executor.runUntilIdle()
        consumer.cancel()
        executor.runUntilIdle()
        await #expect(throws: CancellationError.self) { try await consumer.value }
    }
}
