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

/// `objstore append FILE URL` and `objstore symlink create|read`, as processes against `objstore serve`.
struct AppendCommandTests {
    static let appendDialects = [ObjectsDialect.oss, .obs]

    @Test(
        "append a file and standard input; the next position is printed; a wrong --position is refused with the length",
        arguments: appendDialects
    )
    func appendFileAndInput(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let file = scratch.path("first.txt")
        try Data("hello ".utf8).write(to: URL(fileURLWithPath: file))
        try await cli.succeed(["mb", dialect.url("logs")])

        await #expect(try cli.succeed(["append", file, dialect.url("logs/app.log")]) == "6\n")
        let stdin = scratch.path("stdin.txt")
        try Data("world".utf8).write(to: URL(fileURLWithPath: stdin))
        let input = try await cli.run(["append", "-", dialect.url("logs/app.log")], standardInput: stdin)
        #expect(input.status == 0 && input.standardOutput == "11\n", "\(input.standardError)")
        await #expect(try cli.succeed(["cat", dialect.url("logs/app.log")]) == "hello world")
        await #expect(
            try cli.succeed(["append", file, dialect.url("logs/app.log"), "--position", "11"]) == "17\n"
        )

        let stale = try await cli.run(["append", file, dialect.url("logs/app.log"), "--position", "3"])
        #expect(stale.status == 1, "\(stale.standardError)")
        #expect(stale.standardError.contains("PositionNotEqualToLength"), "\(stale.standardError)")
        #expect(stale.standardError.contains("the object ends at 17"), "\(stale.standardError)")

        try await cli.succeed(["cp", file, dialect.url("logs/normal.txt")])
        let normal = try await cli.run(["append", file, dialect.url("logs/normal.txt")])
        #expect(normal.status == 1 && normal.standardError.contains("ObjectNotAppendable"), "\(normal.standardError)")
        let missing = try await cli.run(["append", scratch.path("absent"), dialect.url("logs/app.log")])
        #expect(missing.status == 65, "\(missing.standardError)")
    }

    @Test("an append whose answer the server drops is found applied, and written once", arguments: appendDialects)
    func droppedAnswer(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start(
            arguments: ["--log-level", "warning", "--fault", "op=AppendObject,when=nth:2,drop=response"]
        )
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let file = scratch.path("line.txt")
        try Data("line\n".utf8).write(to: URL(fileURLWithPath: file))
        try await cli.succeed(["mb", dialect.url("logs")])

        await #expect(try cli.succeed(["append", file, dialect.url("logs/app.log")]) == "5\n")
        await #expect(try cli.succeed(["append", file, dialect.url("logs/app.log")]) == "10\n")
        await #expect(try cli.succeed(["cat", dialect.url("logs/app.log")]) == "line\nline\n")
    }

    @Test("S3 has no append, and only OSS has symlinks: refused in a sentence")
    func refusedWhereAbsent() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let scratch = try ObjectsScratch()
        let file = scratch.path("a.txt")
        try Data("a".utf8).write(to: URL(fileURLWithPath: file))
        let s3 = ObjectsCLI(server: server, dialect: .s3)
        try await s3.succeed(["mb", "s3://bkt"])
        let append = try await s3.run(["append", file, "s3://bkt/log"])
        #expect(
            append.status == 1 && append.standardError.contains("S3 has no AppendObject"),
            "\(append.standardError)"
        )
        let obs = ObjectsCLI(server: server, dialect: .obs)
        let symlink = try await obs.run(["symlink", "create", "obs://bkt/link", "a.txt"])
        #expect(
            symlink.status == 1 && symlink.standardError.contains("OBS has no PutSymlink"),
            "\(symlink.standardError)"
        )
    }

    @Test("symlink create and read on OSS; cat of the symlink serves its target")
    func symlinks() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .oss)
        let scratch = try ObjectsScratch()
        let file = scratch.path("talk.txt")
        try Data("the talk".utf8).write(to: URL(fileURLWithPath: file))
        try await cli.succeed(["mb", "oss://media"])

        try await cli.succeed(["symlink", "create", "oss://media/latest", "talks/2026 11.txt"])
        await #expect(try cli.succeed(["symlink", "read", "oss://media/latest"]) == "talks/2026 11.txt\n")
        let dangling = try await cli.run(["cat", "oss://media/latest"])
        #expect(dangling.status == 2, "\(dangling.standardError)")
        try await cli.succeed(["cp", file, "oss://media/talks/2026 11.txt"])
        await #expect(try cli.succeed(["cat", "oss://media/latest"]) == "the talk")
        let notLink = try await cli.run(["symlink", "read", "oss://media/talks/2026 11.txt"])
        #expect(notLink.status == 1 && notLink.standardError.contains("NotSymlink"), "\(notLink.standardError)")
    }
}
