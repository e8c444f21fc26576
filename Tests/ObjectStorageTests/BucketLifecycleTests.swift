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

/// A bucket's lifecycle rules through the SDK in the three dialects against the local server (which checks each
/// request's signature, the document's Content-MD5 and the rules as the service would), then applied by it.
@Suite("Bucket lifecycle")
struct BucketLifecycleTests {
    /// Rules every vendor takes, in its own storage classes.
    static func configuration(for vendor: StorageVendor) -> LifecycleConfiguration {
        let (cool, cold) =
            switch vendor.kind {
            case .oss: ("IA", "Archive")
            case .obs: ("WARM", "COLD")
            case .s3: ("STANDARD_IA", "GLACIER")
            }
        return LifecycleConfiguration(rules: [
            LifecycleRule(
                id: "logs",
                prefix: "logs/",
                expiration: .days(365),
                transitions: [
                    LifecycleTransition(after: .days(30), storageClass: cool),
                    LifecycleTransition(after: .days(90), storageClass: cold),
                ],
                noncurrentVersionExpirationDays: 60,
                noncurrentVersionTransitions: [LifecycleTransition(after: .days(30), storageClass: cool)]
            ),
            LifecycleRule(id: "tmp", prefix: "tmp/", expiration: .date(LifecycleDate("2027-01-01")!)),
            LifecycleRule(id: "off", isEnabled: false, prefix: "x/", expiration: .days(1)),
            LifecycleRule(id: "uploads", prefix: "up/", abortIncompleteUploads: .days(7)),
        ])
    }

    @Test("rules go and come back the same; removed, the bucket has none", arguments: [ClientDialect.ossV4, .obs, .s3])
    func roundTrip(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let configuration = Self.configuration(for: dialect.wire)
            try await client.createBucket(bucket: "rules")
            #expect(try await client.getBucketLifecycle(bucket: "rules") == nil)
            try await client.putBucketLifecycle(bucket: "rules", configuration)
            #expect(try await client.getBucketLifecycle(bucket: "rules") == configuration)
            try await client.deleteBucketLifecycle(bucket: "rules")
            #expect(try await client.getBucketLifecycle(bucket: "rules") == nil)
        }
    }

    @Test(
        "tags filter on S3 and OSS; OBS has none, and says so before sending",
        arguments: [ClientDialect.ossV4, .obs, .s3]
    )
    func tagFilters(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: "tagged")
            let rules = LifecycleConfiguration(rules: [
                LifecycleRule(
                    id: "scratch",
                    prefix: "data/",
                    tags: ["kind": "scratch", "team": "a"],
                    expiration: .days(2)
                )
            ])
            guard dialect.wire != .obs else {
                let refused = await #expect(throws: ObjectStorageError.self) {
                    try await client.putBucketLifecycle(bucket: "tagged", rules)
                }
                #expect(refused?.code == .unsupported)
                return
            }
            try await client.putBucketLifecycle(bucket: "tagged", rules)
            #expect(try await client.getBucketLifecycle(bucket: "tagged") == rules)
            var tagged = PutObjectRequest(bucket: "tagged", key: "data/1", body: .bytes([1]))
            tagged.attributes.tags = ["kind": "scratch", "team": "a"]
            try await client.putObject(tagged)
            var other = PutObjectRequest(bucket: "tagged", key: "data/2", body: .bytes([2]))
            other.attributes.tags = ["kind": "scratch"]
            try await client.putObject(other)
            let report = try server.applyLifecycle(asOf: Date().addingTimeInterval(4 * 86_400))
            #expect(report.expiredObjects == ["tagged/data/1"])
            var pages = client.listObjects(bucket: "tagged").makeAsyncIterator()
            #expect(try await pages.next()?.contents.map(\.key) == ["data/2"])
        }
    }

    @Test(
        "an abandoned upload is aborted by the rules, and its parts are gone",
        arguments: [ClientDialect.ossV4, .obs, .s3]
    )
    func abandonedUpload(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: "uploads")
            try await client.putBucketLifecycle(bucket: "uploads", Self.configuration(for: dialect.wire))
            let upload = try await client.createMultipartUpload(bucket: "uploads", key: "up/big")
            _ = try await client.uploadPart(
                bucket: "uploads",
                key: "up/big",
                uploadID: upload,
                partNumber: 1,
                body: .bytes([1, 2, 3])
            )
            #expect(try server.applyLifecycle(asOf: Date().addingTimeInterval(3 * 86_400)).abortedUploads.isEmpty)
            let report = try server.applyLifecycle(asOf: Date().addingTimeInterval(9 * 86_400))
            #expect(report.abortedUploads == ["uploads/up/big?uploadId=\(upload)"])
            var pages = client.listMultipartUploads(bucket: "uploads").makeAsyncIterator()
            #expect(try await pages.next()?.uploads.isEmpty == true)
        }
    }

    @Test("a configuration the vendor would refuse is refused before anything is sent")
    func refusedBeforeSending() async throws {
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "checked")
            let refusals: [(LifecycleConfiguration, ObjectStorageError.Code)] = [
                (LifecycleConfiguration(rules: []), .invalidArgument),
                (LifecycleConfiguration(rules: [LifecycleRule(prefix: "a/")]), .invalidArgument),
                (LifecycleConfiguration(rules: [LifecycleRule(expiration: .days(0))]), .invalidArgument),
                (
                    LifecycleConfiguration(rules: [
                        LifecycleRule(transitions: [LifecycleTransition(after: .days(40), storageClass: "IA")])
                    ]), .invalidArgument
                ),
                (
                    LifecycleConfiguration(rules: [
                        LifecycleRule(transitions: [LifecycleTransition(after: .days(10), storageClass: "STANDARD_IA")])
                    ]), .invalidArgument
                ),
                (
                    LifecycleConfiguration(rules: [
                        LifecycleRule(abortIncompleteUploads: .date(LifecycleDate("2027-01-01")!))
                    ]), .unsupported
                ),
            ]
            for (configuration, code) in refusals {
                let error = await #expect(throws: ObjectStorageError.self) {
                    try await client.putBucketLifecycle(bucket: "checked", configuration)
                }
                #expect(error?.code == code, "\(configuration)")
            }
            #expect(try await client.getBucketLifecycle(bucket: "checked") == nil)
        }
    }
}
