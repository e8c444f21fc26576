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

/// Archived objects through the SDK in the three dialects against the local server, whose restores take the delay
/// the test sets: refused reads, the restore's state from HEAD, a restore asked again, an object that needs none.
@Suite("Archive restore")
struct ArchiveRestoreTests {
    static func archiveClass(_ vendor: StorageVendor) -> StorageClass {
        switch vendor.kind {
        case .oss: .ossArchive
        case .obs: .obsCold
        case .s3: "GLACIER"
        }
    }

    @Test(
        "an archived object is refused until restored, then read; HEAD says where the restore stands",
        arguments: [ClientDialect.ossV4, .obs, .s3]
    )
    func restoreThenRead(_ dialect: ClientDialect) async throws {
        let slowRestores: (inout LocalObjectServer.Configuration) -> Void = { $0.restoreDelay = .seconds(2) }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureServer: slowRestores,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "vault")
            var put = PutObjectRequest(bucket: "vault", key: "db.tar", body: .bytes(Array("backup".utf8)))
            put.attributes.storageClass = Self.archiveClass(dialect.wire)
            try await client.putObject(put)

            let head = try await client.headObject(bucket: "vault", key: "db.tar")
            #expect(head.storageClass == Self.archiveClass(dialect.wire).rawValue && head.restore == nil)
            let refused = await #expect(throws: ServiceError.self) {
                _ = try await client.getObject(GetObjectRequest(bucket: "vault", key: "db.tar")).body.collect(
                    upTo: 1 << 10
                )
            }
            #expect(refused?.code == .invalidObjectState && refused?.statusCode == 403)

            #expect(
                try await client.restoreObject(bucket: "vault", key: "db.tar", days: 2, tier: .expedited) == .started
            )
            #expect(try await client.headObject(bucket: "vault", key: "db.tar").restore == .inProgress)
            #expect(try await client.restoreObject(bucket: "vault", key: "db.tar") == .inProgress)
            let stillRefused = await #expect(throws: ServiceError.self) {
                _ = try await client.getObject(GetObjectRequest(bucket: "vault", key: "db.tar")).body.collect(
                    upTo: 1 << 10
                )
            }
            #expect(stillRefused?.code == .invalidObjectState)

            var restored: ObjectRestoreState?
            for _ in 0..<40 {
                restored = try await client.headObject(bucket: "vault", key: "db.tar").restore
                if restored != .inProgress { break }
                try await Task.sleep(for: .milliseconds(150))
            }
            guard case .restored(let until) = restored, let until else {
                Issue.record("not restored: \(String(describing: restored))")
                return
            }
            // Kept for the two days asked, from when it was ready.
            #expect(abs(until.timeIntervalSinceNow - 2 * 86_400) < 120, "\(until)")
            let body = try await client.getObject(GetObjectRequest(bucket: "vault", key: "db.tar")).body.collect(
                upTo: 1 << 10
            )
            #expect(Array(buffer: body) == Array("backup".utf8))
            #expect(try await client.restoreObject(bucket: "vault", key: "db.tar", days: 1) == .extended)
        }
    }

    @Test(
        "a restore of an object that is not archived is refused as each service refuses it",
        arguments: [ClientDialect.ossV4, .obs, .s3]
    )
    func notArchived(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "plain")
            try await client.putObject(PutObjectRequest(bucket: "plain", key: "k", body: .bytes([1])))
            let error = await #expect(throws: ServiceError.self) {
                try await client.restoreObject(bucket: "plain", key: "k")
            }
            if dialect.wire == .oss {
                #expect(error?.statusCode == 400 && error?.code == "OperationNotSupported")
            } else {
                #expect(error?.statusCode == 403 && error?.code == .invalidObjectState)
            }
            let days = await #expect(throws: ObjectStorageError.self) {
                try await client.restoreObject(bucket: "plain", key: "k", days: 0)
            }
            #expect(days?.code == .invalidArgument)
        }
    }
}
