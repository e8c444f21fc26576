//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageCheckpoint
import Testing

@Suite("Directory job manifest: append-only, torn last line dropped, anything else refused")
struct DirectoryManifestTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)").path
    }

    @Test("append says when syncInterval records wait for a sync, and a sync starts the count again")
    func appendSaysWhenToSync() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let manifest = try DirectoryManifest(path: path, identity: "download\n/data\nbucket")
        defer { manifest.close(removing: true) }
        let record = DirectoryManifest.Record(name: "n", size: 1, stamp: "s")
        let due = try (1...DirectoryManifest.syncInterval).map { _ in try manifest.append(record) }
        #expect(due.filter { $0 }.count == 1)
        #expect(due.last == true)
        #expect(try manifest.append(record))
        try manifest.sync()
        #expect(try !manifest.append(record))
    }

    @Test("a sync begun beside later appends flushes on another thread, and the count starts again when it begins")
    func syncBesideAppends() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let manifest = try DirectoryManifest(path: path, identity: "download\n/data\nbucket")
        for index in 0..<10 { try manifest.append(.init(name: "before \(index)", size: 1, stamp: "s")) }
        let pending = manifest.beginSync()
        let flush = Task.detached { try pending.run() }
        let due = try (1..<DirectoryManifest.syncInterval).map { index in
            try manifest.append(.init(name: "after \(index)", size: 2, stamp: "s"))
        }
        try await flush.value
        #expect(!due.contains(true))
        #expect(try manifest.append(.init(name: "last", size: 3, stamp: "s")))
        manifest.close(removing: false)

        let reopened = try DirectoryManifest(path: path, identity: "download\n/data\nbucket")
        defer { reopened.close(removing: true) }
        #expect(reopened.finished.count == 10 + DirectoryManifest.syncInterval)
        #expect(reopened.finishedRecord(for: "before 9")?.size == 1)
        #expect(reopened.finishedRecord(for: "after 255")?.size == 2)
        #expect(reopened.finishedRecord(for: "last")?.size == 3)
    }

    @Test("records survive a reopen; a line cut short by a crash is dropped and truncated away")
    func tornLastLine() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let names = ["a/b.txt", "tab\there", "line\nbreak", "100%", "e\u{301}", "\u{E9}"]
        do {
            let manifest = try DirectoryManifest(path: path, identity: "upload\n/data\nbucket")
            for (index, name) in names.enumerated() {
                try manifest.append(.init(name: name, size: Int64(index), stamp: "stamp \(index)"))
            }
            manifest.close(removing: false)
        }
        let intact = try Data(contentsOf: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("7\tstamp\tcut sho".utf8))
        try handle.close()

        let manifest = try DirectoryManifest(path: path, identity: "upload\n/data\nbucket")
        #expect(manifest.finished.count == names.count)
        for (index, name) in names.enumerated() {
            let record = DirectoryManifest.Record(name: name, size: Int64(index), stamp: "stamp \(index)")
            #expect(manifest.finishedRecord(for: name) == record)
        }
        #expect(manifest.finishedRecord(for: "cut sho") == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == intact)
        manifest.close(removing: true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("another job's manifest, a record that does not parse, and a second opener are refused")
    func refusals() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let manifest = try DirectoryManifest(path: path, identity: "job one")
        #expect { _ = try DirectoryManifest(path: path, identity: "job one") } throws: { error in
            (error as? CheckpointError)?.code == .checkpointLocked
        }
        try manifest.append(.init(name: "x", size: 1, stamp: "s"))
        manifest.close(removing: false)
        #expect { _ = try DirectoryManifest(path: path, identity: "job two") } throws: { error in
            (error as? CheckpointError)?.code == .invalidCheckpoint
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not a number\ts\tname\n".utf8))
        try handle.close()
        #expect { _ = try DirectoryManifest(path: path, identity: "job one") } throws: { error in
            (error as? CheckpointError)?.code == .invalidCheckpoint
        }
    }
}
