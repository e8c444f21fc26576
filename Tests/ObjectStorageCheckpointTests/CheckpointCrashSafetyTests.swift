//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageCheckpoint
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Checkpoint crash safety")
struct CheckpointCrashSafetyTests {
    @Test func leftoverTemporaryFileFromACrashedSaveIsHarmless() throws {
        var fixture = try DownloadFixture()
        let store = CheckpointStore(logger: .scanning)
        try fixture.checkpoint.markPartCompleted(1, crc64: 3)
        try store.save(fixture.checkpoint, to: fixture.checkpointPath)
        // A save that died after writing half of its temporary file.
        let torn = Array(try readFile(fixture.checkpointPath).prefix(40))
        try writeFile(fixture.checkpointPath + ".tmp-1f2e3d4c", torn)
        try writeFile(fixture.checkpointPath + ".tmp-deadbeef", [])

        #expect(store.load(at: fixture.checkpointPath, expecting: fixture.expectation).checkpoint == fixture.checkpoint)
        try fixture.checkpoint.markPartCompleted(2, crc64: 4)
        try store.save(fixture.checkpoint, to: fixture.checkpointPath)
        #expect(store.load(at: fixture.checkpointPath, expecting: fixture.expectation).checkpoint == fixture.checkpoint)

        #expect(store.removeStaleTemporaryFiles(for: fixture.checkpointPath) == 2)
        #expect(try fixture.directory.names() == ["object.bin.dcp", "object.bin.part"])
    }

