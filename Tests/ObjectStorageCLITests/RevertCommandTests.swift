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

/// `objstore revert URL/PREFIX/ --to TIME`: the keys under the prefix made what they were, as processes against
/// `objstore serve`; and killed with SIGKILL at random instants, rerun until done, exactly once.
struct RevertCommandTests {
    /// The instant between the writes before it and those after: the server's times have whole seconds.
    static func pointInTime() async throws -> String {
        try await Task.sleep(for: .milliseconds(1_100))
        let instant = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        try await Task.sleep(for: .milliseconds(1_100))
        return instant.formatted(.iso8601)
    }

    /// Each key's versions under `url` as `ls --versions --json` lists them: key → [(id, is a delete marker)].
    static func versions(
        _ url: String,
        listing run: ([String]) async throws -> String
    ) async throws -> [String: [(String, Bool)]] {
        var versions: [String: [(String, Bool)]] = [:]
        for line in try await run(["ls", "--versions", "--recursive", "--json", url]).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let key = try #require(object["key"] as? String)
            versions[key, default: []].append(
                (try #require(object["versionID"] as? String), try #require(object["isDeleteMarker"] as? Bool))
            )
        }
        return versions
    }

    @Test(arguments: ObjectsDialect.all)
    func revertsAPrefix(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        func file(_ name: String, _ text: String) throws -> String {
            let path = scratch.path(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        // The default manifest lives in the user's cache, which the tests' environment does not have.
        let manifest = scratch.path("revert.manifest")
        try await cli.succeed(["mb", dialect.url("site")])
        let unversioned = try await cli.run([
            "revert", dialect.url("site/"), "--to", "2026-01-01T00:00:00Z", "--manifest", manifest,
        ])
        #expect(
            unversioned.status == 65 && unversioned.standardError.contains("never versioned"),
            "\(unversioned.standardError)"
        )
        try await cli.succeed(["versioning", dialect.url("site"), "enable"])
        for key in ["a", "c", "d", "other"] {
            try await cli.succeed(["cp", try file("old-\(key)", "old \(key)"), dialect.url("site/p/\(key)")])
        }
        try await cli.succeed(["cp", try file("outside", "outside"), dialect.url("site/q")])
        let then = try await Self.pointInTime()
        try await cli.succeed(["cp", try file("new-a", "new a"), dialect.url("site/p/a")])
        try await cli.succeed(["cp", try file("new-b", "new b"), dialect.url("site/p/b")])
        try await cli.succeed(["rm", dialect.url("site/p/c")])
        try await cli.succeed(["cp", try file("new-q", "new q"), dialect.url("site/q")])

        let dry = try await cli.succeed(["revert", dialect.url("site/p/"), "--to", then, "--dryrun"])
        #expect(dry.hasSuffix("(dryrun) revert: 2 restored, 1 deleted, 2 unchanged\n"), "\(dry)")
        await #expect(try cli.succeed(["cat", dialect.url("site/p/a")]) == "new a")

        let output = try await cli.succeed(["revert", dialect.url("site/p/"), "--to", then, "--manifest", manifest])
        #expect(output.contains("restore: \(dialect.url("site/p/a")) (version "), "\(output)")
        #expect(output.contains("delete: \(dialect.url("site/p/b"))\n"))
        #expect(output.hasSuffix("revert: 2 restored, 1 deleted, 2 unchanged\n"))
        await #expect(try cli.succeed(["cat", dialect.url("site/p/a")]) == "old a")
        await #expect(try cli.succeed(["cat", dialect.url("site/p/c")]) == "old c")
        await #expect(try cli.succeed(["cat", dialect.url("site/p/d")]) == "old d")
        #expect(try await cli.run(["cat", dialect.url("site/p/b")]).status == 2)
        await #expect(try cli.succeed(["cat", dialect.url("site/q")]) == "new q")

        // Again: nothing left to do, and no version added.
        let before = try await Self.versions(dialect.url("site/")) { try await cli.succeed($0) }.mapValues(\.count)
        let again = try await cli.succeed([
            "revert", dialect.url("site/p/"), "--to", then, "--json", "--manifest", manifest,
        ])
        #expect(!again.contains("\"restore\"") && !again.contains("\"delete\""), "\(again)")
        #expect(
            try await Self.versions(dialect.url("site/")) { try await cli.succeed($0) }.mapValues(\.count) == before
        )

        let malformed = try await cli.run(["revert", dialect.url("site/p/"), "--to", "yesterday"])
        #expect(malformed.status == 64 && malformed.standardError.contains("is not an ISO 8601 time"))
        let future = try await cli.run(["revert", dialect.url("site/p/"), "--to", "2999-01-01T00:00:00Z"])
        #expect(future.status == 65 && future.standardError.contains("is in the future"))
    }

