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

/// Versions from the command line, as processes against `objstore serve`: `versioning`, `ls --versions`,
/// `--version-id` on cat, stat, cp, presign and rm, `rm -r --all-versions` and `rb --force` (with `--dryrun`).
struct VersionCommandTests {
    /// The version ids `ls --versions --json` lists under `url`, newest first per key.
    static func versions(_ cli: ObjectsCLI, _ url: String) async throws -> [(key: String, id: String, marker: Bool)] {
        let lines = try await cli.succeed(["ls", "--versions", "--recursive", "--json", url]).split(separator: "\n")
        return try lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (
                try #require(object["key"] as? String), try #require(object["versionID"] as? String),
                try #require(object["isDeleteMarker"] as? Bool)
            )
        }
    }

    @Test(arguments: ObjectsDialect.all)
    func versionsFromTheCommandLine(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let (one, two) = (scratch.path("one.txt"), scratch.path("two.txt"))
        try Data("first\n".utf8).write(to: URL(fileURLWithPath: one))
        try Data("second\n".utf8).write(to: URL(fileURLWithPath: two))

        try await cli.succeed(["mb", dialect.url("history")])
        await #expect(try cli.succeed(["versioning", dialect.url("history")]) == "Off\n")
        try await cli.succeed(["versioning", dialect.url("history"), "enable"])
        await #expect(try cli.succeed(["versioning", dialect.url("history")]) == "Enabled\n")
        try await cli.succeed(["cp", one, dialect.url("history/doc.txt")])
        try await cli.succeed(["cp", two, dialect.url("history/doc.txt")])
        let listed = try await Self.versions(cli, dialect.url("history/"))
        #expect(listed.count == 2 && listed.allSatisfy { $0.key == "doc.txt" && !$0.marker })
        let first = listed[1].id
        let text = try await cli.succeed(["ls", "--versions", dialect.url("history/")])
        #expect(text.contains("doc.txt \(listed[0].id) (latest)\n") && text.contains("doc.txt \(first)\n"), "\(text)")

        await #expect(try cli.succeed(["cat", dialect.url("history/doc.txt"), "--version-id", first]) == "first\n")
        await #expect(
            try cli.succeed(["stat", dialect.url("history/doc.txt"), "--version-id", first]).contains("Size: 6\n")
        )
        let url = try await cli.succeed(["presign", dialect.url("history/doc.txt"), "--version-id", first])
        #expect(url.contains("versionId=\(first)"))
        let downloaded = scratch.path("down.txt")
        try await cli.succeed(["cp", dialect.url("history/doc.txt"), downloaded, "--version-id", first])
        #expect(FileManager.default.contents(atPath: downloaded) == Data("first\n".utf8))
        // Restoring the first version: a copy of it onto its own key becomes the current version.
        try await cli.succeed([
            "cp", dialect.url("history/doc.txt"), dialect.url("history/doc.txt"), "--version-id", first,
        ])
        await #expect(try cli.succeed(["cat", dialect.url("history/doc.txt")]) == "first\n")

        // A plain rm leaves a delete marker; rm --version-id of the marker uncovers the object again.
        try await cli.succeed(["rm", dialect.url("history/doc.txt")])
        let marker = try #require(try await Self.versions(cli, dialect.url("history/")).first)
        #expect(marker.marker)
        let removed = try await cli.succeed(["rm", dialect.url("history/doc.txt"), "--version-id", marker.id])
        #expect(removed == "delete: \(dialect.url("history/doc.txt")) (delete marker \(marker.id))\n")
        await #expect(try cli.succeed(["cat", dialect.url("history/doc.txt")]) == "first\n")
        let unknown = try await cli.run(["rm", dialect.url("history/doc.txt"), "--version-id", "0123456789abcdef"])
        #expect(unknown.status == 2 && unknown.standardError.contains("has no version '0123456789abcdef'"))

        // A versioned bucket is not empty after rm -r: rb fails, rb --force --dryrun changes nothing, rb --force
        // removes everything and says what.
        try await cli.succeed(["rm", "-r", dialect.url("history/")])
        let refused = try await cli.run(["rb", dialect.url("history")])
        #expect(refused.status != 0 && refused.standardError.contains("BucketNotEmpty"), "\(refused.standardError)")
        let dry = try await cli.succeed(["rb", "--force", "--dryrun", dialect.url("history")])
        #expect(
            dry.hasSuffix(
                "(dryrun) remove_bucket: history (removed 3 versions, 1 delete marker, 0 unfinished uploads)\n"
            ),
            "\(dry)"
        )
        #expect(try await Self.versions(cli, dialect.url("history/")).count == 4)
        let forced = try await cli.succeed(["rb", "--force", dialect.url("history")])
        #expect(forced.split(separator: "\n").count == 5, "\(forced)")
        #expect(
            forced.hasSuffix("remove_bucket: history (removed 3 versions, 1 delete marker, 0 unfinished uploads)\n")
        )
        let gone = try await cli.run(["ls", dialect.url("history/")])
        #expect(gone.status == 2, "\(gone.standardError)")
    }

    @Test("rm -r --all-versions removes every version under a prefix and nothing else")
    func allVersionsUnderAPrefix() async throws {
        let dialect = ObjectsDialect.s3
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let file = scratch.path("a.txt")
        try Data("a".utf8).write(to: URL(fileURLWithPath: file))
        try await cli.succeed(["mb", dialect.url("mixed")])
        try await cli.succeed(["versioning", dialect.url("mixed"), "enable"])
        for key in ["logs/1", "logs/1", "logs/2", "logsx", "keep/3"] {
            try await cli.succeed(["cp", file, dialect.url("mixed/\(key)")])
        }
        try await cli.succeed(["rm", dialect.url("mixed/logs/2")])
        let output = try await cli.succeed(["rm", "-r", "--all-versions", dialect.url("mixed/logs")])
        #expect(output.split(separator: "\n").count == 4, "\(output)")
        #expect(output.contains("(delete marker "))
        let left = try await Self.versions(cli, dialect.url("mixed/")).map(\.key)
        #expect(left == ["keep/3", "logsx"])
        let usage = try await cli.run(["rm", "--all-versions", dialect.url("mixed/keep/3")])
        #expect(usage.status == 64)
    }
}