    @Test func leftoverTemporaryFileWithoutAnyCheckpointMeansMissing() throws {
        let fixture = try DownloadFixture()
        try writeFile(fixture.checkpointPath + ".tmp-0123", Array("{\"data\":{".utf8))
        #expect(
            CheckpointStore(logger: .scanning).load(at: fixture.checkpointPath, expecting: fixture.expectation).reason?
                .code == .missing
        )
    }

    @Test func readersAlwaysSeeTheOldOrTheNewCheckpointNeverAMix() async throws {
        var fixture = try DownloadFixture()
        let store = CheckpointStore(logger: .scanning)
        var old = fixture.checkpoint
        try old.markPartCompleted(0, crc64: 1)
        var new = fixture.checkpoint
        try new.markPartCompleted(0, crc64: 1)
        try new.markPartCompleted(1, crc64: UInt64.max)
        try new.markPartCompleted(2, crc64: 12_345_678_901_234)
        fixture.checkpoint = old
        try store.save(old, to: fixture.checkpointPath)

        let (oldState, newState) = (old, new)
        let path = fixture.checkpointPath
        let expectation = fixture.expectation
        let rounds = 300
        let (saved, outcomes) = try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask {
                for round in 0..<rounds {
                    try store.save(round.isMultiple(of: 2) ? newState : oldState, to: path)
                }
                return []
            }
            group.addTask {
                var seen = [String]()
                for _ in 0..<rounds {
                    switch store.load(at: path, expecting: expectation) {
                    case .loaded(let checkpoint) where checkpoint == oldState: seen.append("old")
                    case .loaded(let checkpoint) where checkpoint == newState: seen.append("new")
                    case .loaded: seen.append("other")
                    case .discarded(let reason, _): seen.append("discarded: \(reason)")
                    }
                }
                return seen
            }
            var all = [String]()
            for try await result in group { all += result }
            return (rounds, all)
        }
        #expect(saved == rounds)
        #expect(outcomes.count == rounds)
        #expect(outcomes.allSatisfy { $0 == "old" || $0 == "new" }, "\(Set(outcomes))")
        // Nothing but the final file and the temp data file remains.
        #expect(try fixture.directory.names() == ["object.bin.dcp", "object.bin.part"])
    }

    @Test func failedRenameCleansUpItsTemporaryFile() throws {
        let fixture = try UploadFixture()
        // A non-empty directory where the checkpoint should go: rename(2) must fail.
        #expect(mkdir(fixture.checkpointPath, 0o700) == 0)
        try writeFile(fixture.checkpointPath + "/keep", [1])
        let error = try #require(throws: CheckpointError.self) {
            try CheckpointStore(logger: .scanning).save(fixture.checkpoint, to: fixture.checkpointPath)
        }
        #expect(error.code == .fileSystem)
        #expect(error.message.contains("rename"))
        #expect(try fixture.directory.names() == ["backup.tar", "backup.tar.ucp"])
        #expect(try readFile(fixture.checkpointPath + "/keep") == [1])
    }

    @Test func failedSaveLeavesThePreviousCheckpointIntact() throws {
        let fixture = try UploadFixture()
        let store = CheckpointStore(logger: .scanning)
        // A checkpoint whose name is as long as the file system allows: the file itself fits, but
        // no `<name>.tmp-<random>` beside it does, so the save fails where it creates its temporary
        // file. Unlike a read-only directory, root cannot bypass ENAMETOOLONG.
        let nameMax = pathconf(fixture.directory.path, Int32(_PC_NAME_MAX))
        try #require(nameMax > 0)
        let name = String(repeating: "c", count: nameMax)
        let path = fixture.directory.file(name)
        let before = try CheckpointStore.encode(fixture.checkpoint)
        try writeFile(path, before)
        #expect(store.load(at: path, expecting: fixture.expectation).checkpoint == fixture.checkpoint)

        var changed = fixture.checkpoint
        try changed.recordPart(.init(number: 1, etag: "x", size: 8))
        let error = try #require(throws: CheckpointError.self) { try store.save(changed, to: path) }
        #expect(error.code == .fileSystem)
        #expect(error.message.contains("open("))
        #expect(error.message.contains("(errno \(ENAMETOOLONG))"))
        #expect(try readFile(path) == before)
        #expect(store.load(at: path, expecting: fixture.expectation).checkpoint == fixture.checkpoint)
        #expect(try fixture.directory.names() == ["backup.tar", name])
    }

    @Test func verifyCompletedPartsForgetsDamagedParts() throws {
        var fixture = try DownloadFixture()
        let bytes = DownloadFixture.objectBytes
        try writeFile(fixture.checkpoint.tempFilePath, bytes)
        for index in 0..<3 {
            let range = fixture.checkpoint.layout.localRange(ofPart: index)
            try fixture.checkpoint.markPartCompleted(
                index,
                crc64: CRC64.checksum(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
            )
        }
        #expect(try fixture.checkpoint.verifyCompletedParts() == [])
        // Flip one byte of part 1 on disk.
        var damaged = bytes
        damaged[9] ^= 0xFF
        try writeFile(fixture.checkpoint.tempFilePath, damaged)
        #expect(try fixture.checkpoint.verifyCompletedParts() == [1])
        #expect(fixture.checkpoint.missingParts == [1])
    }

    @Test func saveIntoAMissingDirectoryIsATypedError() throws {
        let fixture = try UploadFixture()
        let path = fixture.directory.file("no-such-dir/backup.tar.ucp")
        let error = try #require(throws: CheckpointError.self) {
            try CheckpointStore(logger: .scanning).save(fixture.checkpoint, to: path)
        }
        #expect(error.code == .parentDirectoryMissing)
        #expect(error.message.contains("no-such-dir"))
        #expect(!FileManager.default.fileExists(atPath: fixture.directory.file("no-such-dir")))
    }

    @Test func inconsistentCheckpointIsRefusedOnSave() throws {
        let fixture = try UploadFixture()
        var relative = fixture.checkpoint
        relative.identity.sourcePath = "backup.tar"
        let error = try #require(throws: CheckpointError.self) {
            try CheckpointStore(logger: .scanning).save(relative, to: fixture.checkpointPath)
        }
        #expect(error.code == .invalidCheckpoint)
        #expect(throws: CheckpointError.self) {
            try CheckpointStore(logger: .scanning).save(fixture.checkpoint, to: "relative/path.ucp")
        }
    }
}
