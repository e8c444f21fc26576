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

/// `cp -r` and `sync` run as processes against `objstore serve`.
struct DirectoryCommandTests {
    /// 30 files in nested directories, by relative name.
    static let tree: [(String, Data)] = (0..<30).map { index in
        (
            "d\(index % 3)/sub\(index % 2)/f\(index).bin",
            Data(generatedBytes(count: 100 + index * 37) { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) })
        )
    }

    static func write(_ files: [(String, Data)], under root: String) throws {
        for (name, bytes) in files {
            let path = root + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true
            )
            try bytes.write(to: URL(fileURLWithPath: path))
        }
    }

    @Test(
        "cp -r up and sync down round-trip a tree; sync moves only changes; --dryrun, --delete and --json say what happens",
        arguments: [ObjectsDialect.s3, .oss]
    )
    func copyAndSync(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let source = scratch.path("source")
        try Self.write(Self.tree, under: source)
        try await cli.succeed(["mb", dialect.url("bkt")])

        let uploaded = try await cli.succeed(["cp", "-r", source, dialect.url("bkt/up")])
        let lines = uploaded.split(separator: "\n")
        #expect(lines.count == 30)
        #expect(lines.contains("upload: \(source)/d0/sub0/f0.bin to \(dialect.url("bkt/up/d0/sub0/f0.bin"))"))
        let keys = try await cli.succeed(["ls", dialect.url("bkt/up/"), "--recursive", "--json"])
        #expect(try ObjectsCommandTests.jsonLines(keys).count == 30)

        // Server-side, prefix to prefix.
        let copied = try await cli.succeed(["cp", "-r", dialect.url("bkt/up/"), dialect.url("bkt/copy/")])
        #expect(copied.split(separator: "\n").count == 30)
        #expect(
            copied.contains(
                "copy: \(dialect.url("bkt/up/d0/sub0/f0.bin")) to \(dialect.url("bkt/copy/d0/sub0/f0.bin"))\n"
            )
        )
        await #expect(try cli.succeed(["sync", dialect.url("bkt/up/"), dialect.url("bkt/copy/")]) == "")

        // Nothing changed: nothing moves.
        await #expect(try cli.succeed(["sync", source, dialect.url("bkt/up/")]) == "")

        // One file grows, one is new, one is gone.
        try Data("grown".utf8 + Array(repeating: 1, count: 500)).write(
            to: URL(fileURLWithPath: source + "/d0/sub0/f0.bin")
        )
        try Data("new".utf8).write(to: URL(fileURLWithPath: source + "/new.txt"))
        try FileManager.default.removeItem(atPath: source + "/d1/sub1/f1.bin")
        let planned = try await cli.succeed(["sync", source, dialect.url("bkt/up/"), "--delete", "--dryrun"])
        #expect(
            Set(planned.split(separator: "\n").map(String.init)) == [
                "(dryrun) upload: \(source)/d0/sub0/f0.bin to \(dialect.url("bkt/up/d0/sub0/f0.bin"))",
                "(dryrun) upload: \(source)/new.txt to \(dialect.url("bkt/up/new.txt"))",
                "(dryrun) delete: \(dialect.url("bkt/up/d1/sub1/f1.bin"))",
            ]
        )
        let synced = try ObjectsCommandTests.jsonLines(
            try await cli.succeed(["sync", source, dialect.url("bkt/up/"), "--delete", "--json"])
        )
        #expect(synced.count == 3)
        #expect(Set(synced.compactMap { $0["action"] as? String }) == ["uploaded", "deleted"])
        #expect(synced.contains { $0["name"] as? String == "new.txt" && $0["size"] as? Int == 3 })

        // Down into a new directory, then again: the second run moves nothing.
        let mirror = scratch.path("mirror")
        let downloaded = try await cli.succeed(["sync", dialect.url("bkt/up"), mirror, "--quiet"])
        #expect(downloaded == "")
        var expected = Self.tree.filter { $0.0 != "d1/sub1/f1.bin" }
        expected.removeAll { $0.0 == "d0/sub0/f0.bin" }
        expected.append(("d0/sub0/f0.bin", Data("grown".utf8 + Array(repeating: 1, count: 500))))
        expected.append(("new.txt", Data("new".utf8)))
        for (name, bytes) in expected {
            #expect(FileManager.default.contents(atPath: mirror + "/" + name) == bytes, "\(name)")
        }
        await #expect(try cli.succeed(["sync", dialect.url("bkt/up/"), mirror]) == "")
        let again = try await cli.run(["sync", dialect.url("bkt/up/"), mirror])
        #expect(again.standardError.contains("sync: 0 downloaded (0 B), \(expected.count) unchanged"))
    }
}
