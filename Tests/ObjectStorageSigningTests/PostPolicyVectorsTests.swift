//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning
import Testing

/// One entry of Fixtures/vectors/post-policy-vectors.json (Fixtures/post-policy/generate.py).
struct PostPolicyVector: Decodable, Sendable, CustomTestStringConvertible {
    var id: String
    var origin: String
    var version: String
    var region: String
    var service: String
    var token: String?
    var policy: String
    var signature: String
    var credential: String?
    var date: String?
    var url: String?
    var fields: [String: String]?

    var testDescription: String { self.id }

    struct File: Decodable {
        var time: Int64
        var accessKeyID: String
        var secretAccessKey: String
        var vectors: [PostPolicyVector]
    }

    static let file: File = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/vectors/post-policy-vectors.json")
        do {
            return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot load \(url.path): \(error)")
        }
    }()

    var signatureVersion: SignatureVersion {
        guard let version = SignatureVersion(cliName: self.version) else { fatalError("unknown version \(version)") }
        return version
    }

    /// The value of the V4 credential field the SDK produced, if any.
    var sdkCredential: String? { self.credential ?? self.fields?["x-amz-credential"] }
    /// The value of the V4 date field the SDK produced, if any.
    var sdkDate: String? { self.date ?? self.fields?["x-amz-date"] }
}

@Suite("POST policy signatures match the official SDKs")
struct PostPolicyVectorsTests {
    static let file = PostPolicyVector.file
    static var time: Date { Date(timeIntervalSince1970: TimeInterval(file.time)) }

    @Test(arguments: PostPolicyVector.file.vectors)
    func signatureMatchesSDK(_ vector: PostPolicyVector) {
        let scheme = PostFormScheme(vector.signatureVersion)
        let signature = scheme.signature(
            policy: vector.policy,
            secret: Self.file.secretAccessKey,
            dateStamp: "20240305",
            region: vector.region,
            service: vector.service
        )
        #expect(signature == vector.signature)
    }

    @Test(arguments: PostPolicyVector.file.vectors)
    func policyFromSDKDecodes(_ vector: PostPolicyVector) throws {
        let bytes = try #require(Data(base64Encoded: vector.policy))
        let policy = try PostPolicy(decoding: Array(bytes))
        // boto3 and the OSS examples: 900 s; esdk-obs-python: 600 s.
        let lifetime: Int64 = vector.id.hasPrefix("obs-") ? 600 : 900
        #expect(policy.expiration.secondsSince1970 == Self.file.time + lifetime)
        #expect(
            policy.conditions.contains(
                .equals(field: "bucket", value: vector.id.hasPrefix("oss-") ? "examplebucket" : "photos")
            )
        )
        if let token = vector.token {
            #expect(
                policy.conditions.contains { condition in
                    if case .equals(let field, let value) = condition {
                        return field.hasSuffix("security-token") && value == token
                    }
                    return false
                }
            )
        }
    }

    @Test(arguments: PostPolicyVector.file.vectors.filter { $0.sdkCredential != nil })
    func v4FieldsMatchSDK(_ vector: PostPolicyVector) throws {
        let signer = RequestSigner(version: vector.signatureVersion, region: vector.region)
        let post = try signer.presignPost(
            SigningRequest(
                method: "POST",
                endpoint: Endpoint(scheme: "http", host: "127.0.0.1", port: 9000),
                bucket: "photos"
            ),
            key: "k",
            fields: [],
            conditions: [],
            credentials: Credentials(accessKeyID: Self.file.accessKeyID, secretAccessKey: Self.file.secretAccessKey),
            expires: .seconds(900),
            at: Self.time
        )
        let values = Dictionary(post.fields.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        let prefix = vector.version == "v4" ? "x-oss-" : "x-amz-"
        #expect(values[prefix + "credential"] == vector.sdkCredential)
        #expect(values[prefix + "date"] == vector.sdkDate)
        if let url = vector.url { #expect(post.url == url) }
    }

    /// The whole pipeline (conditions → JSON → base64 → HMAC) against a policy text and a signature computed
    /// by hand with Python's `hmac` from the documented formula.
    @Test func ossV1FormMatchesHandComputedPolicy() throws {
        let signer = RequestSigner(version: .ossV1, region: nil)
        let post = try signer.presignPost(
            SigningRequest(
                method: "POST",
                endpoint: Endpoint(scheme: "http", host: "127.0.0.1", port: 9000),
                bucket: "photos"
            ),
            key: "uploads/${filename}",
            fields: [PresignedPost.Field(name: "Content-Type", value: "image/png")],
            conditions: [.contentLengthRange(1...1024)],
            credentials: Credentials(accessKeyID: Self.file.accessKeyID, secretAccessKey: Self.file.secretAccessKey),
            expires: .seconds(900),
            at: Self.time
        )
        #expect(post.url == "http://127.0.0.1:9000/photos")
        #expect(
            post.fields.map(\.name) == ["key", "Content-Type", "OSSAccessKeyId", "policy", "Signature"]
        )
        #expect(post.fields.first { $0.name == "key" }?.value == "uploads/${filename}")
        #expect(
            post.fields.first { $0.name == "policy" }?.value
                == "eyJleHBpcmF0aW9uIjoiMjAyNC0wMy0wNVQwNDoyMDowNi4wMDBaIiwiY29uZGl0aW9ucyI6W3siYnVja2V0IjoicGhvdG9zIn0s"
                + "WyJzdGFydHMtd2l0aCIsIiRrZXkiLCJ1cGxvYWRzLyJdLHsiQ29udGVudC1UeXBlIjoiaW1hZ2UvcG5nIn0sWyJjb250ZW50LWxl"
                + "bmd0aC1yYW5nZSIsMSwxMDI0XV19"
        )
        #expect(post.fields.last?.value == "+z00Mk9qXMtyQja2Y1WwJGoDW4k=")
        #expect(!post.description.contains("+z00Mk9qXMtyQja2Y1WwJGoDW4k="))
    }

    @Test func tokenIsFieldAndConditionAndRedacted() throws {
        let signer = RequestSigner(version: .sigV4, region: "us-east-1")
        let post = try signer.presignPost(
            SigningRequest(method: "POST", endpoint: .s3(region: "us-east-1"), bucket: "photos"),
            key: "a.txt",
            fields: [],
            conditions: [],
            credentials: Credentials(accessKeyID: "AK", secretAccessKey: "SK", securityToken: "session-token-value"),
            expires: .seconds(60),
            at: Self.time
        )
        #expect(post.url == "https://photos.s3.us-east-1.amazonaws.com/")
        #expect(post.fields.contains(PresignedPost.Field(name: "x-amz-security-token", value: "session-token-value")))
        let policy = try PostPolicy(
            decoding: Array(try #require(Data(base64Encoded: post.fields.first { $0.name == "policy" }?.value ?? "")))
        )
        #expect(policy.conditions.contains(.equals(field: "x-amz-security-token", value: "session-token-value")))
        #expect(!post.description.contains("session-token-value"))
    }

    @Test func expiryOutOfRangeIsRefused() {
        let signer = RequestSigner(version: .obs, region: nil)
        #expect(throws: SigningError.self) {
            try signer.presignPost(
                SigningRequest(method: "POST", endpoint: .obs(region: "cn-north-4"), bucket: "photos"),
                key: "a",
                fields: [],
                conditions: [],
                credentials: Credentials(accessKeyID: "AK", secretAccessKey: "SK"),
                expires: .seconds(604_801),
                at: Self.time
            )
        }
    }
}
