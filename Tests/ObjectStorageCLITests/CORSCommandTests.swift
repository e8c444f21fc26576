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

/// `objstore cors get|set|rm|check` as processes against `objstore serve` (which checks signatures, and answers
/// unsigned preflights by the rules) in the three dialects.
struct CORSCommandTests {
    static let rules = """
        <CORSConfiguration>
          <CORSRule>
            <ID>uploads</ID>
            <AllowedOrigin>https://*.example.com</AllowedOrigin>
            <AllowedMethod>PUT</AllowedMethod>
            <AllowedHeader>content-*</AllowedHeader>
            <ExposeHeader>ETag</ExposeHeader>
          </CORSRule>
        </CORSConfiguration>
        """

    @Test(arguments: ObjectsDialect.all)
    func setGetCheckRemove(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        func file(_ name: String, _ text: String) throws -> String {
            let path = scratch.path(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let bucket = dialect.url("site")
        try await cli.succeed(["mb", bucket])
        #expect(try await cli.succeed(["cors", "get", bucket]) == "")
        try await cli.succeed(["cors", "set", bucket, try file("rules.xml", Self.rules)])
        let xml = try await cli.succeed(["cors", "get", bucket])
        #expect(xml.contains("<AllowedOrigin>https://*.example.com</AllowedOrigin>"), "\(xml)")
        let json = try await cli.succeed(["cors", "get", "--json", bucket])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rules = try #require(parsed["CORSRules"] as? [[String: Any]])
        #expect(rules.first?["AllowedMethods"] as? [String] == ["PUT"] && rules.first?["ID"] as? String == "uploads")

        let allowed = try await cli.run([
            "cors", "check", dialect.url("site/photos/cat.jpg"), "--origin", "https://app.example.com",
            "--method", "PUT", "--header", "Content-Type",
        ])
        #expect(allowed.status == 0, "\(allowed.standardError)")
        #expect(
            allowed.standardOutput.hasPrefix("allowed: the service answers the preflight of PUT"),
            "\(allowed.standardOutput)"
        )
        #expect(allowed.standardOutput.contains("Access-Control-Allow-Origin: https://app.example.com"))
        #expect(allowed.standardOutput.contains("rule 1 (uploads) admits it"))

        let header = try await cli.run([
            "cors", "check", dialect.url("site/k"), "--origin", "https://app.example.com", "--method", "PUT",
            "--header", "X-Trace",
        ])
        #expect(header.status == 1 && header.standardOutput.contains("refused: "), "\(header.standardOutput)")
        #expect(header.standardOutput.contains("403 AccessForbidden"))
        #expect(header.standardOutput.contains("rule 1 (uploads) comes closest but does not allow the header X-Trace"))
        let both = try await cli.run([
            "cors", "check", bucket, "--origin", "https://evil.test", "--method", "GET", "--json",
        ])
        let verdict = try #require(
            try JSONSerialization.jsonObject(with: Data(both.standardOutput.utf8)) as? [String: Any]
        )
        #expect(both.status == 1 && verdict["allowed"] as? Bool == false && verdict["closestRule"] as? Int == 1)
        #expect(verdict["lacks"] as? [String] == ["the origin https://evil.test", "the method GET"])

        // A presigned URL, as the page uses it: the preflight goes to it, and an expired URL is named as the cause.
        let fresh = try await cli.succeed(["presign", dialect.url("site/k"), "--method", "PUT", "--expires", "600"])
        let viaURL = try await cli.run([
            "cors", "check", fresh.trimmingCharacters(in: .whitespacesAndNewlines), "--origin",
            "https://app.example.com", "--method", "PUT", "--header", "Content-Type",
        ])
        #expect(viaURL.status == 0 && viaURL.standardOutput.hasPrefix("allowed: "), "\(viaURL.standardOutput)")
        #expect(!viaURL.standardOutput.contains("X-Amz-") && !viaURL.standardOutput.contains("Signature"))
        let hourAgo = String(Int(Date().timeIntervalSince1970) - 3_600)
        let stale = try await cli.succeed([
            "presign", dialect.url("site/k"), "--method", "PUT", "--expires", "60", "--date", hourAgo,
        ])
        let expired = try await cli.run([
            "cors", "check", stale.trimmingCharacters(in: .whitespacesAndNewlines), "--origin",
            "https://app.example.com", "--method", "PUT", "--header", "Content-Type",
        ])
        #expect(expired.status == 1, "\(expired.standardOutput) \(expired.standardError)")
        #expect(expired.standardOutput.contains("allowed: "), "the preflight itself passes: \(expired.standardOutput)")
        #expect(expired.standardOutput.contains("the URL expired at "), "\(expired.standardOutput)")

        // aws-cli's JSON form is read too, and replaces the rules.
        let awsJSON =
            #"{"CORSRules": [{"AllowedOrigins": ["*"], "AllowedMethods": ["GET", "HEAD"], "MaxAgeSeconds": 60}]}"#
        try await cli.succeed(["cors", "set", bucket, try file("rules.json", awsJSON)])
        let open = try await cli.run(["cors", "check", bucket, "--origin", "https://evil.test", "--method", "GET"])
        #expect(
            open.status == 0 && open.standardOutput.contains("Access-Control-Max-Age: 60"),
            "\(open.standardOutput)"
        )

        try await cli.succeed(["cors", "rm", bucket])
        let removed = try await cli.run(["cors", "check", bucket, "--origin", "https://evil.test", "--method", "GET"])
        #expect(removed.status == 1 && removed.standardOutput.contains("the bucket has no CORS rules"))

        let malformed = try await cli.run([
            "cors", "set", bucket, try file("bad.xml", "<CORSConfiguration>\n  <CORSRule>\n  </Rule>\n"),
        ])
        #expect(
            malformed.status == 65
                && malformed.standardError.contains("'\(scratch.path("bad.xml"))' is not well-formed XML at line 3"),
            "\(malformed.standardError)"
        )
        let badJSON = try await cli.run(["cors", "set", bucket, try file("bad.json", "{\"CORSRules\": [{]}")])
        #expect(
            badJSON.status == 65 && badJSON.standardError.contains("is not a CORS configuration in JSON"),
            "\(badJSON.standardError)"
        )
        let patch = try await cli.run([
            "cors", "set", bucket,
            try file("patch.json", #"{"CORSRules": [{"AllowedOrigins": ["*"], "AllowedMethods": ["PATCH"]}]}"#),
        ])
        #expect(patch.status == 65 && patch.standardError.contains("'PATCH'"), "\(patch.standardError)")
        #expect(try await cli.succeed(["cors", "get", bucket]) == "")
    }
}
