//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageLocalServer
import ObjectStorageSigning
import Testing

/// A bucket's policy, default encryption and canned ACLs on the server, in the three dialects: kept as put,
/// answered in each dialect's form, refused as the services refuse them.
@Suite("Bucket policy, encryption and ACLs on the server")
struct BucketConfigurationServerTests {
    static let dialects: [(String, [(String, String)])] = [("s3", []), ("oss", ossDialect), ("obs", obsDialect)]

    static let policy = """
        {
          "Version": "1",
          "Statement": [
            {"Effect": "Allow", "Action": ["oss:GetObject"], "Principal": ["*"], "Resource": ["acs:oss:*:*:b/*"]}
          ]
        }
        """

    static func md5(_ body: [UInt8]) -> (String, String) {
        ("Content-MD5", ByteEncoding.base64(Hashing.MD5.hash(body)))
    }

    // MARK: Policy

    @Test("a policy is kept as put and answered as it is; a bucket without one answers NoSuchBucketPolicy")
    func policyKeptAndRemoved() async throws {
        try await withServer { client, _ in
            for (name, dialect) in Self.dialects {
                let bucket = "policy-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                let none = try await client.send("GET", "/\(bucket)?policy", headers: dialect)
                #expect(none.status == 404 && none.element("Code") == "NoSuchBucketPolicy", "\(name): \(none.text)")
                let put = try await client.send(
                    "PUT",
                    "/\(bucket)?policy",
                    headers: dialect,
                    body: Array(Self.policy.utf8)
                )
                #expect(put.status == (name == "oss" ? 200 : 204), "\(name): \(put.text)")
                let got = try await client.send("GET", "/\(bucket)?policy", headers: dialect)
                #expect(got.status == 200 && got.text == Self.policy, "\(name): \(got.text)")
                #expect(got.header("Content-Type") == "application/json")
                #expect(try await client.send("DELETE", "/\(bucket)?policy", headers: dialect).status == 204)
                #expect(try await client.send("GET", "/\(bucket)?policy", headers: dialect).status == 404)
                // Not a thing of objects, and not of a missing bucket.
                #expect(try await client.send("GET", "/\(bucket)/k?policy", headers: dialect).status == 501)
                let missing = try await client.send("GET", "/nosuchbucket?policy", headers: dialect)
                #expect(missing.status == 404 && missing.element("Code") == "NoSuchBucket")
            }
        }
    }

