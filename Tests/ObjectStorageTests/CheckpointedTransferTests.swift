//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import Synchronization
import Testing

@testable import ObjectStorage

/// The shared transfer core, driven by an in-memory strategy: the contract a third direction (a multipart copy)
/// relies on, without a server.
@Suite("CheckpointedTransfer: the core both transfers share")
struct CheckpointedTransferTests {
    @Test("every part lands and is durable before finish, within the concurrency cap")
    func partsLandWithinTheCap() async throws {
        let scratch = try ScratchDirectory()
        let strategy = MemoryStrategy(checkpointPath: scratch.file("t.cp"), concurrency: 3)
        let result = try await strategy.run()
        #expect(result.partsTransferred == 8 && result.bytesTransferred == 80 && result.restarts == 0)
        let log = strategy.log.read()
        #expect(log.saved.last == Set(0..<8))
        #expect(log.mostUnsaved <= 3)
    }

    @Test("a failed round keeps every landed part in the checkpoint; nothing is abandoned")
    func pauseKeepsLandedParts() async throws {
        let scratch = try ScratchDirectory()
        let strategy = MemoryStrategy(checkpointPath: scratch.file("t.cp"), concurrency: 2) { _, part in
            if part == 5 { throw Failure.keep }
        }
        await #expect(throws: Failure.keep) { try await strategy.run() }
        let log = strategy.log.read()
        #expect(!log.recorded.isEmpty)
        #expect(log.saved.last == log.recorded)
        #expect(log.abandoned.isEmpty)
    }

    @Test("without a checkpoint a failed round is abandoned")
    func noCheckpointAbandons() async throws {
        let strategy = MemoryStrategy(checkpointPath: nil, concurrency: 2) { _, part in
            if part == 1 { throw Failure.keep }
        }
        await #expect(throws: Failure.keep) { try await strategy.run() }
        #expect(strategy.log.read().abandoned == [false])
        #expect(strategy.log.read().saved.isEmpty)
    }

    @Test("a remote change discards the round and starts over, up to the limit")
    func restartsUpToTheLimit() async throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("t.cp")
        let restarted = MemoryStrategy(checkpointPath: path, concurrency: 2) { round, part in
            if round == 0 && part == 3 { throw Failure.restart }
        }
        let result = try await restarted.run()
        #expect(result.restarts == 1 && result.partsTransferred == 8)
        #expect(restarted.log.read().abandoned == [true])
        #expect(restarted.log.read().restartFlags == [false, true])

        let exhausted = MemoryStrategy(checkpointPath: path, concurrency: 2, maximumRestarts: 0) { _, part in
            if part == 3 { throw Failure.restart }
        }
        await #expect(throws: Failure.exhausted) { try await exhausted.run() }
    }

    @Test("untrustworthy work is discarded with its checkpoint")
    func discardRemovesTheCheckpoint() async throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("t.cp")
        try Data("saved".utf8).write(to: URL(fileURLWithPath: path))
        let strategy = MemoryStrategy(checkpointPath: path, concurrency: 2) { _, part in
            if part == 6 { throw Failure.discard }
        }
        await #expect(throws: Failure.discard) { try await strategy.run() }
        #expect(strategy.log.read().abandoned == [true])
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("work found untrustworthy at the end is discarded with its checkpoint, whatever the strategy keeps")
    func untrustworthyWorkIsDiscarded() async throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("t.cp")
        try Data("saved".utf8).write(to: URL(fileURLWithPath: path))
        var strategy = MemoryStrategy(checkpointPath: path, concurrency: 2)
        // The strategy would keep a `Failure.keep`; wrapped, it is discarded and thrown unwrapped.
        strategy.finishFault = { throw UntrustworthyWork(underlying: Failure.keep) }
        await #expect(throws: Failure.keep) { try await strategy.run() }
        #expect(strategy.log.read().abandoned == [true])
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

private enum Failure: Error {
    case keep, restart, discard, exhausted
}

/// Eight parts of ten bytes, held in memory.
private struct MemoryCheckpoint: TransferCheckpoint {
    let log: MemoryLog
    var done: Set<Int> = []

    var filePath: String { "/memory" }
    var objectSize: Int64 { 80 }
    var objectRange: Range<Int64> { 0..<80 }
    var totalBytes: Int64 { 80 }
    var bytesCompleted: Int64 { Int64(done.count) * 10 }
    var partSize: Int64 { 10 }
    var partCount: Int { 8 }
    var completedPartCount: Int { done.count }
    var missingParts: [Int] { (0..<8).filter { !done.contains($0) } }
    var isMultipart: Bool { true }

    mutating func record(_ part: Int) throws {
        done.insert(part)
        log.update { $0.recorded.insert(part) }
    }
}

/// What the core asked of a ``MemoryStrategy``.
private final class MemoryLog: Sendable {
    struct Entries {
        var round = -1
        var restartFlags: [Bool] = []
        var started: Set<Int> = []
        /// The parts the core recorded in the checkpoint.
        var recorded: Set<Int> = []
        var saved: [Set<Int>] = []
        var abandoned: [Bool] = []
        /// The most parts ever started but not yet in a save (in flight, or landed and not durable).
        var mostUnsaved = 0
    }

    private let entries = Mutex(Entries())

    @discardableResult
    func update<Result: Sendable>(_ body: (inout Entries) -> Result) -> Result {
        entries.withLock { body(&$0) }
    }

    func read() -> Entries { update { $0 } }
}

private struct MemoryStrategy: TransferStrategy {
    let checkpointPath: String?
    let concurrency: Int
    var maximumRestarts = 2
    var progress: TransferProgressHandler? { nil }
    var logger: Logger { Logger(label: "CheckpointedTransferTests") }
    let log = MemoryLog()
    var fault: @Sendable (_ round: Int, _ part: Int) throws -> Void = { _, _ in }
    var finishFault: @Sendable () throws -> Void = {}

    func prepare(restarts: inout Int, isRestart: Bool) async throws -> TransferStart<Self> {
        log.update { log in
            log.round += 1
            log.restartFlags.append(isRestart)
            log.started = []
            log.recorded = []
        }
        return .parts(MemoryCheckpoint(log: log), ())
    }

    func transfer(
        part: Int,
        of checkpoint: MemoryCheckpoint,
        in session: Void,
        reporter: TransferProgressReporter
    ) async throws -> Int {
        let round = log.update { log in
            log.started.insert(part)
            log.mostUnsaved = max(log.mostUnsaved, log.started.subtracting(log.saved.last ?? []).count)
            return log.round
        }
        try await Task.sleep(for: .milliseconds(part % 3))
        try fault(round, part)
        reporter.add(10)
        return part
    }

    func save(_ checkpoint: MemoryCheckpoint, in session: Void, to path: String) throws {
        log.update { $0.saved.append(checkpoint.done) }
    }

    func finish(_ checkpoint: MemoryCheckpoint, in session: Void) async throws -> TransferCompletion {
        try finishFault()
        return TransferCompletion(verification: .none(reason: "in memory"))
    }

    func failure(_ error: any Error, restarts: Int) -> TransferFailure {
        switch error as? Failure {
        case .restart: return .restart(reason: "changed", exhausted: Failure.exhausted)
        case .discard: return .discard
        default: return .keep
        }
    }

    func abandon(_ checkpoint: MemoryCheckpoint, in session: Void, discarded: Bool) async {
        log.update { $0.abandoned.append(discarded) }
    }
}
