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

/// `mb`, `cp`, `ls`, `stat`, `cat`, `rm` and `rb` run as processes against `objstore serve`.
struct ObjectsCommandTests {
    /// 70,000 bytes that are not text, so a download that mangles bytes shows.
    static let payload = Data(generatedBytes(count: 70_000) { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })

    @Test(arguments: ObjectsDialect.all)
    func transfersListsAndDeletesObjects(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let data = scratch.path("data.bin")
        let note = scratch.path("note.txt")
        try Self.payload.write(to: URL(fileURLWithPath: data))
        try Data("hello, objects\n".utf8).write(to: URL(fileURLWithPath: note))

        await #expect(try cli.succeed(["mb", dialect.url("bkt")]) == "make_bucket: bkt\n")
        let uploaded = try await cli.succeed(["cp", data, dialect.url("bkt/dir/")])
        #expect(reportedTransfer(uploaded)?.action == "upload: \(data) to \(dialect.url("bkt/dir/data.bin"))")
        try await cli.succeed(["cp", note, dialect.url("bkt/dir/sub/note.txt"), "--content-type", "text/plain"])
        try await cli.succeed(["cp", note, dialect.url("bkt/top?#%.txt")])

        let shallow = try await cli.succeed(["ls", dialect.url("bkt")])
        #expect(shallow.contains("PRE dir/\n"))
        #expect(shallow.contains(" 15 top?#%.txt\n"))
        #expect(!shallow.contains("data.bin"))

        let listed = try await Self.jsonLines(try cli.succeed(["ls", dialect.url("bkt"), "--recursive", "--json"]))
        #expect(listed.compactMap { $0["key"] as? String } == ["dir/data.bin", "dir/sub/note.txt", "top?#%.txt"])
        #expect(listed.first?["size"] as? Int == 70_000)
        // The marker-based ListObjects (V1) lists the same.
        let listedV1 = try await Self.jsonLines(
            try cli.succeed(["ls", dialect.url("bkt"), "--recursive", "--json", "--use-list-objects-v1"])
        )
        #expect(listedV1.compactMap { $0["key"] as? String } == ["dir/data.bin", "dir/sub/note.txt", "top?#%.txt"])

        let stat = try await #require(
            Self.jsonLines(try cli.succeed(["stat", dialect.url("bkt/dir/sub/note.txt"), "--json"])).first
        )
        #expect(stat["size"] as? Int == 15)
        #expect(stat["contentType"] as? String == "text/plain")
        // The MD5 of "hello, objects\n" (md5sum); OSS spells it in upper case.
        #expect((stat["etag"] as? String)?.lowercased() == "\"a667a0f645783a6750409092811575cc\"")
        // RFC 3339 in whole seconds, read here by Foundation's own parser; `ls` prints the same text.
        let modified = try #require(stat["lastModified"] as? String)
        let parsed = try #require(ISO8601DateFormatter().date(from: modified), "\(modified)")
        #expect(abs(parsed.timeIntervalSinceNow) < 300)
        #expect(modified.utf8.count == 20 && modified.hasSuffix("Z"))
        await #expect(try cli.succeed(["ls", dialect.url("bkt/dir/sub/")]).hasPrefix(modified + " "))
        if dialect.scheme == "oss" {
            #expect(stat["crc64"] is String)
        }

        await #expect(try cli.succeed(["cat", dialect.url("bkt/dir/sub/note.txt")]) == "hello, objects\n")
        await #expect(try cli.succeed(["cat", dialect.url("bkt/dir/sub/note.txt"), "--range", "7-13"]) == "objects")
        await #expect(try cli.succeed(["cat", dialect.url("bkt/top?#%.txt"), "--range=-8"]) == "objects\n")

        let downloaded = scratch.path("down.bin")
        try await cli.succeed(["cp", dialect.url("bkt/dir/data.bin"), downloaded])
        #expect(FileManager.default.contents(atPath: downloaded) == Self.payload)
        // Into a directory that does not exist yet: created, as aws-cli and cp -r do.
        try await cli.succeed(["cp", dialect.url("bkt/dir/data.bin"), scratch.path("new/sub") + "/"])
        #expect(FileManager.default.contents(atPath: scratch.path("new/sub/data.bin")) == Self.payload)
        // A file path whose directory is missing is refused: a mistyped path is not made real.
        await #expect(try cli.run(["cp", dialect.url("bkt/dir/data.bin"), scratch.path("typo/data.bin")]).status != 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("typo")))

        try await cli.succeed(["cp", dialect.url("bkt/dir/data.bin"), dialect.url("bkt/copies/")])
        let copied = scratch.path("copied.bin")
        try await cli.succeed(["cp", dialect.url("bkt/copies/data.bin"), copied])
        #expect(FileManager.default.contents(atPath: copied) == Self.payload)