    @Test(
        "a policy that is no document is refused with the service's code and nothing is kept",
        arguments: [
            // (dialect, body, code, OSS's entry code)
            ("s3", "not json", "MalformedPolicy", nil),
            ("s3", "{\"Statement\": [}", "MalformedPolicy", nil),
            ("s3", "{\"Version\": \"2012-10-17\"}", "MalformedPolicy", nil),
            ("s3", "{\"Statement\": [{\"Effect\": \"Maybe\", \"Action\": \"s3:*\"}]}", "MalformedPolicy", nil),
            ("oss", "[1]", "InvalidPolicyDocument", "0030-00000005"),
            ("oss", "{\"Version\": \"2\", \"Statement\": []}", "InvalidPolicyDocument", "0030-00000002"),
            ("oss", "{\"Version\": 1, \"Statement\": []}", "InvalidPolicyDocument", "0030-00000005"),
            (
                "oss", "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": [\"oss:*\"]}]}", "InvalidPolicyDocument",
                "0030-00000002"
            ),
            ("obs", "{\"Statement\": {\"Effect\": \"Allow\", \"Action\": [\"*\"]}}", "MalformedPolicy", nil),
            ("obs", "{", "MalformedPolicy", nil),
        ] as [(String, String, String, String?)]
    )
    func policyRefusals(_ dialectName: String, _ body: String, _ code: String, _ entry: String?) async throws {
        let dialect = Self.dialects.first { $0.0 == dialectName }!.1
        try await withServer { client, _ in
            #expect(try await client.send("PUT", "/bkt", headers: dialect).status == 200)
            let refused = try await client.send("PUT", "/bkt?policy", headers: dialect, body: Array(body.utf8))
            #expect(refused.status == 400 && refused.element("Code") == code, "\(refused.text)")
            if let entry { #expect(refused.element("EC") == entry, "\(refused.text)") }
            if dialectName == "s3", body == "not json" {
                // XML escapes the quotes: &apos;{&apos;.
                #expect(
                    refused.element("Message")?.hasPrefix("Policies must be valid JSON and the first byte must be")
                        == true
                )
            }
            #expect(try await client.send("GET", "/bkt?policy", headers: dialect).status == 404)
        }
    }

    @Test("the size limits: 20 KiB on S3 (whitespace not counted) and OBS, 16 KiB on OSS")
    func policySizeLimits() async throws {
        func policy(statements: Int, padding: Int, version: String) -> String {
            let statement = "{\"Effect\": \"Allow\", \"Action\": [\"x:GetObject\"], \"Resource\": [\"r\"]}"
            return "{\"Version\": \"\(version)\",\(String(repeating: " ", count: padding)) \"Statement\": ["
                + Array(repeating: statement, count: statements).joined(separator: ",") + "]}"
        }
        try await withServer { client, _ in
            for (name, dialect) in Self.dialects {
                _ = try await client.send("PUT", "/size-\(name)", headers: dialect)
                let version = name == "oss" ? "1" : "2012-10-17"
                // About 17 KB: over OSS's limit only.
                let middling = Array(policy(statements: 260, padding: 0, version: version).utf8)
                let answer = try await client.send("PUT", "/size-\(name)?policy", headers: dialect, body: middling)
                #expect((answer.status == 400) == (name == "oss"), "\(name): \(middling.count) \(answer.text)")
                if name == "oss" { #expect(answer.element("EC") == "0030-00000001") }
                // 25 KB of which 10 KB are spaces: S3 keeps it, OBS does not.
                let padded = Array(policy(statements: 220, padding: 10_000, version: version).utf8)
                let second = try await client.send("PUT", "/size-\(name)?policy", headers: dialect, body: padded)
                #expect((second.status < 300) == (name == "s3"), "\(name): \(padded.count) \(second.text)")
                let large = Array(policy(statements: 400, padding: 0, version: version).utf8)
                let third = try await client.send("PUT", "/size-\(name)?policy", headers: dialect, body: large)
                #expect(third.status == 400, "\(name)")
                if name == "s3" { #expect(third.element("Code") == "PolicyTooLarge") }
            }
        }
    }

    // MARK: Encryption

    @Test("a default encryption is kept and answered in each dialect's document; objects written after it report it")
    func encryptionKeptAndReported() async throws {
        try await withServer { client, _ in
            let documents = [
                "s3": "<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault>"
                    + "<SSEAlgorithm>aws:kms</SSEAlgorithm><KMSMasterKeyID>key-1</KMSMasterKeyID>"
                    + "</ApplyServerSideEncryptionByDefault></Rule></ServerSideEncryptionConfiguration>",
                "oss": "<ServerSideEncryptionRule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>KMS</SSEAlgorithm>"
                    + "<KMSMasterKeyID>key-1</KMSMasterKeyID></ApplyServerSideEncryptionByDefault>"
                    + "</ServerSideEncryptionRule>",
                "obs": "<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault>"
                    + "<SSEAlgorithm>kms</SSEAlgorithm><KMSMasterKeyID>key-1</KMSMasterKeyID>"
                    + "</ApplyServerSideEncryptionByDefault></Rule></ServerSideEncryptionConfiguration>",
            ]
            let notFound = [
                "s3": "ServerSideEncryptionConfigurationNotFoundError", "oss": "NoSuchServerSideEncryptionRule",
                "obs": "NoSuchEncryptionConfiguration",
            ]
            let prefix = ["s3": "x-amz-", "oss": "x-oss-", "obs": "x-obs-"]
            let keyHeader = [
                "s3": "x-amz-server-side-encryption-aws-kms-key-id", "oss": "x-oss-server-side-encryption-key-id",
                "obs": "x-obs-server-side-encryption-kms-key-id",
            ]
            for (name, dialect) in Self.dialects {
                let bucket = "sse-\(name)"
                _ = try await client.send("PUT", "/\(bucket)", headers: dialect)
                _ = try await client.send("PUT", "/\(bucket)/before", headers: dialect, body: [1])
                let none = try await client.send("GET", "/\(bucket)?encryption", headers: dialect)
                #expect(none.status == 404 && none.element("Code") == notFound[name], "\(name): \(none.text)")
                let body = Array(documents[name]!.utf8)
                let put = try await client.send(
                    "PUT",
                    "/\(bucket)?encryption",
                    headers: dialect + [Self.md5(body)],
                    body: body
                )
                #expect(put.status == 200, "\(name): \(put.text)")
                let got = try await client.send("GET", "/\(bucket)?encryption", headers: dialect)
                #expect(got.status == 200 && got.element("KMSMasterKeyID") == "key-1", "\(name): \(got.text)")
                #expect(got.element("SSEAlgorithm") == ["s3": "aws:kms", "oss": "KMS", "obs": "kms"][name])
                // Read in another dialect, the same setting in that dialect's words.
                let other = try await client.send(
                    "GET",
                    "/\(bucket)?encryption",
                    headers: name == "oss" ? [] : ossDialect
                )
                #expect(other.element("SSEAlgorithm") == (name == "oss" ? "aws:kms" : "KMS"), "\(other.text)")

                let written = try await client.send("PUT", "/\(bucket)/after", headers: dialect, body: [2])
                let algorithmHeader = prefix[name]! + "server-side-encryption"
                #expect(written.header(algorithmHeader) == got.element("SSEAlgorithm"), "\(name)")
                #expect(written.header(keyHeader[name]!) == "key-1", "\(name)")
                let head = try await client.send("HEAD", "/\(bucket)/after", headers: dialect)
                #expect(head.header(algorithmHeader) == got.element("SSEAlgorithm"), "\(name)")
                #expect(
                    try await client.send("HEAD", "/\(bucket)/before", headers: dialect).header(algorithmHeader) == nil
                )
                // An object's own header wins over the default.
                let own = try await client.send(
                    "PUT",
                    "/\(bucket)/own",
                    headers: dialect + [(algorithmHeader, "AES256")],
                    body: [3]
                )
                #expect(own.header(algorithmHeader) == "AES256" && own.header(keyHeader[name]!) == nil, "\(name)")
                let upload = try await client.send("POST", "/\(bucket)/multi?uploads", headers: dialect)
                #expect(upload.header(algorithmHeader) == got.element("SSEAlgorithm"), "\(name)")

                #expect(try await client.send("DELETE", "/\(bucket)?encryption", headers: dialect).status == 204)
                #expect(try await client.send("GET", "/\(bucket)?encryption", headers: dialect).status == 404)
                let later = try await client.send("PUT", "/\(bucket)/later", headers: dialect, body: [4])
                #expect(later.header(algorithmHeader) == nil)
                // What was written under the default keeps reporting it.
                #expect(
                    try await client.send("HEAD", "/\(bucket)/after", headers: dialect).header(algorithmHeader) != nil
                )
            }
        }
    }

    @Test(
        "a default encryption the service refuses is refused with its code",
        arguments: [
            ("s3", "DES", nil, "MalformedXML"),
            ("s3", "AES256", "key", "InvalidArgument"),
            ("s3", "SM4", nil, "MalformedXML"),
            ("oss", "DES", nil, "InvalidEncryptionAlgorithmError"),
            ("oss", "AES256", "key", "InvalidArgument"),
            ("obs", "SM4", nil, "MalformedXML"),
            ("obs", "AES256", "key", "InvalidArgument"),
        ] as [(String, String, String?, String)]
    )
    func encryptionRefusals(_ dialectName: String, _ algorithm: String, _ key: String?, _ code: String) async throws {
        let dialect = Self.dialects.first { $0.0 == dialectName }!.1
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt", headers: dialect)
            let apply =
                "<ApplyServerSideEncryptionByDefault><SSEAlgorithm>\(algorithm)</SSEAlgorithm>"
                + (key.map { "<KMSMasterKeyID>\($0)</KMSMasterKeyID>" } ?? "") + "</ApplyServerSideEncryptionByDefault>"
            let document =
                dialectName == "oss"
                ? "<ServerSideEncryptionRule>\(apply)</ServerSideEncryptionRule>"
                : "<ServerSideEncryptionConfiguration><Rule>\(apply)</Rule></ServerSideEncryptionConfiguration>"
            let body = Array(document.utf8)
            let refused = try await client.send(
                "PUT",
                "/bkt?encryption",
                headers: dialect + [Self.md5(body)],
                body: body
            )
            #expect(refused.status == 400 && refused.element("Code") == code, "\(refused.text)")
            #expect(try await client.send("GET", "/bkt?encryption", headers: dialect).status == 404)
        }
    }

