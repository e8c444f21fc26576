//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

@testable import ObjectStorageSigning

/// The checks and codecs the client and the local server share for bucket policies, default encryption and ACLs.
@Suite("Bucket configuration rules")
struct BucketConfigurationRulesTests {
    @Test(
        "the JSON parser takes RFC 8259 and says where it stops",
        arguments: [
            ("{\"a\": [1, 2,]}", "a ',' before ']'", 1, 13),
            ("{\n  \"a\": 1,\n}", "expected a member name after ','", 3, 1),
            ("{\"a\" 1}", "expected ':' after the member name", 1, 6),
            ("{\"a\": 01}", "expected ',' or '}' after a member", 1, 8),
            ("{\"a\": \"tab\there\"}", "a control character in a string (write it as an escape)", 1, 11),
            ("{\"a\": \"\\x\"}", "an unknown escape '\\x'", 1, 9),
            ("{\"a\": \"\\ud800\"}", "a lone surrogate in a \\u escape", 1, 14),
            ("{\"a\": tru}", "unexpected word where a value should be", 1, 7),
            ("{} {}", "unexpected text after the document", 1, 4),
            ("{\"a\": 1.}", "a number without digits after '.'", 1, 9),
        ]
    )
    func syntaxErrors(_ text: String, _ message: String, _ line: Int, _ column: Int) {
        #expect(throws: StrictJSON.SyntaxError(message: message, line: line, column: column)) {
            try StrictJSON.parse(Array(text.utf8))
        }
    }

    @Test("values, escapes and surrogate pairs")
    func values() throws {
        let text = #"{"s": "a\"\\\/\n\u00e9\ud83d\ude00", "n": -1.5e3, "t": true, "z": null, "l": [], "o": {}}"#
        guard case .object(let members) = try StrictJSON.parse(Array(text.utf8)) else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.0) == ["s", "n", "t", "z", "l", "o"])
        guard case .string(let string) = members[0].1, case .number(let number) = members[1].1 else {
            Issue.record("not a string and a number")
            return
        }
        #expect(string == "a\"\\/\né😀" && number == -1500)
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: StrictJSON.SyntaxError.self) { try StrictJSON.parse(Array(deep.utf8)) }
        #expect(StrictJSON.soleStringMember("Policy", of: Array(#"{"Policy": "{}"}"#.utf8)) == "{}")
        #expect(StrictJSON.soleStringMember("Policy", of: Array(#"{"Policy": "{}", "x": 1}"#.utf8)) == nil)
    }

    @Test("a policy's shape, per vendor")
    func policyRules() {
        func violation(_ text: String, _ vendor: StorageVendor) -> BucketPolicyViolation? {
            BucketPolicyRules.violation(in: Array(text.utf8), for: vendor)
        }
        let s3 = #"{"Version": "2012-10-17", "Statement": {"Effect": "Allow", "Action": "s3:GetObject"}}"#
        #expect(violation(s3, .s3) == nil)
        #expect(violation(s3, .obs) == .malformed("the bucket policy's Statement is not a list of statements"))
        #expect(violation(" \n" + s3, .s3) == nil)
        let oss = #"{"Version": "1", "Statement": [{"Effect": "Deny", "NotAction": ["oss:*"]}]}"#
        #expect(violation(oss, .oss) == nil)
        #expect(
            violation(#"{"Version": "1",}"#, .oss)
                == .notJSON(
                    "expected a member name after ',' at line 1, column 17",
                    line: 1
                )
        )
        #expect(violation("", .s3) == .notJSON("the document is empty", line: nil))
        #expect(BucketPolicyRules.measuredSize(of: Array(#"{ "a b" : [ 1 ] }"#.utf8), for: .s3) == 11)
        #expect(BucketPolicyRules.measuredSize(of: Array(#"{ "a b" : [ 1 ] }"#.utf8), for: .oss) == 17)
    }

    @Test("a default encryption in each vendor's document, and back")
    func encryptionDocuments() throws {
        for vendor in [StorageVendor.s3, .oss, .obs] {
            let setting = BucketEncryption.kms(keyID: "key & 1")
            let root = try XMLNode.parse(setting.document(for: vendor))
            #expect(try BucketEncryption(document: root) == setting)
            #expect(root.name == (vendor == .oss ? "ServerSideEncryptionRule" : "ServerSideEncryptionConfiguration"))
        }
        #expect(String(decoding: BucketEncryption.kms().document(for: .obs), as: UTF8.self).contains(">kms<"))
        #expect(BucketEncryption(algorithm: .sm4).violation(for: .s3) != nil)
        #expect(BucketEncryption(algorithm: .sm4).violation(for: .oss) == nil)
        #expect(BucketEncryption(algorithm: .init(rawValue: "aws:kms:dsse")).violation(for: .s3) == nil)
        #expect(BucketEncryption(algorithm: .aes256, kmsKeyID: "k").violation(for: .oss) != nil)
    }

    @Test("every canned ACL's grants read back as that canned ACL, on buckets and objects")
    func cannedACLsRoundTrip() throws {
        for vendor in [StorageVendor.s3, .oss, .obs] {
            for object in [false, true] {
                for name in ACLDocument.cannedNames(for: vendor, object: object) {
                    let document = ACLDocument(canned: name, ownerID: "owner-1", vendor: vendor, object: object)
                    let read = try ACLDocument(
                        document: try XMLNode.parse(document.document(for: vendor, namespace: nil))
                    )
                    let expected =
                        ["bucket-owner-read", "bucket-owner-full-control"].contains(name) ? "private" : name
                    #expect(read.matchingCannedName(vendor: vendor, object: object) == expected, "\(vendor) \(name)")
                }
            }
        }
        let custom = ACLDocument(
            ownerID: "owner-1",
            grants: [ACLGrant(.user("owner-1"), "FULL_CONTROL"), ACLGrant(.user("friend"), "READ")]
        )
        #expect(custom.matchingCannedName(vendor: .s3, object: false) == nil)
        // OBS answers a request signed as S3 signs in S3's form.
        let s3Form = ACLDocument(canned: "public-read", ownerID: "owner-1", vendor: .s3, object: false)
        #expect(s3Form.matchingCannedName(vendor: .obs, object: false) == "public-read")
    }
}
