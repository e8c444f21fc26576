//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageTestSupport
import Testing

/// `cp -r` and `sync` with `--version-at TIME`: a prefix read as it was, downloaded or copied, as processes against
/// `objstore serve` in the three dialects.
struct VersionAtCommandTests {
    @Test(arguments: ObjectsDialect.all)
    func prefixAsItWas(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = scratch.path(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        func read(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }
        // Past the directory job's 8 MiB threshold: read by the part engine, pinned to the version too.
        let oldBig = (0..<(9 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let newBig = (0..<(9 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        // Compared apart from #expect, which would print 9 MiB on a mismatch.
        func holdsOldBig(_ path: String) -> Bool { read(path) == oldBig }

        try await cli.succeed(["mb", dialect.url("site")])
        try await cli.succeed(["versioning", dialect.url("site"), "enable"])
        for key in ["a", "b", "c"] {
            try await cli.succeed([
                "cp", try file("old-\(key)", Array("old \(key)".utf8)), dialect.url("site/p/\(key)"),
            ])
        }
        try await cli.succeed(["cp", try file("old-big", oldBig), dialect.url("site/p/big")])
        let then = try await RevertCommandTests.pointInTime()
        try await cli.succeed(["cp", try file("new-a", Array("new a".utf8)), dialect.url("site/p/a")])
        try await cli.succeed(["rm", dialect.url("site/p/b")])
        try await cli.succeed(["cp", try file("new-d", Array("new d".utf8)), dialect.url("site/p/d")])
        try await cli.succeed(["cp", try file("new-big", newBig), dialect.url("site/p/big")])

        let downloaded = scratch.path("then")
        let output = try await cli.succeed([
            "cp", "-r", dialect.url("site/p/"), downloaded, "--version-at", then, "--manifest", scratch.path("m1"),
        ])
        #expect(output.components(separatedBy: "download: ").count == 5, "\(output)")
        #expect(read(downloaded + "/a") == Array("old a".utf8))
        #expect(read(downloaded + "/b") == Array("old b".utf8))
        #expect(read(downloaded + "/c") == Array("old c".utf8))
        #expect(holdsOldBig(downloaded + "/big"))
        #expect(!FileManager.default.fileExists(atPath: downloaded + "/d"))

        // A sync --delete makes a directory the snapshot: the file of a key that did not exist then goes.
        let synced = scratch.path("synced")
        try await cli.succeed([
            "cp", "-r", dialect.url("site/p/"), synced, "--manifest", scratch.path("m2"),
        ])
        #expect(read(synced + "/d") == Array("new d".utf8))
        let sync = try await cli.succeed([
            "sync", dialect.url("site/p/"), synced, "--delete", "--version-at", then, "--manifest", scratch.path("m3"),
        ])
        #expect(sync.contains("delete: "), "\(sync)")
        #expect(!FileManager.default.fileExists(atPath: synced + "/d"))
        #expect(read(synced + "/a") == Array("old a".utf8))
        #expect(read(synced + "/b") == Array("old b".utf8))
        #expect(holdsOldBig(synced + "/big"))

        // A copy within the service reads the versions of then too.
        try await cli.succeed([
            "cp", "-r", dialect.url("site/p/"), dialect.url("site/restored/"), "--version-at", then,
            "--manifest", scratch.path("m4"),
        ])
        await #expect(try cli.succeed(["cat", dialect.url("site/restored/a")]) == "old a")
        await #expect(try cli.succeed(["cat", dialect.url("site/restored/b")]) == "old b")
        #expect(try await cli.run(["cat", dialect.url("site/restored/d")]).status == 2)

        let upload = try await cli.run(["cp", "-r", downloaded, dialect.url("site/up/"), "--version-at", then])
        #expect(upload.status == 64 && upload.standardError.contains("an upload's source has none"))
        let single = try await cli.run(["cp", dialect.url("site/p/a"), scratch.path("one"), "--version-at", then])
        #expect(single.status == 64 && single.standardError.contains("--version-at"), "\(single.standardError)")
        let malformed = try await cli.run(["cp", "-r", dialect.url("site/p/"), downloaded, "--version-at", "then"])
        #expect(malformed.status == 64 && malformed.standardError.contains("is not an ISO 8601 time"))
        let future = try await cli.run([
            "sync", dialect.url("site/p/"), downloaded, "--version-at", "2999-01-01T00:00:00Z",
        ])
        #expect(future.status == 65 && future.standardError.contains("is in the future"))
    }
}
