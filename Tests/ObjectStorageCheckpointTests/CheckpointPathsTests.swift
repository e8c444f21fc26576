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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Checkpoint paths")
struct CheckpointPathsTests {
    @Test func defaultsSitBesideTheFile() throws {
        let directory = try TemporaryDirectory()
        let destination = directory.file("movie.mkv")
        #expect(try CheckpointPaths.download(destination: destination) == destination + ".dcp")
        #expect(try CheckpointPaths.downloadTempFile(destination: destination) == destination + ".part")
        #expect(try CheckpointPaths.upload(source: destination) == destination + ".ucp")
        #expect(CheckpointPaths.lockFile(for: destination + ".dcp") == destination + ".dcp.lock")
    }

    @Test func explicitPathOverridesTheDefault() throws {
        let directory = try TemporaryDirectory()
        let override = directory.file("state/custom.json")
        #expect(mkdir(directory.file("state"), 0o700) == 0)
        #expect(try CheckpointPaths.download(destination: directory.file("a.bin"), override: override) == override)
        #expect(
            try CheckpointPaths.upload(source: directory.file("a.bin"), override: directory.file("state/../x.ucp"))
                == directory.file("x.ucp")
        )
    }

    @Test func checkpointMayNotBeTheTransferredFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("data.bin")
        for attempt in [
            { try CheckpointPaths.download(destination: file, override: file) },
            { try CheckpointPaths.download(destination: file, override: directory.file("./data.bin")) },
            { try CheckpointPaths.download(destination: file, override: file + ".part") },
            { try CheckpointPaths.upload(source: file, override: file) },
            { try CheckpointPaths.upload(source: file, override: directory.path) },
        ] as [() throws -> String] {
            let error = try #require(throws: CheckpointError.self) { _ = try attempt() }
            #expect(error.code == .invalidPath)
        }
    }

    @Test func hardLinkToTheSourceIsRefused() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("data.bin")
        try writeFile(source, [1, 2, 3])
        #expect(link(source, directory.file("alias")) == 0)
        let error = try #require(throws: CheckpointError.self) {
            try CheckpointPaths.upload(source: source, override: directory.file("alias"))
        }
        #expect(error.code == .invalidPath)
    }

    @Test func missingParentDirectoryIsATypedErrorAndIsNotCreated() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: CheckpointError.self) {
            try CheckpointPaths.download(destination: directory.file("a.bin"), override: directory.file("nope/a.dcp"))
        }
        #expect(error.code == .parentDirectoryMissing)
        #expect(!FileManager.default.fileExists(atPath: directory.file("nope")))
        #expect(throws: CheckpointError.self) {
            try CheckpointPaths.download(destination: directory.file("nope/a.bin"))
        }
    }

    @Test func pathsAreMadeAbsoluteAndNormalised() throws {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(try CheckpointPaths.absolute("a/./b/../c") == (cwd == "/" ? "/a/c" : cwd + "/a/c"))
        #expect(try CheckpointPaths.absolute("//x//y") == "/x/y")
        #expect(throws: CheckpointError.self) { try CheckpointPaths.absolute("") }
        #expect(throws: CheckpointError.self) { try CheckpointPaths.absolute("dir/") }
        #expect(throws: CheckpointError.self) { try CheckpointPaths.absolute("/") }
    }
}
