//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

/// OSS symlinks against the local server: put and read back (a target key that needs encoding), a GET of the symlink
/// serving its target, the refusals of a dangling symlink and of a key that is not one.
@Suite("Symlinks")
struct SymlinkTests {
    static let bucket = "links"

    @Test(
        "a symlink reads back its target, and a GET of it serves the target's bytes",
        arguments: [ClientDialect.ossV4, .ossV1]
    )
    func putGetFollow(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            let target = "talks/2026 11/ümlaut&more.txt"
            try await client.putSymlink(bucket: Self.bucket, key: "latest", target: target)
            #expect(try await client.getSymlink(bucket: Self.bucket, key: "latest") == target)

            let dangling = await #expect(throws: ServiceError.self) {
                _ = try await client.getObject(GetObjectRequest(bucket: Self.bucket, key: "latest"))
            }
            #expect(dangling?.code == "SymlinkTargetNotExist" && dangling?.statusCode == 404)

            try await client.putObject(PutObjectRequest(bucket: Self.bucket, key: target, body: .bytes(testBytes(300))))
            let object = try await client.getObject(GetObjectRequest(bucket: Self.bucket, key: "latest"))
            #expect(Array(try await object.body.collect(upTo: 1 << 20).readableBytesView) == testBytes(300))
            #expect(try await client.headObject(bucket: Self.bucket, key: "latest").contentLength == 300)

            let notLink = await #expect(throws: ServiceError.self) {
                try await client.getSymlink(bucket: Self.bucket, key: target)
            }
            #expect(notLink?.code == "NotSymlink")
            let missing = await #expect(throws: ServiceError.self) {
                try await client.getSymlink(bucket: Self.bucket, key: "absent")
            }
            #expect(missing?.code == .noSuchKey)
        }
    }
}
