//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// The client's classification of a transport failure, for loops that send with a transport alone.
func transportDecision(_ error: any Error) -> RetryDecision {
    (error as? TransportError)?.retryDecision ?? .doNotRetry
}

@Suite("The retry policy's loop")
struct RetryTests {
    let logger = Logger.scanning

    struct Damaged: Error {}

    @Test func runRetriesWhatTheClassifierMarks() async throws {
        let policy = RetryPolicy.exponentialJitter(maxAttempts: 3)
        let attempts = AttemptLog()
        let classify: (any Error) -> RetryDecision = { $0 is Damaged ? .retry : .doNotRetry }
        let value = try await policy.run(clock: RecordingClock(), logger: logger, classify: classify) { attempt in
            attempts.append(attempt)
            if attempt < 3 { throw Damaged() }
            return "ok"
        }
        #expect(value == "ok")
        #expect(attempts.values == [1, 2, 3])
    }

    @Test func theLastErrorSaysHowManyAttemptsWereMade() async throws {
        let policy = RetryPolicy.exponentialJitter(maxAttempts: 3)
        let error = await #expect(throws: TransportError.self) {
            try await policy.run(clock: RecordingClock(), logger: logger, classify: transportDecision) { _ -> Int in
                throw TransportError(code: .transferStalled, message: "60 bytes in 60 s")
            }
        }
        #expect(error?.attempts == 3)
        #expect(error?.elapsed != nil)
    }

    /// An attempt that moved enough bytes the next one keeps restores the budget (six such attempts, then the three
    /// of a fresh budget); one that moved fewer (a peer sending a few bytes per attempt) does not, so such a peer
    /// runs out of attempts after the first three.
    @Test(arguments: [(perAttempt: Int64(64 << 10), attempts: 9), (perAttempt: 60, attempts: 3)])
    func progressRestoresTheBudget(perAttempt: Int64, attempts expected: Int) async throws {
        let policy = RetryPolicy.exponentialJitter(maxAttempts: 3)
        let kept = Counter()
        let attempts = AttemptLog()
        let outcome = await #expect(throws: TransportError.self) {
            let keptBytes: () -> Int64 = { kept.value }
            _ = try await policy.run(
                clock: RecordingClock(),
                logger: logger,
                keptBytes: keptBytes,
                classify: transportDecision
            ) { attempt -> Int in
                attempts.append(attempt)
                // Each attempt moves its bytes, then the connection drops; after six attempts nothing moves.
                if attempt <= 6 { kept.add(perAttempt) }
                throw TransportError(code: .connectionClosed, message: "reset")
            }
        }
        #expect(attempts.values.count == expected)
        #expect(outcome?.attempts == expected)
    }

    @Test func cancellationDuringBackoffPropagates() async throws {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(3600), maxDelay: .seconds(3600))
        var generator = SeededGenerator(seed: 1)
        let task = Task {
            try await policy.run(logger: logger, using: &generator, classify: transportDecision) { _ -> Int in
                throw TransportError(code: .connectionClosed, message: "reset")
            }
        }
        task.cancel()
        let outcome = await task.result
        #expect(throws: CancellationError.self) { try outcome.get() }
    }
}

final class AttemptLog: Sendable {
    private let storage = MutexBox<[Int]>([])
    func append(_ value: Int) { self.storage.mutate { $0.append(value) } }
    var values: [Int] { self.storage.mutate { $0 } }
}

/// A byte count shared with the loop's `keptBytes`.
final class Counter: Sendable {
    private let storage = MutexBox<Int64>(0)
    var value: Int64 { self.storage.mutate { $0 } }
    func add(_ count: Int64) { self.storage.mutate { $0 += count } }
}
