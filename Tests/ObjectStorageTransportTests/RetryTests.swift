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

@Suite("The retry policy's loop")
struct RetryTests {
    let logger = Logger.scanning

    @Test func runRetriesCallerErrorsMarkedByClassifier() async throws {
        struct IntegrityMismatch: Error {}
        var policy = RetryPolicy.exponentialJitter(maxAttempts: 3)
        policy.classifier = { failure in
            if case .error(let error) = failure, error is IntegrityMismatch { return .retry }
            return nil
        }
        let attempts = AttemptLog()
        let value = try await policy.run(clock: RecordingClock(), logger: logger) { attempt in
            attempts.append(attempt)
            if attempt < 3 { throw IntegrityMismatch() }
            return "ok"
        }
        #expect(value == "ok")
        #expect(attempts.values == [1, 2, 3])
    }

    @Test func cancellationDuringBackoffPropagates() async throws {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(3600), maxDelay: .seconds(3600))
        var generator = SeededGenerator(seed: 1)
        let task = Task {
            try await policy.run(logger: logger, using: &generator) { _ -> Int in
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
