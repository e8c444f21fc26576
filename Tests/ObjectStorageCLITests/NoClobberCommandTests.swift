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

/// `cp --no-clobber`, `cp -r --no-clobber` and `sync --no-clobber` against `objstore serve`: the service refuses
/// each write whose key exists, and the CLI reports the object as skipped, with exit status 0.
struct NoClobberCommandTests {
    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("cp --no-clobber keeps an existing object and writes a new one", arguments: [ObjectsDialect.s3, .oss])
    func copyOneFile(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        try await cli.succeed(["mb", dialect.url("noclobber")])
        let file = scratch.path("file.txt")
        try Self.write("original", to: file)
        try await cli.succeed(["cp", file, dialect.url("noclobber/taken.txt")])
        try Self.write("replacement", to: file)

        let refused = try await cli.run(["cp", "--no-clobber", file, dialect.url("noclobber/taken.txt")])
        #expect(refused.status == 0, "\(refused.standardError)")
        #expect(
            refused.standardError.contains("skipped '\(dialect.url("noclobber/taken.txt"))'"),
            "\(refused.standardError)"
        )
        #expect(refused.standardError.contains("already exists"))
        #expect(!refused.standardOutput.contains("upload:"))
        await #expect(try cli.succeed(["cat", dialect.url("noclobber/taken.txt")]) == "original")

        let input = scratch.path("input.txt")
        try Self.write("from standard input", to: input)
        let streamed = try await cli.run(
            ["cp", "--no-clobber", "-", dialect.url("noclobber/taken.txt")],
            standardInput: input
        )
        #expect(streamed.status == 0, "\(streamed.standardError)")
        #expect(streamed.standardError.contains("already exists"), "\(streamed.standardError)")
        await #expect(try cli.succeed(["cat", dialect.url("noclobber/taken.txt")]) == "original")

        let written = try await cli.succeed(["cp", "--no-clobber", file, dialect.url("noclobber/fresh.txt")])
        #expect(written.hasPrefix("upload: "))
        await #expect(try cli.succeed(["cat", dialect.url("noclobber/fresh.txt")]) == "replacement")
    }

    @Test(
        "cp -r --no-clobber and sync --no-clobber upload the new files and keep every existing object",
        arguments: [ObjectsDialect.s3, .oss]
    )
    func directoryJobs(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let source = scratch.path("tree")
        try await cli.succeed(["mb", dialect.url("noclobber")])
        try Self.write("remote a", to: scratch.path("a"))
        try await cli.succeed(["cp", scratch.path("a"), dialect.url("noclobber/up/a.txt")])
        try Self.write("local a, longer than the remote one", to: source + "/a.txt")
        try Self.write("local b", to: source + "/sub/b.txt")

        let copied = try await cli.run(["cp", "-r", "--no-clobber", source, dialect.url("noclobber/up/")])
        #expect(copied.status == 0, "\(copied.standardError)")
        #expect(copied.standardOutput == "upload: \(source)/sub/b.txt to \(dialect.url("noclobber/up/sub/b.txt"))\n")
        #expect(copied.standardError.contains("skipped 'a.txt'"), "\(copied.standardError)")
        #expect(copied.standardError.contains("1 kept"), "\(copied.standardError)")
        await #expect(try cli.succeed(["cat", dialect.url("noclobber/up/a.txt")]) == "remote a")
        await #expect(try cli.succeed(["cat", dialect.url("noclobber/up/sub/b.txt")]) == "local b")

        // sync sees a.txt differ (its size) and tries it; the service refuses, the object stays.
        try Self.write("local c", to: source + "/c.txt")
        let synced = try await cli.run(["sync", "--no-clobber", source, dialect.url("noclobber/up/")])
        #expect(synced.status == 0, "\(synced.standardError)")
        #expect(synced.standardOutput == "upload: \(source)/c.txt to \(dialect.url("noclobber/up/c.txt"))\n")
        #expect(synced.standardError.contains("skipped 'a.txt'"), "\(synced.standardError)")
        await #expect(try cli.succeed(["cat", dialect.url("noclobber/up/a.txt")]) == "remote a")

        // Without the flag, sync overwrites: the flag made the difference.
        try await cli.succeed(["sync", source, dialect.url("noclobber/up/")])
        await #expect(
            try cli.succeed(["cat", dialect.url("noclobber/up/a.txt")]) == "local a, longer than the remote one"
        )
    }

    @Test("--no-clobber is refused before anything is sent for OBS and for downloads")
    func refusedWhereItCannotHold() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let obs = ObjectsCLI(server: server, dialect: .obs)
        let scratch = try ObjectsScratch()
        try await obs.succeed(["mb", ObjectsDialect.obs.url("noclobber")])
        let file = scratch.path("file.txt")
        try Self.write("bytes", to: file)

        let upload = try await obs.run(["cp", "--no-clobber", file, ObjectsDialect.obs.url("noclobber/k.txt")])
        #expect(upload.status == 64)
        #expect(upload.standardError.contains("OBS offers no create-only write"), "\(upload.standardError)")
        let listed = try await obs.succeed(["ls", ObjectsDialect.obs.url("noclobber/"), "--recursive"])
        #expect(listed.isEmpty, "an object was written: \(listed)")
        let sync = try await obs.run(["sync", "--no-clobber", scratch.url.path, ObjectsDialect.obs.url("noclobber/")])
        #expect(sync.status == 64)

        let s3 = ObjectsCLI(server: server, dialect: .s3)
        try await s3.succeed(["cp", file, ObjectsDialect.s3.url("noclobber/k.txt")])
        let download = try await s3.run([
            "cp", "--no-clobber", ObjectsDialect.s3.url("noclobber/k.txt"), scratch.path("d"),
        ])
        #expect(download.status == 64)
        #expect(download.standardError.contains("not to downloads"), "\(download.standardError)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("d")))
    }
}
