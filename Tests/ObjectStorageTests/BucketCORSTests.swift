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

/// A bucket's CORS rules through the SDK in the three dialects against the local server (which checks each
/// request's signature and the document's Content-MD5).
@Suite("Bucket CORS")
struct BucketCORSTests {
    static let configuration = CORSConfiguration(rules: [
        CORSRule(
            allowedOrigins: ["https://*.example.com"],
            allowedMethods: ["PUT", "POST"],
            allowedHeaders: ["*"],
            exposeHeaders: ["ETag"],
            maxAgeSeconds: 600
        ),
        CORSRule(allowedOrigins: ["*"], allowedMethods: ["GET"]),
    ])

    @Test("rules go and come back the same; removed, the bucket has none", arguments: [ClientDialect.ossV4, .obs, .s3])
    func roundTrip(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) {
            client,
            _ in
            try await client.createBucket(bucket: "site")
            #expect(try await client.getBucketCORS(bucket: "site") == nil)
            try await client.putBucketCORS(bucket: "site", Self.configuration)
            #expect(try await client.getBucketCORS(bucket: "site") == Self.configuration)
            try await client.deleteBucketCORS(bucket: "site")
            #expect(try await client.getBucketCORS(bucket: "site") == nil)
            let missing = await #expect(throws: ServiceError.self) {
                try await client.getBucketCORS(bucket: "nosuchbucket")
            }
            #expect(missing?.code == .noSuchBucket)
        }
    }

    @Test("a configuration the vendor would refuse is refused before anything is sent")
    func refusedBeforeSending() async throws {
        try await LocalObjectServer.withRunning(
            vendor: .oss,
            logger: .scanning,
            configureClient: ClientDialect.ossV4.configure
        ) {
            client,
            server in
            try await client.createBucket(bucket: "site")
            // A PUT that reached the server would answer this, not the client's own refusal.
            server.faults.add(
                FaultRule(
                    operations: [.putBucketCors],
                    trigger: .always,
                    fault: .error(status: 418, code: "Reached", message: "the request was sent")
                )
            )
            let rule = CORSRule(allowedOrigins: ["*"], allowedMethods: ["GET"])
            let eleven = await #expect(throws: ObjectStorageError.self) {
                try await client.putBucketCORS(
                    bucket: "site",
                    CORSConfiguration(rules: Array(repeating: rule, count: 11))
                )
            }
            #expect(eleven?.code == .invalidArgument && eleven?.message.contains("at most 10") == true)
            let patch = await #expect(throws: ObjectStorageError.self) {
                try await client.putBucketCORS(
                    bucket: "site",
                    CORSConfiguration(rules: [CORSRule(allowedOrigins: ["*"], allowedMethods: ["PATCH"])])
                )
            }
            #expect(patch?.code == .invalidArgument && patch?.message.contains("'PATCH'") == true)
            server.faults.removeAll()
            // OSS keeps ResponseVary.
            try await client.putBucketCORS(bucket: "site", CORSConfiguration(rules: [rule], responseVary: true))
            #expect(try await client.getBucketCORS(bucket: "site")?.responseVary == true)
        }
        try await LocalObjectServer.withRunning(logger: .scanning) { client, _ in
            let vary = await #expect(throws: ObjectStorageError.self) {
                try await client.putBucketCORS(
                    bucket: "site",
                    CORSConfiguration(
                        rules: [CORSRule(allowedOrigins: ["*"], allowedMethods: ["GET"])],
                        responseVary: true
                    )
                )
            }
            #expect(vary?.code == .unsupported)
        }
    }
}
