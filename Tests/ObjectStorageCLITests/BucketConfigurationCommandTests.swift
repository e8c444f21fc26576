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

/// `objstore policy`, `objstore encryption` and `objstore acl` as processes against `objstore serve` (which checks
/// signatures) in the three dialects.
struct BucketConfigurationCommandTests {
    static func policy(_ dialect: ObjectsDialect) -> String {
        switch dialect.scheme {
        case "oss":
            """
            {
              "Version": "1",
              "Statement": [{"Effect": "Allow", "Action": ["oss:GetObject"], "Principal": ["*"], "Resource": ["acs:oss:*:*:site/*"]}]
            }
            """
        case "obs":
            """
            {
              "Statement": [{"Effect": "Allow", "Action": ["GetObject"], "Principal": {"ID": ["*"]}, "Resource": ["site/*"]}]
            }
            """
        default:
            """
            {
              "Version": "2012-10-17",
              "Statement": [{"Effect": "Allow", "Action": "s3:GetObject", "Principal": "*", "Resource": "arn:aws:s3:::site/*"}]
            }
            """
        }
    }

    @Test(arguments: ObjectsDialect.all)
    func policySetGetRemove(_ dialect: ObjectsDialect) async throws {
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
        #expect(try await cli.succeed(["policy", "get", bucket]) == "")
        let policy = Self.policy(dialect)
        try await cli.succeed(["policy", "set", bucket, try file("policy.json", policy)])
        #expect(try await cli.succeed(["policy", "get", bucket]) == policy + "\n")
        // aws-cli's form: printed with --json, and read back by set.
        let wrapped = try await cli.succeed(["policy", "get", "--json", bucket])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(wrapped.utf8)) as? [String: String])
        #expect(parsed == ["Policy": policy])
        try await cli.succeed(["policy", "rm", bucket])
        #expect(try await cli.succeed(["policy", "get", bucket]) == "")
        try await cli.succeed(["policy", "set", bucket, try file("wrapped.json", wrapped)])
        #expect(try await cli.succeed(["policy", "get", bucket]) == policy + "\n")

        // A file that is not JSON is named with the line of the error; nothing is sent.
        let broken = try file("broken.json", "{\n  \"Statement\": [\n    {\"Effect\": \"Allow\",}\n  ]\n}\n")
        let malformed = try await cli.run(["policy", "set", bucket, broken])
        #expect(malformed.status == 65, "\(malformed.standardError)")
        #expect(
            malformed.standardError.contains(
                "'\(broken)' is not valid JSON at line 3: expected a member name after ','"
            ),
            "\(malformed.standardError)"
        )
        let noStatement = try await cli.run(["policy", "set", bucket, try file("empty.json", "{\"Version\": \"1\"}")])
        #expect(noStatement.status == 65 && noStatement.standardError.contains("has no Statement"))
        #expect(try await cli.succeed(["policy", "get", bucket]) == policy + "\n", "the policy is as it was")
        let missing = try await cli.run(["policy", "set", bucket, scratch.path("absent.json")])
        #expect(missing.status == 2, "\(missing.standardError)")
    }

    @Test(arguments: ObjectsDialect.all)
    func encryptionSetGetRemove(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let bucket = dialect.url("records")
        try await cli.succeed(["mb", bucket])
        #expect(try await cli.succeed(["encryption", "get", bucket]) == "")
        try await cli.succeed(["encryption", "set", bucket, "--algorithm", "AES256"])
        #expect(try await cli.succeed(["encryption", "get", bucket]) == "AES256\n")
        try await cli.succeed(["encryption", "set", bucket, "--algorithm", "kms", "--kms-key-id", "alias/records"])
        #expect(try await cli.succeed(["encryption", "get", bucket]) == "KMS\nkms-key-id: alias/records\n")
        let json = try await cli.succeed(["encryption", "get", "--json", bucket])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
        #expect(parsed == ["algorithm": "KMS", "kmsKeyID": "alias/records"])
        let sm4 = try await cli.run(["encryption", "set", bucket, "--algorithm", "SM4"])
        if dialect.scheme == "oss" {
            #expect(sm4.status == 0, "\(sm4.standardError)")
        } else {
            #expect(
                sm4.status == 65 && sm4.standardError.contains("no default encryption 'SM4'"),
                "\(sm4.standardError)"
            )
        }
        let keyWithoutKMS = try await cli.run([
            "encryption", "set", bucket, "--algorithm", "AES256", "--kms-key-id", "k",
        ])
        #expect(keyWithoutKMS.status == 65, "\(keyWithoutKMS.standardError)")
        try await cli.succeed(["encryption", "rm", bucket])
        #expect(try await cli.succeed(["encryption", "get", bucket]) == "")
    }

    @Test(arguments: ObjectsDialect.all)
    func aclOfBucketsAndObjects(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let path = scratch.path("index.html")
        try Data("<html/>".utf8).write(to: URL(fileURLWithPath: path))
        let bucket = dialect.url("site")
        try await cli.succeed(["mb", bucket])
        try await cli.succeed(["cp", path, dialect.url("site/index.html")])
        #expect(try await cli.succeed(["acl", "get", bucket]).hasPrefix("private\n"))
        try await cli.succeed(["acl", "set", bucket, "public-read"])
        let bucketACL = try await cli.succeed(["acl", "get", bucket])
        #expect(bucketACL.hasPrefix("public-read\n"), "\(bucketACL)")
        if dialect.scheme != "oss" { #expect(bucketACL.contains("READ "), "\(bucketACL)") }

        let object = dialect.url("site/index.html")
        let fresh = try await cli.succeed(["acl", "get", object])
        #expect(fresh.hasPrefix(dialect.scheme == "oss" ? "default\n" : "private\n"), "\(fresh)")
        try await cli.succeed(["acl", "set", object, "public-read-write"])
        let json = try await cli.succeed(["acl", "get", "--json", object])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(parsed["cannedACL"] as? String == "public-read-write", "\(json)")
        let grants = parsed["grants"] as? [[String: Any]] ?? []
        #expect(grants.count == (dialect.scheme == "oss" ? 0 : 3), "\(json)")

        let unknown = try await cli.run(["acl", "set", object, "public-read-delivered"])
        #expect(unknown.status == 65, "\(unknown.standardError)")
        #expect(
            unknown.standardError.contains("'public-read-delivered' is not a canned ACL"),
            "\(unknown.standardError)"
        )
        let missing = try await cli.run(["acl", "get", dialect.url("site/absent")])
        #expect(missing.status == 2, "\(missing.standardError)")
    }
}