    @Test("S3 needs the document's Content-MD5 or checksum; another vendor's document is malformed")
    func encryptionDocumentRules() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let s3 = Array(BucketEncryption.aes256.document(for: .s3))
            let unsigned = try await client.send("PUT", "/bkt?encryption", body: s3)
            #expect(unsigned.status == 400 && unsigned.element("Code") == "InvalidRequest", "\(unsigned.text)")
            let oss = Array(BucketEncryption.aes256.document(for: .oss))
            let foreign = try await client.send("PUT", "/bkt?encryption", headers: [Self.md5(oss)], body: oss)
            #expect(foreign.status == 400 && foreign.element("Code") == "MalformedXML", "\(foreign.text)")
            // OSS and OBS take it without a digest, as their SDKs send it.
            _ = try await client.send("PUT", "/ccc", headers: obsDialect)
            #expect(try await client.send("PUT", "/ccc?encryption", headers: obsDialect, body: s3).status == 200)
        }
    }

    // MARK: ACL

    @Test("canned ACLs of buckets and objects are kept, and answered as OSS names them and S3 and OBS grant them")
    func aclKeptAndAnswered() async throws {
        try await withServer { client, _ in
            let header = ["s3": "x-amz-acl", "oss": "x-oss-acl", "obs": "x-obs-acl"]
            let objectHeader = ["s3": "x-amz-acl", "oss": "x-oss-object-acl", "obs": "x-obs-acl"]
            for (name, dialect) in Self.dialects {
                let bucket = "acl-\(name)"
                // Created with a canned ACL.
                let created = try await client.send(
                    "PUT",
                    "/\(bucket)",
                    headers: dialect + [(header[name]!, "public-read")]
                )
                #expect(created.status == 200, "\(name): \(created.text)")
                let read = try await client.send("GET", "/\(bucket)?acl", headers: dialect)
                #expect(read.status == 200, "\(name): \(read.text)")
                switch name {
                case "oss":
                    #expect(read.element("Grant") == "public-read", "\(read.text)")
                case "s3":
                    #expect(read.elements("URI") == [ACLDocument.allUsers], "\(read.text)")
                    #expect(read.elements("Permission") == ["FULL_CONTROL", "READ"], "\(read.text)")
                    #expect(read.text.contains("xsi:type=\"Group\""), "\(read.text)")
                default:
                    #expect(read.elements("Canned") == ["Everyone"], "\(read.text)")
                    #expect(read.elements("Delivered") == ["false", "false"], "\(read.text)")
                }
                let set = try await client.send(
                    "PUT",
                    "/\(bucket)?acl",
                    headers: dialect + [(header[name]!, "private")]
                )
                #expect(set.status == 200, "\(name): \(set.text)")
                let privateACL = try await client.send("GET", "/\(bucket)?acl", headers: dialect)
                #expect(
                    name == "oss"
                        ? privateACL.element("Grant") == "private"
                        : privateACL.elements("Permission") == ["FULL_CONTROL"],
                    "\(name): \(privateACL.text)"
                )

                // Objects: their own ACL, or none (OSS "default").
                _ = try await client.send("PUT", "/\(bucket)/k", headers: dialect, body: [1])
                let plain = try await client.send("GET", "/\(bucket)/k?acl", headers: dialect)
                #expect(plain.status == 200, "\(name): \(plain.text)")
                if name == "oss" { #expect(plain.element("Grant") == "default") }
                if name == "obs" { #expect(plain.element("Delivered") == "true", "\(plain.text)") }
                let objectSet = try await client.send(
                    "PUT",
                    "/\(bucket)/k?acl",
                    headers: dialect + [(objectHeader[name]!, "public-read-write")]
                )
                #expect(objectSet.status == 200, "\(name): \(objectSet.text)")
                let object = try await client.send("GET", "/\(bucket)/k?acl", headers: dialect)
                if name == "oss" {
                    #expect(object.element("Grant") == "public-read-write")
                } else {
                    #expect(object.elements("Permission") == ["FULL_CONTROL", "READ", "WRITE"], "\(object.text)")
                }
                // Written with a canned ACL.
                _ = try await client.send(
                    "PUT",
                    "/\(bucket)/written",
                    headers: dialect + [(objectHeader[name]!, "public-read")],
                    body: [2]
                )
                let written = try await client.send("GET", "/\(bucket)/written?acl", headers: dialect)
                #expect(
                    name == "oss"
                        ? written.element("Grant") == "public-read" : written.elements("Permission").count == 2,
                    "\(name): \(written.text)"
                )
                #expect(try await client.send("GET", "/\(bucket)/absent?acl", headers: dialect).status == 404)
            }
        }
    }

    @Test(
        "an unknown canned ACL is refused InvalidArgument, naming the header; nothing changes",
        arguments: [
            ("s3", "/bkt?acl", "x-amz-acl", "public"),
            ("s3", "/bkt/k?acl", "x-amz-acl", "public-read-delivered"),
            ("s3", "/bkt/k?acl", "x-amz-acl", "default"),
            ("oss", "/bkt?acl", "x-oss-acl", "default"),
            ("oss", "/bkt/k?acl", "x-oss-object-acl", "authenticated-read"),
            ("obs", "/bkt?acl", "x-obs-acl", "authenticated-read"),
            ("obs", "/bkt/k?acl", "x-obs-acl", "public-read-delivered"),
        ]
    )
    func aclRefusals(_ dialectName: String, _ path: String, _ header: String, _ value: String) async throws {
        let dialect = Self.dialects.first { $0.0 == dialectName }!.1
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt", headers: dialect)
            _ = try await client.send("PUT", "/bkt/k", headers: dialect, body: [1])
            let refused = try await client.send("PUT", path, headers: dialect + [(header, value)])
            #expect(refused.status == 400 && refused.element("Code") == "InvalidArgument", "\(refused.text)")
            #expect(refused.element("ArgumentName") == header && refused.element("ArgumentValue") == value)
            if dialectName == "oss", path == "/bkt?acl" {
                #expect(refused.element("Message") == "no such bucket access control exists")
            }
            let after = try await client.send("GET", path, headers: dialect)
            #expect(!after.text.contains(value), "\(after.text)")
            // At creation too.
            let bucketHeader = ["s3": "x-amz-acl", "oss": "x-oss-acl", "obs": "x-obs-acl"][dialectName]!
            let creation = try await client.send("PUT", "/ccc", headers: dialect + [(bucketHeader, "nonsense")])
            #expect(creation.status == 400 && creation.element("Code") == "InvalidArgument")
            #expect(try await client.send("HEAD", "/ccc", headers: dialect).status == 404)
        }
    }

    @Test("grants given as a document or x-*-grant-* headers are not implemented; no ACL at all is refused")
    func aclGrantsNotImplemented() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let document = try await client.send(
                "PUT",
                "/bkt?acl",
                body: Array("<AccessControlPolicy><AccessControlList/></AccessControlPolicy>".utf8)
            )
            #expect(document.status == 501 && document.element("Code") == "NotImplemented")
            let grant = try await client.send("PUT", "/bkt?acl", headers: [("x-amz-grant-read", "id=\"someone\"")])
            #expect(grant.status == 501)
            let nothing = try await client.send("PUT", "/bkt?acl")
            #expect(nothing.status == 400 && nothing.element("Code") == "MissingSecurityHeader", "\(nothing.text)")
        }
    }
}
