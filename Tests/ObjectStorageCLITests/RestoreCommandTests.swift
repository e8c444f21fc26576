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

/// `objstore restore` as processes against `objstore serve --restore-delay 2s`: an archived object refused by `cp`
/// with a sentence, restored with --wait, then copied; -r skips what is not archived; a restore of an object that
/// needs none says so.
struct RestoreCommandTests {
    static func archiveClass(_ dialect: ObjectsDialect) -> String {
        switch dialect.scheme {
        case "oss": "Archive"
        case "obs": "COLD"
        default: "GLACIER"
        }
    }

    @Test(arguments: ObjectsDialect.all)
    func restoreWaitAndCopy(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start(arguments: ["--log-level", "warning", "--restore-delay", "2s"])
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let source = scratch.path("backup.tar")
        try Data("archived bytes".utf8).write(to: URL(fileURLWithPath: source))
        try await cli.succeed(["mb", dialect.url("vault")])
        try await cli.succeed([
            "cp", source, dialect.url("vault/db/a.tar"), "--storage-class", Self.archiveClass(dialect),
        ])
        try await cli.succeed([
            "cp", source, dialect.url("vault/db/b.tar"), "--storage-class", Self.archiveClass(dialect),
        ])
        try await cli.succeed(["cp", source, dialect.url("vault/db/plain.txt")])

        let refused = try await cli.run(["cp", dialect.url("vault/db/a.tar"), scratch.path("out.tar")])
        #expect(refused.status == 1, "\(refused.standardError)")
        #expect(
            refused.standardError.contains("archived: 'db/a.tar' in bucket 'vault' must be restored"),
            "\(refused.standardError)"
        )
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.tar")))

        // A directory job lists the archived keys at the end and says what to run.
        let directory = try await cli.run(["cp", "-r", dialect.url("vault/db/"), scratch.path("out")])
        #expect(directory.status == 1, "\(directory.standardError)")
        #expect(directory.standardError.contains("cp: archived: \(dialect.url("vault/db/a.tar"))"))
        #expect(directory.standardError.contains("cp: archived: \(dialect.url("vault/db/b.tar"))"))
        #expect(
            directory.standardError.contains(
                "2 archived, listed above: restore them first with objstore restore -r \(dialect.url("vault/db/")) --wait"
            ),
            "\(directory.standardError)"
        )

        let restored = try await cli.succeed([
            "restore", "-r", dialect.url("vault/db/"), "--days", "3", "--tier", "expedited", "--wait",
            "--poll-interval", "1s",
        ])
        #expect(restored.contains("restore started: \(dialect.url("vault/db/a.tar"))"), "\(restored)")
        #expect(restored.contains("restored: \(dialect.url("vault/db/b.tar")) (until "), "\(restored)")
        #expect(restored.contains("skipped 1 object not archived"), "\(restored)")
        try await cli.succeed(["cp", dialect.url("vault/db/a.tar"), scratch.path("out.tar")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out.tar"))) == Data("archived bytes".utf8))

        // Again: the restores are done, so their days are extended.
        let again = try await cli.succeed(["restore", dialect.url("vault/db/a.tar"), "--days", "2"])
        #expect(again.hasPrefix("restored already, kept 2 more days"), "\(again)")

        let plain = try await cli.run(["restore", dialect.url("vault/db/plain.txt")])
        #expect(plain.status == 1 && plain.standardError.contains("is not archived, so it needs no restore"))
    }
}
