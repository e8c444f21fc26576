//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageCheckpoint
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// Downloading a listing into a directory never writes outside it.
@Suite("Local paths for listed keys", .timeLimit(.minutes(2)))
struct LocalPathsTests {
    static let unsafeKeys: [String] = [
        "../escape.txt", "a/../../escape.txt", "a/..", "/etc/passwd", "a\\..\\..\\win.txt", "a\u{0}b", "", "a//b",
        "./a", "a/./b", "tab\there", "line\nbreak", String(repeating: "n", count: 256),
    ]

    @Test("unsafe keys are refused with unsafePath", arguments: unsafeKeys)
    func unsafe(_ key: String) {
        #expect {
            _ = try LocalPaths.path(forKey: key, under: "/data/out")
        } throws: { error in
            (error as? ObjectStorageError)?.code == .unsafePath
        }
    }

    @Test("safe keys map under the directory, prefix removed")
    func safe() throws {
        #expect(try LocalPaths.path(forKey: "a/b.txt", under: "/data/out") == "/data/out/a/b.txt")
        #expect(try LocalPaths.path(forKey: "p/x/y", removingPrefix: "p/", under: "/data/out/") == "/data/out/x/y")
        #expect(try LocalPaths.path(forKey: "..hidden/…/ok", under: "/d") == "/d/..hidden/…/ok")
        #expect(throws: ObjectStorageError.self) {
            try LocalPaths.path(forKey: "q/x", removingPrefix: "p/", under: "/d")
        }
        #expect(LocalPaths.isDirectoryMarker("dir/"))
    }

    @Test("a symbolic link inside the directory is not followed")
    func symbolicLink() throws {
        let scratch = try Scratch()
        let outside = try Scratch()
        let directory = scratch.file("out")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: outside.path)
        let root = try DirectoryHandle.open(directory)
        let path = try LocalPaths.path(forKey: "link/sub/file.txt", under: directory)
        #expect {
            try LocalPaths.destination(of: path, under: root, creating: true)
        } throws: { error in
            (error as? ObjectStorageError)?.code == .unsafePath
        }
        #expect(outside.listing() == ["existing.bin"])
        let fine = try LocalPaths.path(forKey: "new/deeper/file.txt", under: directory)
        let destination = try LocalPaths.destination(of: fine, under: root, creating: true)
        #expect(destination.path == directory + "/new/deeper/file.txt")
        #expect(FileManager.default.fileExists(atPath: directory + "/new/deeper"))
    }

    @Test("a key whose local path would pass PATH_MAX is refused before anything is created")
    func pathTooLong() throws {
        let component = String(repeating: "d", count: 250)
        let key = Array(repeating: component, count: 20).joined(separator: "/")
        #expect {
            _ = try LocalPaths.path(forKey: key, under: "/data/out")
        } throws: { error in
            let error = error as? ObjectStorageError
            return error?.code == .unsafePath && error?.message.contains("PATH_MAX") == true
        }
        // The longest key that fits: components of 200 bytes and a shorter last one, `/d/` + key = the limit.
        let budget = LocalPaths.maximumPathLength - "/d/".utf8.count
        let full = (budget + 1) / 201
        var parts = Array(repeating: String(repeating: "e", count: 200), count: full)
        let rest = budget - (201 * full - 1)
        if rest > 1 { parts.append(String(repeating: "e", count: rest - 1)) }
        let longest = parts.joined(separator: "/")
        #expect(longest.utf8.count == budget)
        #expect(try LocalPaths.path(forKey: longest, under: "/d").utf8.count == LocalPaths.maximumPathLength)
        #expect(throws: ObjectStorageError.self) { try LocalPaths.path(forKey: longest + "e", under: "/d") }
    }

    @Test("objstore cp --recursive downloads safe keys, skips unsafe ones, writes nothing outside")
    func recursiveDownload() async throws {
        let fixture = try await ServerFixture.start()
        let scratch = try Scratch()
        do {
            let client = try fixture.client(.s3)
            try await client.createBucket(bucket: "tree")
            let keys = [
                "ok.txt", "sub/ok2.txt", "../escape.txt", "sub/../../escape2.txt", "/abs.txt",
                "win\\..\\..\\escape3.txt", "dir/", "a//b.txt", "tab\there.txt",
            ]
            for key in keys {
                try await client.putObject(PutObjectRequest(bucket: "tree", key: key, body: .bytes(Array(key.utf8))))
            }
            let directory = scratch.file("inner/out")
            let result = try await CLIProcess.run(
                ["cp", "--recursive", "s3://tree", directory, "--endpoint", fixture.endpoint],
                environment: CLIProcess.isolatedEnvironment(TestSecrets.s3Environment)
            )
            #expect(result.status == 2, "\(result.standardError)")
            #expect(result.standardError.contains("cp: 2 downloaded (17 B), 6 skipped"))
            #expect(
                result.standardError.contains(
                    "cp: skipped '../escape.txt': Key '../escape.txt' has a '.' or '..' component."
                )
            )
            #expect(result.standardError.contains("cp: skipped 'tab\\there.txt'"))
            #expect(result.standardError.contains("no manifest"), "the home directory cannot hold one")
            #expect(!result.standardError.contains("unsafePath"), "no enum case name in a message")
            #expect(FileManager.default.contents(atPath: directory + "/ok.txt") == Data("ok.txt".utf8))
            #expect(FileManager.default.contents(atPath: directory + "/sub/ok2.txt") == Data("sub/ok2.txt".utf8))
            #expect(
                scratch.listing() == [
                    "existing.bin", "inner", "inner/out", "inner/out/ok.txt", "inner/out/sub",
                    "inner/out/sub/ok2.txt",
                ]
            )
            #expect(!FileManager.default.fileExists(atPath: "/abs.txt"))

            let prefixed = try await CLIProcess.run(
                ["cp", "--recursive", "s3://tree/sub", scratch.file("prefixed"), "--endpoint", fixture.endpoint],
                environment: CLIProcess.isolatedEnvironment(TestSecrets.s3Environment)
            )
            #expect(prefixed.status == 2, "\(prefixed.standardError)")
            #expect(prefixed.standardError.contains("cp: 1 downloaded (11 B), 1 skipped"))
            #expect(FileManager.default.contents(atPath: scratch.file("prefixed/ok2.txt")) == Data("sub/ok2.txt".utf8))
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }
}
