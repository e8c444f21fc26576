//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

/// A bucket's policy through the SDK in the three dialects against the local server: the text goes and comes back
/// as it is; what the vendor would refuse as a document is refused before anything is sent.
@Suite("Bucket policy")
struct BucketPolicyTests {
    /// A policy in each vendor's grammar.
    static func policy(for dialect: ClientDialect) -> String {
        switch dialect.provider {
        case .oss:
            return """
                {"Version": "1", "Statement": [{"Effect": "Allow", "Action": ["oss:GetObject"], "Principal": ["*"],
                  "Resource": ["acs:oss:*:*:site/*"]}]}
                """
        case .obs:
            return """
                {"Statement": [{"Sid": "reads", "Effect": "Allow", "Principal": {"ID": ["*"]},
                  "Action": ["GetObject"], "Resource": ["site/*"]}]}
                """
        default:
            return """
                {"Version": "2012-10-17", "Statement": [{"Sid": "reads", "Effect": "Allow", "Principal": "*",
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::site/*"}]}
                """
        }
    }

    @Test(
        "a policy goes and comes back as it was put; removed, the bucket has none",
        arguments: [ClientDialect.ossV4, .obs, .s3]
    )
    func roundTrip(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "site")
            #expect(try await client.getBucketPolicy(bucket: "site") == nil)
            let policy = Self.policy(for: dialect)
            try await client.putBucketPolicy(bucket: "site", policy)
            #expect(try await client.getBucketPolicy(bucket: "site") == policy)
            try await client.deleteBucketPolicy(bucket: "site")
            #expect(try await client.getBucketPolicy(bucket: "site") == nil)
            let missing = await #expect(throws: ServiceError.self) {
                try await client.getBucketPolicy(bucket: "nosuchbucket")
            }
            #expect(missing?.code == .noSuchBucket)
        }
    }

    @Test(
        "a text the vendor would refuse as a policy is refused before anything is sent, naming what is wrong",
        arguments: [
            (ClientDialect.s3, "not json", "its first character is not '{'"),
            (.s3, "{\"Statement\": [{\"Effect\": \"Allow\",\n \"Action\": \"s3:*\",]}", "not valid JSON"),
            (.s3, "{\"Version\": \"2012-10-17\"}", "has no Statement"),
            (.s3, "{\"Statement\": []}", "Statement list is empty"),
            (.s3, "{\"Statement\": [{\"Effect\": \"Permit\", \"Action\": \"s3:*\"}]}", "the Effect \"Permit\""),
            (.s3, "{\"Statement\": [{\"Effect\": \"Deny\"}]}", "statement 1 has no Action"),
            (.ossV4, "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": [\"oss:*\"]}]}", "has no Version"),
            (.ossV4, "{\"Version\": \"2012-10-17\", \"Statement\": []}", "OSS takes only \"1\""),
            (.obs, "{\"Statement\": {\"Effect\": \"Allow\", \"Action\": [\"*\"]}}", "not a list of statements"),
        ]
    )
    func refusedBeforeSending(_ dialect: ClientDialect, _ text: String, _ reason: String) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: "site")
            // A PUT that reached the server would answer this, not the client's own refusal.
            server.faults.add(
                FaultRule(
                    operations: [.putBucketPolicy],
                    trigger: .always,
                    fault: .error(status: 418, code: "Reached", message: "the request was sent")
                )
            )
            let refused = await #expect(throws: ObjectStorageError.self) {
                try await client.putBucketPolicy(bucket: "site", text)
            }
            #expect(refused?.code == .invalidArgument, "\(String(describing: refused))")
            #expect(refused?.message.contains(reason) == true, "\(refused?.message ?? "")")
        }
    }

    @Test(
        "the size limits: 16 KiB on OSS, 20 KiB on S3 (whitespace aside) and OBS",
        arguments: [ClientDialect.ossV4, .obs, .s3]
    )
    func sizeLimits(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "site")
            let statement = #"{"Effect": "Allow", "Action": ["x:GetObject"], "Resource": ["r"]}"#
            func policy(_ count: Int, indent: Int = 0) -> String {
                let version = dialect.provider == .oss ? "1" : "2012-10-17"
                let separator = ",\n" + String(repeating: " ", count: indent)
                return "{\"Version\": \"\(version)\", \"Statement\": ["
                    + Array(repeating: statement, count: count).joined(separator: separator) + "]}"
            }
            // About 18 KB.
            let middling = policy(260)
            if dialect.provider == .oss {
                let refused = await #expect(throws: ObjectStorageError.self) {
                    try await client.putBucketPolicy(bucket: "site", middling)
                }
                #expect(refused?.message.contains("more than the 16 KiB") == true, "\(refused?.message ?? "")")
            } else {
                try await client.putBucketPolicy(bucket: "site", middling)
            }
            // 300 statements indented by 20 spaces: 26 KB sent, 19 KB without whitespace.
            let indented = policy(300, indent: 20)
            if dialect.provider == .s3 {
                try await client.putBucketPolicy(bucket: "site", indented)
                #expect(try await client.getBucketPolicy(bucket: "site") == indented)
            } else {
                await #expect(throws: ObjectStorageError.self) {
                    try await client.putBucketPolicy(bucket: "site", indented)
                }
            }
        }
    }
}
