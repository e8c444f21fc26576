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

/// `objstore lifecycle get|set|rm` as processes against `objstore serve`, whose `--lifecycle-day` makes a day last
/// a second, so that the rules set are seen to act.
struct LifecycleCommandTests {
    /// aws-cli's JSON, as `aws s3api get-bucket-lifecycle-configuration` prints it.
    static let json = """
        {
          "Rules": [
            {"ID": "tmp", "Filter": {"Prefix": "tmp/"}, "Status": "Enabled", "Expiration": {"Days": 2}},
            {"ID": "uploads", "Filter": {"Prefix": "up/"}, "Status": "Enabled",
             "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 30}}
          ]
        }
        """

    @Test(arguments: ObjectsDialect.all)
    func setActGetRemove(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start(arguments: ["--log-level", "warning", "--lifecycle-day", "1s"])
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        func file(_ name: String, _ text: String) throws -> String {
            let path = scratch.path(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let bucket = dialect.url("rules")
        try await cli.succeed(["mb", bucket])
        #expect(try await cli.succeed(["lifecycle", "get", bucket]) == "")
        try await cli.succeed(["lifecycle", "set", bucket, try file("rules.json", Self.json)])
        let xml = try await cli.succeed(["lifecycle", "get", bucket])
        #expect(xml.contains("<ID>tmp</ID>") && xml.contains("<Days>2</Days>"), "\(xml)")
        let printed = try await cli.succeed(["lifecycle", "get", "--json", bucket])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any])
        let rules = try #require(parsed["Rules"] as? [[String: Any]])
        #expect(rules.map { $0["ID"] as? String } == ["tmp", "uploads"])
        #expect((rules[0]["Expiration"] as? [String: Any])?["Days"] as? Int == 2)

        // A day lasts a second here: the object under tmp/ goes after about two, the other stays. (Rules whose
        // prefixes overlap, as "tmp/" and "" would, OBS refuses.)
        let source = try file("one", "1")
        try await cli.succeed(["cp", source, dialect.url("rules/tmp/a")])
        try await cli.succeed(["cp", source, dialect.url("rules/keep/b")])
        var listing = ""
        for _ in 0..<40 {
            listing = try await cli.succeed(["ls", "-r", bucket])
            if !listing.contains("tmp/a") { break }
            try await Task.sleep(for: .milliseconds(250))
        }
        #expect(!listing.contains("tmp/a") && listing.contains("keep/b"), "\(listing)")

        try await cli.succeed(["lifecycle", "rm", bucket])
        #expect(try await cli.succeed(["lifecycle", "get", bucket]) == "")
    }

    @Test("a malformed file is named with its line, a refused rule with its fault, and nothing is sent")
    func badFiles() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        let scratch = try ObjectsScratch()
        func file(_ name: String, _ text: String) throws -> String {
            let path = scratch.path(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let bucket = ObjectsDialect.s3.url("bad")
        try await cli.succeed(["mb", bucket])
        let broken = try await cli.run([
            "lifecycle", "set", bucket,
            try file(
                "broken.xml",
                "<LifecycleConfiguration>\n<Rule>\n<Status>Enabled</Rule>\n</LifecycleConfiguration>"
            ),
        ])
        #expect(broken.status != 0 && broken.standardError.contains("line 3"), "\(broken.standardError)")
        #expect(broken.standardError.contains("broken.xml"))
        let zero = try await cli.run([
            "lifecycle", "set", bucket,
            try file("zero.json", #"{"Rules": [{"Status": "Enabled", "Expiration": {"Days": 0}}]}"#),
        ])
        #expect(
            zero.status != 0 && zero.standardError.contains("days must be a positive integer"),
            "\(zero.standardError)"
        )
        let date = try await cli.run([
            "lifecycle", "set", bucket,
            try file(
                "date.json",
                #"{"Rules": [{"Status": "Enabled", "Expiration": {"Date": "2027-01-01T10:00:00Z"}}]}"#
            ),
        ])
        #expect(date.status != 0 && date.standardError.contains("not a midnight UTC date"), "\(date.standardError)")
        #expect(try await cli.succeed(["lifecycle", "get", bucket]) == "")
    }
}