    @Test("revert killed with SIGKILL at random instants, rerun until done: the snapshot, each key changed once")
    func killedAtRandomInstants() async throws {
        let scratch = try ObjectsScratch()
        let server = try await KillResumeServer.start(
            faults: ["op=CopyObject,delay-headers=10", "op=DeleteObject,delay-headers=10"],
            logPath: scratch.path("serve.log")
        )
        defer { server.stop() }
        let runner = KillResumeRunner(server: server, dialect: .s3)
        let names = (0..<90).map { "k\($0 < 10 ? "0" : "")\($0)" }
        func write(_ text: (String) -> String?, under directory: String) throws {
            try DirectoryCommandTests.write(
                names.compactMap { name in text(name).map { (name, Data($0.utf8)) } },
                under: directory
            )
        }
        // Before: k00...k59. After: k00...k29 rewritten, k30...k44 deleted, k60...k89 new.
        try write({ $0 < "k60" ? "old \($0)" : nil }, under: scratch.path("before"))
        try write({ $0 < "k30" || $0 >= "k60" ? "new \($0)" : nil }, under: scratch.path("after"))
        try await runner.succeed(["mb", "s3://revert"])
        try await runner.succeed(["versioning", "s3://revert", "enable"])
        try await runner.succeed(["cp", "-r", scratch.path("before"), "s3://revert/", "--no-checkpoint"])
        let then = try await Self.pointInTime()
        try await runner.succeed(["cp", "-r", scratch.path("after"), "s3://revert/", "--no-checkpoint"])
        for name in names where name >= "k30" && name < "k45" {
            try await runner.succeed(["rm", "s3://revert/\(name)"])
        }

        let manifest = scratch.path("revert.manifest")
        var random = SplitMix64(seed: 37)
        var kills = 0
        for _ in 0...5 {
            let lines = DirectoryKillResumeTests.records(in: manifest).count
            var trigger: (@Sendable () -> Bool)?
            if kills < 4 {
                let kill = ManifestKillTrigger(
                    manifest: manifest,
                    records: lines + Int.random(in: 1...20, using: &random),
                    after: .milliseconds(Int.random(in: 0...15, using: &random))
                )
                trigger = { kill.isDue() }
            }
            let (result, killed) = try await runner.start(
                ["revert", "s3://revert/", "--to", then, "--manifest", manifest],
                killWhen: trigger
            )
            guard killed else {
                #expect(result.status == 0, "\(result.standardError)")
                break
            }
            kills += 1
        }
        #expect(kills >= 1, "no run was killed; the revert finished too fast to test")
        #expect(!FileManager.default.fileExists(atPath: manifest))

        // The snapshot: every key what it was, and each changed key changed exactly once.
        let versions = try await Self.versions("s3://revert/") { try await runner.succeed($0) }
        for name in names {
            let kept = versions[name] ?? []
            if name < "k30" {
                await #expect(try runner.succeed(["cat", "s3://revert/\(name)"]) == "old \(name)")
                #expect(kept.count == 3, "\(name): old, new, restored")
            } else if name < "k45" {
                await #expect(try runner.succeed(["cat", "s3://revert/\(name)"]) == "old \(name)")
                #expect(kept.count == 3, "\(name): old, marker, restored")
            } else if name < "k60" {
                #expect(kept.count == 1, "\(name): untouched")
            } else {
                #expect(kept.map(\.1) == [true, false], "\(name): new, then a delete marker")
            }
        }
    }
}
