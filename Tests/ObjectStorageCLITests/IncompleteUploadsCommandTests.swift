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

/// `ls --incomplete` and `rm --incomplete [--older-than] [--dryrun]` against `objstore serve`, with uploads left
/// unfinished by a server that refuses every CompleteMultipartUpload.
struct IncompleteUploadsCommandTests {
    @Test(
        "ls --incomplete lists unfinished uploads; rm --incomplete aborts them by prefix and age",
        arguments: ObjectsDialect.all
    )
    func listsAndAbortsUnfinishedUploads(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start(arguments: [
            "--log-level", "warning", "--fault", "op=CompleteMultipartUpload,status=403:AccessDenied",
        ])
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        try await cli.succeed(["mb", dialect.url("bkt")])
        for key in ["a/one.bin", "b/two.bin"] {
            // A file each: one file's checkpoint records one upload (another key's upload of it is aborted).
            let file = scratch.path(key.replacingOccurrences(of: "/", with: "-"))
            try Data(repeating: 7, count: 6 << 20).write(to: URL(fileURLWithPath: file))
            let upload = try await cli.run(["cp", file, dialect.url("bkt/\(key)"), "--part-size", "5M", "--quiet"])
            #expect(upload.status == 1, "\(upload.standardError)")
        }

        let listed = try await cli.succeed(["ls", "--incomplete", dialect.url("bkt")])
        #expect(
            listed.split(separator: "\n").map { $0.split(separator: " ").last ?? "" } == ["a/one.bin", "b/two.bin"]
        )
        let underA = try ObjectsCommandTests.jsonLines(
            try await cli.succeed(["ls", "--incomplete", "--json", dialect.url("bkt/a/")])
        )
        #expect(underA.compactMap { $0["key"] as? String } == ["a/one.bin"])
        let uploadID = try #require(underA.first?["uploadID"] as? String)
        #expect(!uploadID.isEmpty)
        #expect(underA.first?["initiated"] is String)

        // Both were started moments ago: an hour's age spares them.
        await #expect(try cli.succeed(["rm", "--incomplete", "--older-than", "1h", dialect.url("bkt")]).isEmpty)
        await #expect(
            try cli.succeed(["rm", "--incomplete", "--dryrun", dialect.url("bkt/a/")])
                == "(dryrun) abort: \(dialect.url("bkt/a/one.bin")) (upload \(uploadID))\n"
        )
        await #expect(try cli.succeed(["ls", "--incomplete", dialect.url("bkt")]).split(separator: "\n").count == 2)

        await #expect(
            try cli.succeed(["rm", "--incomplete", dialect.url("bkt/a/")])
                == "abort: \(dialect.url("bkt/a/one.bin")) (upload \(uploadID))\n"
        )
        let left = try await cli.succeed(["ls", "--incomplete", dialect.url("bkt")])
        #expect(left.hasSuffix(" b/two.bin\n") && left.split(separator: "\n").count == 1, "\(left)")

        try await cli.succeed(["rm", "--incomplete", "--older-than", "0s", dialect.url("bkt")])
        await #expect(try cli.succeed(["ls", "--incomplete", dialect.url("bkt")]).isEmpty)
        // No object was ever completed, and aborting removed the uploads' parts: the bucket can go.
        await #expect(try cli.succeed(["rb", dialect.url("bkt")]) == "remove_bucket: bkt\n")
    }

    @Test("rm --dryrun deletes nothing and prints what it would delete")
    func removeDryRunKeepsObjects() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        let scratch = try ObjectsScratch()
        let note = scratch.path("note.txt")
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: note))
        try await cli.succeed(["mb", "s3://bkt"])
        for key in ["dir/one.txt", "dir/two.txt"] {
            try await cli.succeed(["cp", note, "s3://bkt/\(key)", "--quiet"])
        }
        await #expect(
            try cli.succeed(["rm", "--recursive", "--dryrun", "s3://bkt/dir"])
                == "(dryrun) delete: s3://bkt/dir/one.txt\n(dryrun) delete: s3://bkt/dir/two.txt\n"
        )
        await #expect(
            try cli.succeed(["rm", "--dryrun", "s3://bkt/dir/one.txt"]) == "(dryrun) delete: s3://bkt/dir/one.txt\n"
        )
        await #expect(try cli.succeed(["cat", "s3://bkt/dir/one.txt"]) == "kept\n")
        await #expect(try cli.succeed(["cat", "s3://bkt/dir/two.txt"]) == "kept\n")
    }
}
