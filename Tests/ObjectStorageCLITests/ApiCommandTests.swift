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

/// `objstore api METHOD URL`: any request, as a process against `objstore serve`, in every dialect.
struct ApiCommandTests {
    @Test(arguments: ObjectsDialect.all)
    func sendsAnyRequestAndPrintsTheAnswer(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let file = scratch.path("note.txt")
        try Data("hello, api\n".utf8).write(to: URL(fileURLWithPath: file))
        let meta = "x-\(dialect.scheme == "s3" ? "amz" : dialect.scheme)-meta-team"

        try await cli.succeed(["api", "PUT", dialect.url("raw")])
        try await cli.succeed([
            "api", "PUT", dialect.url("raw/dir/note.txt"), "--body-file", file,
            "--header", "Content-Type: text/plain", "--header", "\(meta): web",
        ])
        // Standard input as the body, and the body alone on standard output.
        let input = scratch.path("input.txt")
        try Data("from a pipe".utf8).write(to: URL(fileURLWithPath: input))
        let piped = try await cli.run(
            ["api", "PUT", dialect.url("raw/piped.txt"), "--body-file", "-"],
            standardInput: input
        )
        #expect(piped.status == 0, "\(piped.standardError)")
        await #expect(try cli.succeed(["api", "GET", dialect.url("raw/piped.txt")]) == "from a pipe")
        await #expect(try cli.succeed(["api", "GET", dialect.url("raw/dir/note.txt")]) == "hello, api\n")

        let head = try Self.object(try await cli.succeed(["api", "HEAD", dialect.url("raw/dir/note.txt"), "--json"]))
        #expect(head["status"] as? Int == 200)
        let headers = try #require(head["headers"] as? [String: String])
        #expect(headers["content-length"] == "11")
        #expect(headers[meta] == "web")

        // The query in the URL and in --query; the listing as text in JSON.
        let listing = try Self.object(
            try await cli.succeed(["api", "GET", dialect.url("raw/?list-type=2"), "--query", "prefix=dir/", "--json"])
        )
        let xml = try #require(listing["body"] as? String)
        #expect(xml.contains("<Key>dir/note.txt</Key>"))
        #expect(!xml.contains("piped.txt"))

        let buckets = try await cli.succeed(["api", "GET", "\(dialect.scheme)://"])
        #expect(buckets.contains("<Name>raw</Name>"))

        // A sub-resource the server does not implement: the vendor's code, and no output.
        let cors = try await cli.run(["api", "GET", dialect.url("raw/?website")])
        #expect(cors.status == 1)
        #expect(cors.standardOutput.isEmpty)
        #expect(cors.standardError.contains("NotImplemented"), "\(cors.standardError)")

        let missing = try await cli.run(["api", "GET", dialect.url("raw/absent")])
        #expect(missing.status == 2)

        let refused = try await cli.run(["api", "PATCH", dialect.url("raw/dir/note.txt")])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("PATCH"), "\(refused.standardError)")
    }

    private static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
