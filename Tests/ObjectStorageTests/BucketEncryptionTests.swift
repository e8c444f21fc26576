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

/// A bucket's default encryption through the SDK in the three dialects against the local server, and the encryption
/// the server then reports on objects written without their own.
@Suite("Bucket default encryption")
struct BucketEncryptionTests {
    @Test(
        "the setting goes and comes back; objects written after it report it; removed, the bucket has none",
        arguments: [ClientDialect.ossV4, .obs, .s3]
    )
    func roundTrip(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "records")
            #expect(try await client.getBucketEncryption(bucket: "records") == nil)
            try await client.putBucketEncryption(bucket: "records", .aes256)
            #expect(try await client.getBucketEncryption(bucket: "records") == .aes256)
            try await client.putBucketEncryption(bucket: "records", .kms(keyID: "alias/records"))
            let kms = try await client.getBucketEncryption(bucket: "records")
            #expect(kms == .kms(keyID: "alias/records") && kms?.algorithm.rawValue == "KMS")

            try await client.putObject(PutObjectRequest(bucket: "records", key: "k", body: .bytes(testBytes(10))))
            let head = try await client.headObject(bucket: "records", key: "k")
            let algorithm = head.headers.first { $0.name.lowercased().hasSuffix("-server-side-encryption") }?.value
            #expect(algorithm == ["s3": "aws:kms", "oss": "KMS", "obs": "kms"]["\(dialect.wire)"], "\(head.headers)")

            try await client.putBucketEncryption(bucket: "records", .kms())
            #expect(try await client.getBucketEncryption(bucket: "records") == .kms())
            try await client.deleteBucketEncryption(bucket: "records")
            #expect(try await client.getBucketEncryption(bucket: "records") == nil)
            let missing = await #expect(throws: ServiceError.self) {
                try await client.getBucketEncryption(bucket: "nosuchbucket")
            }
            #expect(missing?.code == .noSuchBucket)
        }
    }

    @Test("OSS keeps SM4; elsewhere SM4, and a KMS key without KMS, are refused before anything is sent")
    func vendorSpecifics() async throws {
        try await LocalObjectServer.withRunning(
            vendor: .oss,
            logger: .scanning,
            configureClient: ClientDialect.ossV4.configure
        ) { client, _ in
            try await client.createBucket(bucket: "records")
            try await client.putBucketEncryption(bucket: "records", BucketEncryption(algorithm: .sm4))
            #expect(try await client.getBucketEncryption(bucket: "records")?.algorithm == .sm4)
        }
        for dialect in [ClientDialect.s3, .obs, .ossV4] {
            try await LocalObjectServer.withRunning(
                vendor: dialect.wire,
                logger: .scanning,
                configureClient: dialect.configure
            ) { client, server in
                try await client.createBucket(bucket: "records")
                server.faults.add(
                    FaultRule(
                        operations: [.putBucketEncryption],
                        trigger: .always,
                        fault: .error(status: 418, code: "Reached", message: "the request was sent")
                    )
                )
                if dialect.provider != .oss {
                    let sm4 = await #expect(throws: ObjectStorageError.self) {
                        try await client.putBucketEncryption(bucket: "records", BucketEncryption(algorithm: .sm4))
                    }
                    #expect(
                        sm4?.code == .invalidArgument && sm4?.message.contains("no default encryption 'SM4'") == true
                    )
                }
                let key = await #expect(throws: ObjectStorageError.self) {
                    try await client.putBucketEncryption(
                        bucket: "records",
                        BucketEncryption(algorithm: .aes256, kmsKeyID: "k")
                    )
                }
                #expect(
                    key?.code == .invalidArgument && key?.message.contains("not KMS") == true,
                    "\(String(describing: key))"
                )
            }
        }
    }

    @Test("the vendors' spellings of KMS are one algorithm")
    func algorithmNames() {
        #expect(BucketEncryption.Algorithm(rawValue: "aws:kms") == .kms)
        #expect(BucketEncryption.Algorithm(rawValue: "kms") == .kms)
        #expect(BucketEncryption.Algorithm(rawValue: "aes256") == .aes256)
        #expect(BucketEncryption.Algorithm(rawValue: "aws:kms:dsse").rawValue == "aws:kms:dsse")
    }
}
