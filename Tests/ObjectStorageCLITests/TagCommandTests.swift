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

/// `cp --tags`, `objstore tag get|set|rm` and the tag count in `stat`, as processes against `objstore serve`.
struct TagCommandTests {
    @Test(arguments: ObjectsDialect.all)
    func setReadReplaceRemove(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let file = scratch.path("report.csv")
        try Data("a,b\n".utf8).write(to: URL(fileURLWithPath: file))

        try await cli.succeed(["mb", dialect.url("tagged")])
        try await cli.succeed([
            "cp", file, dialect.url("tagged/report.csv"), "--tags", "project=blue%20sky&retention=30d",
        ])
        await #expect(
            try cli.succeed(["tag", "get", dialect.url("tagged/report.csv")]) == "project=blue sky\nretention=30d\n"
        )
        await #expect(try cli.succeed(["stat", dialect.url("tagged/report.csv")]).contains("Tags: 2\n"))

        // A copy keeps its source's tags unless given its own.
        try await cli.succeed(["cp", dialect.url("tagged/report.csv"), dialect.url("tagged/kept.csv")])
        await #expect(
            try cli.succeed(["tag", "get", dialect.url("tagged/kept.csv")]) == "project=blue sky\nretention=30d\n"
        )
        try await cli.succeed([
            "cp", dialect.url("tagged/report.csv"), dialect.url("tagged/own.csv"), "--tags", "kind=copy",
        ])
        await #expect(
            try cli.succeed(["tag", "get", dialect.url("tagged/own.csv"), "--json"]) == "{\"kind\":\"copy\"}\n"
        )

        try await cli.succeed(["tag", "set", dialect.url("tagged/report.csv"), "owner=ops"])
        await #expect(try cli.succeed(["tag", "get", dialect.url("tagged/report.csv")]) == "owner=ops\n")
        try await cli.succeed(["tag", "rm", dialect.url("tagged/report.csv")])
        await #expect(try cli.succeed(["tag", "get", dialect.url("tagged/report.csv")]) == "")
        await #expect(try !cli.succeed(["stat", dialect.url("tagged/report.csv")]).contains("Tags:"))

        let missing = try await cli.run(["tag", "get", dialect.url("tagged/absent")])
        #expect(missing.status == 2, "\(missing.standardError)")
    }

    @Test("tags beyond the limits are refused before the upload starts, in a sentence", arguments: ObjectsDialect.all)
    func refusedBeforeSending(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let file = scratch.path("a.txt")
        try Data("a".utf8).write(to: URL(fileURLWithPath: file))
        try await cli.succeed(["mb", dialect.url("limits")])

        let eleven = (1...11).map { "k\($0)=v" }.joined(separator: "&")
        let tooMany = try await cli.run(["cp", file, dialect.url("limits/a.txt"), "--tags", eleven])
        #expect(tooMany.status == 65, "\(tooMany.standardError)")
        #expect(
            tooMany.standardError.contains("11 tags, but an object can have at most 10"),
            "\(tooMany.standardError)"
        )
        let directory = try await cli.run(["cp", "-r", scratch.path(""), dialect.url("limits/dir/"), "--tags", eleven])
        #expect(directory.status == 65, "\(directory.standardError)")
        let set = try await cli.run(["tag", "set", dialect.url("limits/a.txt"), "a=b=c"])
        #expect(set.status == 64, "\(set.standardError)")
        let download = try await cli.run(["cp", dialect.url("limits/a.txt"), scratch.path("b.txt"), "--tags", "a=1"])
        #expect(download.status == 64 && download.standardError.contains("--tags applies to uploads only"))
        await #expect(try cli.succeed(["ls", dialect.url("limits/")]) == "")
    }
}
