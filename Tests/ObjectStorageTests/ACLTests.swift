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

/// Canned ACLs of buckets and objects through the SDK in the three dialects against the local server: OSS answers
/// the name, S3 and OBS the grants, which the client names again.
@Suite("Bucket and object ACLs")
struct ACLTests {
    @Test(
        "a canned ACL set on a bucket and an object reads back as that canned ACL",
        arguments: [ClientDialect.ossV4, .obs, .s3]
    )
    func roundTrip(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "site", acl: .publicRead)
            let created = try await client.getBucketACL(bucket: "site")
            #expect(created.cannedACL == .publicRead, "\(created)")
            if dialect.provider == .oss {
                #expect(created.grants.isEmpty)
            } else {
                #expect(created.ownerID != nil)
                #expect(created.grants.count == 2 && created.grants[0].permission == "FULL_CONTROL", "\(created)")
                let everyone: AccessControlPolicy.Grant.Grantee =
                    dialect.provider == .obs
                    ? .group("Everyone") : .group("http://acs.amazonaws.com/groups/global/AllUsers")
                #expect(created.grants[1].grantee == everyone && created.grants[1].permission == "READ")
            }
            for acl in [ObjectACL.publicReadWrite, .private] {
                try await client.putBucketACL(bucket: "site", acl)
                #expect(try await client.getBucketACL(bucket: "site").cannedACL == acl)
            }

            try await client.putObject(PutObjectRequest(bucket: "site", key: "index.html", body: .bytes(testBytes(8))))
            let fresh = try await client.getObjectACL(bucket: "site", key: "index.html")
            #expect(fresh.cannedACL == (dialect.provider == .oss ? .ossDefault : .private), "\(fresh)")
            try await client.putObjectACL(bucket: "site", key: "index.html", .publicRead)
            #expect(try await client.getObjectACL(bucket: "site", key: "index.html").cannedACL == .publicRead)

            var put = PutObjectRequest(bucket: "site", key: "open.txt", body: .bytes(testBytes(8)))
            put.attributes.acl = .publicReadWrite
            try await client.putObject(put)
            #expect(try await client.getObjectACL(bucket: "site", key: "open.txt").cannedACL == .publicReadWrite)

            let missing = await #expect(throws: ServiceError.self) {
                try await client.getObjectACL(bucket: "site", key: "absent")
            }
            #expect(missing?.code == .noSuchKey)
        }
    }

    @Test(
        "each vendor's own canned ACLs",
        arguments: [
            (ClientDialect.s3, ObjectACL.authenticatedRead, false),
            (.s3, .logDeliveryWrite, false),
            (.s3, .authenticatedRead, true),
            (.obs, .obsPublicReadDelivered, false),
            (.obs, .obsPublicReadWriteDelivered, false),
            (.ossV4, .ossDefault, true),
        ]
    )
    func vendorOwn(_ dialect: ClientDialect, _ acl: ObjectACL, _ object: Bool) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "site")
            if object {
                try await client.putObject(PutObjectRequest(bucket: "site", key: "k", body: .bytes(testBytes(8))))
                try await client.putObjectACL(bucket: "site", key: "k", acl)
                #expect(try await client.getObjectACL(bucket: "site", key: "k").cannedACL == acl)
            } else {
                try await client.putBucketACL(bucket: "site", acl)
                let read = try await client.getBucketACL(bucket: "site")
                #expect(read.cannedACL == acl, "\(read)")
                if dialect.provider == .obs {
                    #expect(read.grants.dropFirst().allSatisfy { $0.delivered == true }, "\(read)")
                }
            }
        }
    }

    @Test(
        "a canned ACL the vendor does not take is refused before anything is sent",
        arguments: [
            (ClientDialect.s3, ObjectACL.obsPublicReadDelivered, false),
            (.s3, .ossDefault, true),
            (.ossV4, .authenticatedRead, false),
            (.ossV4, .ossDefault, false),
            (.obs, .authenticatedRead, true),
            (.obs, "public", false),
        ]
    )
    func refusedBeforeSending(_ dialect: ClientDialect, _ acl: ObjectACL, _ object: Bool) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: "site")
            try await client.putObject(PutObjectRequest(bucket: "site", key: "k", body: .bytes(testBytes(8))))
            server.faults.add(
                FaultRule(
                    operations: [.putBucketAcl, .putObjectAcl],
                    trigger: .always,
                    fault: .error(status: 418, code: "Reached", message: "the request was sent")
                )
            )
            let refused = await #expect(throws: ObjectStorageError.self) {
                if object {
                    try await client.putObjectACL(bucket: "site", key: "k", acl)
                } else {
                    try await client.putBucketACL(bucket: "site", acl)
                }
            }
            #expect(refused?.code == .invalidArgument, "\(String(describing: refused))")
            #expect(refused?.message.contains("'\(acl.rawValue)' is not a canned ACL") == true)
        }
    }
}
