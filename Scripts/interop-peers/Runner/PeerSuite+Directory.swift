//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Directory jobs against the peer: a small tree (nested directories, a Unicode name with a space, an empty file)
/// goes up with uploadDirectory and comes back with downloadDirectory byte for byte; syncs with nothing changed
/// transfer nothing; syncs with deletesExtraneous delete the one extra object or file.
extension PeerSuite {
    /// The tree, by relative name; the Unicode name is ASCII where the peer refuses signed non-ASCII keys.
    var directoryTree: [(name: String, bytes: [UInt8])] {
        [
            ("a.txt", Pattern.bytes(count: 10, seed: 1)),
            ("nested/c.bin", Pattern.bytes(count: 1, seed: 3)),
            ("nested/deeper/b.bin", Pattern.bytes(count: 70_000, seed: 2)),
            ("z/empty.bin", []),
            (
                self.peer.acceptsNonASCIISignedKeys ? "ünïcödé/日本語 name.txt" : "unicode/ascii name.txt",
                Pattern.bytes(count: 333, seed: 4)
            ),
        ]
    }

    /// The prefix: `tree/`, or `tree_` where the peer cannot verify a signed `/` in a listing's query.
    var directoryPrefix: String { "tree" + self.separator }

    /// uploadDirectory then downloadDirectory into a new directory: every object and file has the source's bytes.
    func directoryRoundTrip() async throws {
        let source = self.scratch("tree-up")
        for (name, bytes) in self.directoryTree {
            try Files.createParents(of: source + "/" + name)
            try Files.store(bytes, to: source + "/" + name)
        }
        let failures = DirectoryFailures()
        let up = try await self.client.uploadDirectory(
            source,
            bucket: self.bucket,
            prefix: self.directoryPrefix,
            events: failures.handler
        )
        try require(
            up.transferred == self.directoryTree.count && up.failed == 0 && up.skipped == 0,
            "uploadDirectory: \(up), expected \(self.directoryTree.count) transferred and complete; \(failures)"
        )
        for (name, bytes) in self.directoryTree {
            let (_, body) = try await self.get(self.directoryPrefix + name)
            try require(body == bytes, "object \(name): \(body.count) bytes that differ from the file's \(bytes.count)")
        }
        let target = self.scratch("tree-down")
        let down = try await self.client.downloadDirectory(
            bucket: self.bucket,
            prefix: self.directoryPrefix,
            to: target,
            events: failures.handler
        )
        try require(
            down.transferred == self.directoryTree.count && down.failed == 0 && down.skipped == 0,
            "downloadDirectory: \(down), expected \(self.directoryTree.count) transferred and complete; \(failures)"
        )
        for (name, bytes) in self.directoryTree {
            let body = try Files.load(target + "/" + name)
            try require(body == bytes, "file \(name): \(body.count) bytes that differ from the object's \(bytes.count)")
        }
    }

    /// A sync each way after the round trip transfers nothing: sizes match, and the times compare equal (an upload's
    /// Last-Modified is after the file's time; a download gets the object's Last-Modified).
    func directorySyncUnchanged() async throws {
        var options = DirectoryTransferOptions()
        options.comparison = .sizeAndModificationTime
        let up = try await self.client.uploadDirectory(
            self.scratch("tree-up"),
            bucket: self.bucket,
            prefix: self.directoryPrefix,
            options: options
        )
        try require(
            up.transferred == 0 && up.unchanged == self.directoryTree.count,
            "upload sync moved \(up.transferred), left \(up.unchanged) unchanged"
        )
        let down = try await self.client.downloadDirectory(
            bucket: self.bucket,
            prefix: self.directoryPrefix,
            to: self.scratch("tree-down"),
            options: options
        )
        try require(
            down.transferred == 0 && down.unchanged == self.directoryTree.count,
            "download sync moved \(down.transferred), left \(down.unchanged) unchanged"
        )
    }

    /// A sync with deletesExtraneous removes an object the directory lacks (upload) and a file the prefix lacks
    /// (download), and transfers nothing else.
    func directorySyncDeletes() async throws {
        var options = DirectoryTransferOptions()
        options.comparison = .sizeAndModificationTime
        options.deletesExtraneous = true
        try await self.put(self.directoryPrefix + "nested/extra-object.bin", Pattern.bytes(count: 5))
        let up = try await self.client.uploadDirectory(
            self.scratch("tree-up"),
            bucket: self.bucket,
            prefix: self.directoryPrefix,
            options: options
        )
        try require(up.transferred == 0 && up.deleted == 1, "upload sync: \(up), expected 0 moved and 1 deleted")
        try await requireThrows(ServiceError.self, "HEAD of the deleted object") {
            _ = try await self.client.headObject(
                bucket: self.bucket,
                key: self.directoryPrefix + "nested/extra-object.bin"
            )
        } where: {
            $0.statusCode == 404
        }

        let target = self.scratch("tree-down")
        try Files.store(Pattern.bytes(count: 7), to: target + "/nested/deeper/extra-file.bin")
        let down = try await self.client.downloadDirectory(
            bucket: self.bucket,
            prefix: self.directoryPrefix,
            to: target,
            options: options
        )
        try require(
            down.transferred == 0 && down.deleted == 1,
            "download sync: \(down), expected 0 moved and 1 deleted"
        )
        try require(access(target + "/nested/deeper/extra-file.bin", F_OK) != 0, "the extra file is still there")
        for (name, bytes) in self.directoryTree {
            try require(try Files.load(target + "/" + name) == bytes, "file \(name) changed after the sync")
        }
    }
}

/// The failed or skipped objects a directory job reported, for a check's failure message.
final class DirectoryFailures: Sendable, CustomStringConvertible {
    private let reasons = Mutex<[String]>([])

    /// The job's event handler.
    var handler: @Sendable (DirectoryTransferEvent) -> Void {
        { event in
            let reason: String
            switch event {
            case .transferFailed(let name, let error), .deletionFailed(let name, let error):
                reason = "failed \(name): \(error)"
            case .skipped(let name, let why):
                reason = "skipped \(name): \(why)"
            case .transferred, .deleted, .progress:
                return
            }
            self.reasons.withLock { $0.append(reason) }
        }
    }

    var description: String {
        self.reasons.withLock { $0.isEmpty ? "no failure reported" : $0.joined(separator: "; ") }
    }
}

extension Files {
    /// Creates the directories above `path` that are missing.
    static func createParents(of path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/").dropLast() {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw CheckFailure("cannot create \(current): errno \(errno)")
            }
        }
    }
}