        await #expect(
            try cli.succeed(["rm", dialect.url("bkt/copies/data.bin")])
                == "delete: \(dialect.url("bkt/copies/data.bin"))\n"
        )
        await #expect(try cli.run(["stat", dialect.url("bkt/copies/data.bin")]).status == 2)
        // A prefix without --recursive names no object: nothing deleted, and said so.
        let prefix = try await cli.run(["rm", dialect.url("bkt/dir")])
        #expect(prefix.status == 2)
        #expect(prefix.standardOutput.isEmpty)
        #expect(prefix.standardError.contains("--recursive"), "\(prefix.standardError)")
        await #expect(try cli.run(["stat", dialect.url("bkt/dir/data.bin")]).status == 0)

        let removed = try await cli.succeed(["rm", "--recursive", dialect.url("bkt/dir")])
        #expect(removed.split(separator: "\n").count == 2)
        await #expect(try cli.succeed(["ls", dialect.url("bkt"), "--recursive"]).hasSuffix(" top?#%.txt\n"))

        let notEmpty = try await cli.run(["rb", dialect.url("bkt")])
        #expect(notEmpty.status == 1)
        #expect(notEmpty.standardError.contains("BucketNotEmpty"))

        try await cli.succeed(["rm", "-r", dialect.url("bkt")])
        await #expect(try cli.succeed(["rb", dialect.url("bkt")]) == "remove_bucket: bkt\n")
        let gone = try await cli.run(["ls", dialect.url("bkt")])
        #expect(gone.status == 2)
        #expect(gone.standardError.contains("NoSuchBucket"))
    }

    @Test(
        "ls with no URL or a bare scheme lists buckets; --quiet and --only-show-errors print nothing on success",
        arguments: ObjectsDialect.all
    )
    func bucketListingAndQuietOutput(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let tiny = scratch.path("tiny.txt")
        try Data("abc".utf8).write(to: URL(fileURLWithPath: tiny))

        for (bucket, flag) in [("quiet-one", "--quiet"), ("quiet-two", "-q"), ("errors-only", "--only-show-errors")] {
            let made = try await cli.run(["mb", dialect.url(bucket), flag])
            #expect(made.status == 0 && made.standardOutput.isEmpty && made.standardError.isEmpty, "\(made)")
            for arguments in [
                ["cp", tiny, dialect.url("\(bucket)/tiny.txt"), flag],
                ["cp", dialect.url("\(bucket)/tiny.txt"), scratch.path("\(bucket).txt"), flag],
                ["rm", dialect.url("\(bucket)/tiny.txt"), flag],
            ] {
                let result = try await cli.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.standardError)")
                #expect(result.standardOutput.isEmpty, "\(arguments): \(result.standardOutput)")
                #expect(result.standardError.isEmpty, "\(arguments): \(result.standardError)")
            }
            #expect(FileManager.default.contents(atPath: scratch.path("\(bucket).txt")) == Data("abc".utf8))
        }
        // Errors still reach standard error under --quiet.
        let missing = try await cli.run(["cp", dialect.url("quiet-one/missing"), scratch.path("m"), "--quiet"])
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("objstore: NoSuchKey"), "\(missing.standardError)")

        let bare = try await cli.succeed(["ls", "\(dialect.scheme)://"])
        #expect(
            bare.split(separator: "\n").map { $0.split(separator: " ").last ?? "" } == [
                "errors-only", "quiet-one", "quiet-two",
            ]
        )
        let listed = try await Self.jsonLines(try cli.succeed(["ls", "--json"]))
        #expect(listed.compactMap { $0["name"] as? String } == ["errors-only", "quiet-one", "quiet-two"])
        #expect(listed.allSatisfy { $0["creationDate"] is String })
    }

    @Test("ls with every dialect of one server exported, as serve suggests, lists that server's buckets")
    func lsWithEveryDialectOfOneServer() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        try await ObjectsCLI(server: server, dialect: .s3).succeed(["mb", "s3://shared"])
        var variables = [
            "OSS_ENDPOINT": server.endpoint, "OBS_ENDPOINT": server.endpoint, "AWS_ENDPOINT_URL": server.endpoint,
            "OSS_REGION": "cn-hangzhou", "AWS_REGION": "us-east-1",
        ]
        for dialect in ObjectsDialect.all {
            variables[dialect.accessKeyVariable] = ObjectsLocalServer.accessKeyID
            variables[dialect.secretVariable] = ObjectsLocalServer.secret
        }
        let result = try await CLIProcess.run(["ls"], environment: CLIProcess.isolatedEnvironment(variables))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(" shared"), "\(result.standardOutput)")
    }

    @Test(arguments: ObjectsDialect.all)
    func missingKeyExitsWithStatus2(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        try await cli.succeed(["mb", dialect.url("bkt")])
        let target = scratch.path("never.bin")
        for arguments in [
            ["stat", dialect.url("bkt/missing")], ["cat", dialect.url("bkt/missing")],
            ["cp", dialect.url("bkt/missing"), target],
        ] {
            let result = try await cli.run(arguments)
            #expect(result.status == 2, "\(arguments[0]): \(result.standardError)")
            #expect(result.standardError.hasPrefix("objstore: NoSuchKey"), "\(arguments[0]): \(result.standardError)")
            #expect(
                result.standardError.contains("(bucket 'bkt', key 'missing'; request id "),
                "\(arguments[0]): \(result.standardError)"
            )
            #expect(result.standardOutput.isEmpty)
        }
        // A missing bucket is named as such, whatever the command.
        let noBucket = try await cli.run(["ls", dialect.url("nosuch/")])
        #expect(noBucket.status == 2)
        #expect(noBucket.standardError.contains("NoSuchBucket"), "\(noBucket.standardError)")
        #expect(noBucket.standardError.contains("bucket 'nosuch'"), "\(noBucket.standardError)")
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty, "no partial file")
    }

    @Test(arguments: ObjectsDialect.all)
    func wrongSecretExitsWithStatus1WithoutTheSecret(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        try await ObjectsCLI(server: server, dialect: dialect).succeed(["mb", dialect.url("bkt")])
        let wrong = ObjectsCLI(server: server, dialect: dialect, secret: "wrong-secret-value-0123456789")
        for arguments in [["ls", dialect.url("bkt")], ["cat", dialect.url("bkt/key")]] {
            let result = try await wrong.run(arguments)
            #expect(result.status == 1, "\(arguments[0]): \(result.standardError)")
            #expect(result.standardError.hasPrefix("objstore: SignatureDoesNotMatch: "), "\(result.standardError)")
            #expect(result.standardError.contains("request id "))
            #expect(!result.standardError.contains("wrong-secret-value"))
            #expect(!result.standardError.contains(ObjectsLocalServer.secret))
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test
    func anonymousRequestsAreRefusedByAnAuthenticatingServer() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let result = try await CLIProcess.run(
            ["ls", "s3://bkt", "--no-sign-request", "--endpoint", server.endpoint],
            environment: CLIProcess.isolatedEnvironment()
        )
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("objstore: AccessDenied: "))
    }

    struct UsageCase: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32
        var mentions: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["ls", "s3://b", "--bogus"], status: 64, mentions: "--bogus"),
        UsageCase(arguments: ["ls", "ftp://b"], status: 64, mentions: "ftp://b"),
        UsageCase(arguments: ["stat", "oss://b"], status: 64, mentions: "names a bucket, not an object"),
        UsageCase(arguments: ["cat", "oss://b/k", "--range", "9-2"], status: 64, mentions: "--range"),
        UsageCase(arguments: ["cat", "oss://b/k", "--range", "x"], status: 64, mentions: "--range"),
        UsageCase(arguments: ["ls", "s3://b", "--signature", "v1"], status: 64, mentions: "--signature"),
        UsageCase(arguments: ["ls", "s3://b", "--endpoint", "http://h/path"], status: 64, mentions: "--endpoint"),
        UsageCase(arguments: ["mb", "s3://b/key"], status: 64, mentions: "names an object"),
        UsageCase(arguments: ["rm"], status: 64, mentions: "<urls>"),
        UsageCase(
            arguments: ["rm", "s3://b"],
            status: 64,
            mentions: "names a bucket, not an object; add --recursive (-r) to delete every object in it, or use rb"
        ),
        UsageCase(arguments: ["rm", "s3://b/k", "--older-than", "7d"], status: 64, mentions: "--incomplete"),
        UsageCase(
            arguments: ["rm", "s3://b", "--incomplete", "--older-than", "7x"],
            status: 64,
            mentions: "--older-than"
        ),
        UsageCase(
            arguments: ["rm", "s3://b", "--incomplete", "--older-than", "99999999999999d"],
            status: 64,
            mentions: "--older-than"
        ),
        UsageCase(arguments: ["rm", "s3://b", "--incomplete", "-r"], status: 64, mentions: "--recursive"),
        UsageCase(arguments: ["ls", "--incomplete"], status: 64, mentions: "--incomplete"),
        UsageCase(arguments: ["cp", "a", "b"], status: 64, mentions: "remote URL"),
        UsageCase(arguments: ["cp", "a", "s3://b/k", "--limit-rate", "512"], status: 64, mentions: "--limit-rate"),
        UsageCase(arguments: ["cp", "a", "s3://b/k", "--limit-rate", "fast"], status: 64, mentions: "--limit-rate"),
        UsageCase(
            arguments: ["cp", "oss://b/k", "s3://b/k", "--endpoint", "http://127.0.0.1:9"],
            status: 64,
            mentions: "environment variables"
        ),
        UsageCase(arguments: ["cp", "/nonexistent/objstore-file", "s3://b/k"], status: 2, mentions: "no such file"),
        UsageCase(arguments: ["ls", "obs://b", "--profile", "p"], status: 64, mentions: "--profile"),
        UsageCase(arguments: ["ls", "s3://b", "--profile", "absent"], status: 77, mentions: "absent"),
        UsageCase(arguments: ["ls", "oss://b"], status: 77, mentions: "OSS_ACCESS_KEY_ID"),
    ]

    /// Usage errors and missing credentials fail before any request (no server is running).
    @Test(arguments: usageCases)
    func rejectsBadArgumentsBeforeSending(_ testCase: UsageCase) async throws {
        let result = try await CLIProcess.run(testCase.arguments, environment: CLIProcess.isolatedEnvironment())
        #expect(result.status == testCase.status, "stderr: \(result.standardError)")
        #expect(result.standardError.contains(testCase.mentions), "stderr: \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    static func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }
}
