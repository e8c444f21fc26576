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

/// `objstore restore` as processes against `objstore serve --restore-delay`: an archived object refused by `cp`
/// with a sentence; restored with --wait, then copied; -r skips what is not archived and, with a destination,
/// downloads the whole prefix once restored; a restore then download killed twice (while waiting, while
/// downloading) and rerun ends with the object's bytes, no second restore and no part fetched twice; a restore of
/// an object that needs none says so.
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

        // Download options need a destination.
        let refusedFlag = try await cli.run(["restore", dialect.url("vault/db/a.tar"), "--part-size", "1M"])
        #expect(
            refusedFlag.status == 64
                && refusedFlag.standardError.contains("--part-size applies to the download, which needs a destination"),
            "\(refusedFlag.standardError)"
        )

        // Restored, then the whole prefix downloaded (the object that was never archived too).
        let restored = try await cli.succeed([
            "restore", "-r", dialect.url("vault/db/"), scratch.path("out"), "--days", "3", "--tier", "expedited",
            "--poll-interval", "1s",
        ])
        #expect(restored.contains("restore started: \(dialect.url("vault/db/a.tar"))"), "\(restored)")
        #expect(restored.contains("restored: \(dialect.url("vault/db/b.tar")) (until "), "\(restored)")
        #expect(restored.contains("skipped 1 object not archived"), "\(restored)")
        for name in ["a.tar", "b.tar", "plain.txt"] {
            let path = scratch.path("out/" + name)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("archived bytes".utf8), "\(name)")
        }
        try await cli.succeed(["cp", dialect.url("vault/db/a.tar"), scratch.path("out.tar")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out.tar"))) == Data("archived bytes".utf8))

        // Again: the restores are done, so their days are extended.
        let again = try await cli.succeed(["restore", dialect.url("vault/db/a.tar"), "--days", "2"])
        #expect(again.hasPrefix("restored already, kept 2 more days"), "\(again)")

        let plain = try await cli.run(["restore", dialect.url("vault/db/plain.txt")])
        #expect(plain.status == 1 && plain.standardError.contains("is not archived, so it needs no restore"))
    }

    @Test(arguments: ObjectsDialect.all)
    func restoreThenDownloadSurvivesKills(_ dialect: ObjectsDialect) async throws {
        let scratch = try ObjectsScratch()
        let server = try await KillResumeServer.start(
            faults: [],
            logPath: scratch.path("serve.log"),
            arguments: ["--restore-delay", "3s"]
        )
        defer { server.server.stop() }
        let cli = ObjectsCLI(server: server.server, dialect: dialect)
        let size = 3 * 1_048_576 + 777
        let bytes = Data(generatedBytes(count: size) { UInt8(truncatingIfNeeded: ($0 &* 131) >> 5) })
        try bytes.write(to: URL(fileURLWithPath: scratch.path("source.bin")))
        try await cli.succeed(["mb", dialect.url("vault")])
        try await cli.succeed([
            "cp", scratch.path("source.bin"), dialect.url("vault/big.bin"), "--storage-class",
            Self.archiveClass(dialect),
        ])
        let target = scratch.path("big.bin")
        // One part of 1 MiB at a time at 1 MiB/s: a kill during the download leaves at most one part in flight.
        let command = [
            "restore", dialect.url("vault/big.bin"), target, "--poll-interval", "1s", "--part-size", "1M",
            "--concurrency", "1", "--limit-rate", "1M",
        ]
        let log = server.logPath
        @Sendable func logged(_ operation: String) -> [KillResumeServer.Request] {
            KillResumeServer.requests(loggedIn: log).filter { $0.operation == operation && $0.key == "big.bin" }
        }

        // Killed while waiting, once the service has the restore; then killed during the download, once the
        // second part has been sent (one part at a time: the first is then on disk).
        _ = try await cli.interrupt(command, signal: SIGKILL) { !logged("RestoreObject").isEmpty }
        #expect(!FileManager.default.fileExists(atPath: target))
        _ = try await cli.interrupt(command, signal: SIGKILL) {
            logged("GetObject").filter { $0.status == "206" }.count >= 2
        }
        #expect(!FileManager.default.fileExists(atPath: target), "a killed download left a file at its final path")

        let last = try await cli.run(command)
        #expect(last.status == 0, "\(last.standardError)")
        #expect(
            last.standardOutput.contains("restored already, kept 1 more day: \(dialect.url("vault/big.bin"))"),
            "\(last.standardOutput)"
        )
        let report = try #require(
            reportedTransfer(
                last.standardOutput.components(separatedBy: "\n").first {
                    $0.hasPrefix("download: ")
                }.map { $0 + "\n" } ?? ""
            ),
            "\(last.standardOutput)"
        )
        #expect(report.figures.contains("resumed: "), "\(report.figures)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == bytes)
        // One restore started (the reruns found it under way or done), and the bytes fetched at most once
        // each, but for the one part in flight at the kill.
        await server.settle()
        let started = logged("RestoreObject").filter { $0.status == "202" }
        #expect(started.count == 1, "\(logged("RestoreObject").map(\.status))")
        let fetched = logged("GetObject").reduce(Int64(0)) { $0 + $1.sent }
        #expect(fetched <= Int64(size + 1_048_576), "\(fetched) bytes fetched for \(size)")
    }
}
