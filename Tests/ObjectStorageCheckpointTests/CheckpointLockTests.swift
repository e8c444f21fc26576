//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageCheckpoint
import ObjectStorageTestSupport
import Synchronization
import Testing

@Suite("Checkpoint lock")
struct CheckpointLockTests {
    /// Runs util-linux `flock -n <file> true`: exit 0 if the lock was free, 1 if it is held.
    private func flockFromAnotherProcess(_ lockPath: String) throws -> Int32 {
        let flock = try ChildProcess(
            executable: "/usr/bin/flock",
            arguments: ["-n", lockPath, "true"],
            environment: [:],
            standardOutput: .discard,
            standardError: .discard
        )
        return flock.waitForExit().status
    }

    @Test func secondAcquireInTheSameProcessFails() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("file.dcp")
        let lock = try CheckpointLock.acquire(for: path)
        #expect(lock.isHeld)
        #expect(lock.lockPath == path + ".lock")
        let error = try #require(throws: CheckpointError.self) { try CheckpointLock.acquire(for: path) }
        #expect(error.code == .checkpointLocked)
        #expect(error.path == path)
        #expect(error.message.contains(path))
        #expect(error.message.contains("held by process \(ProcessInfo.processInfo.processIdentifier)"))

        lock.release()
        #expect(!lock.isHeld)
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
        let again = try CheckpointLock.acquire(for: path)
        again.release()
        again.release()  // idempotent
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func anotherProcessIsBlockedWhileHeld() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("file.ucp")
        let lock = try CheckpointLock.acquire(for: path)
        #expect(try flockFromAnotherProcess(lock.lockPath) == 1)
        lock.release()
        #expect(try flockFromAnotherProcess(lock.lockPath) == 0)
    }

    @Test func deinitReleases() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("file.dcp")
        do {
            let lock = try CheckpointLock.acquire(for: path)
            #expect(lock.isHeld)
        }
        let lock = try CheckpointLock.acquire(for: path)
        lock.release()
    }

    @Test func leftoverLockFileFromACrashIsReused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("file.dcp")
        try writeFile(path + ".lock", Array("4242\n".utf8))  // a holder that was SIGKILLed
        let lock = try CheckpointLock.acquire(for: path)
        #expect(lock.isHeld)
        lock.release()
    }

    @Test func missingDirectoryIsATypedError() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: CheckpointError.self) {
            try CheckpointLock.acquire(for: directory.file("missing/file.dcp"))
        }
        #expect(error.code == .parentDirectoryMissing)
    }

    @Test func concurrentAcquirersNeverBothHold() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("contended.dcp")
        let holders = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<200 {
                        let lock: CheckpointLock
                        do {
                            lock = try CheckpointLock.acquire(for: path)
                        } catch let error as CheckpointError where error.code == .checkpointLocked {
                            continue  // another task holds it: the refusal this test expects
                        }
                        let now = holders.enter()
                        #expect(now == 1)
                        holders.leave()
                        lock.release()
                    }
                }
            }
            try await group.waitForAll()
        }
        // Any other failure was thrown; and the lock was taken, so the check above ran.
        #expect(holders.entries > 0)
    }
}

/// Counts concurrent holders, and how many times one entered.
final class Counter: Sendable {
    private let value = Mutex((holders: 0, entries: 0))

    /// How many times a holder entered.
    var entries: Int { value.withLock { $0.entries } }

    func enter() -> Int {
        value.withLock { value in
            value.holders += 1
            value.entries += 1
            return value.holders
        }
    }

    func leave() {
        value.withLock { $0.holders -= 1 }
    }
}
