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

/// Object tags in the three dialects against the local server: set at write time (PUT, multipart, copy), read,
/// replaced and removed, and refused before anything is sent when beyond the vendor's limits.
@Suite("Object tags")
struct ObjectTaggingTests {
    static let bucket = UploadFileFixture.bucket

    @Test(
        "a PUT's tags read back; replacing them keeps the ETag and the time; removing them leaves none",
        arguments: UploadFileFixture.dialects
    )
    func putReplaceRemove(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) {
            client,
            _ in
            try await client.createBucket(bucket: Self.bucket)
            var put = PutObjectRequest(bucket: Self.bucket, key: "report.csv", body: .bytes(testBytes(100)))
            put.attributes.tags = ["project": "blue sky", "retention": "30d"]
            try await client.putObject(put)
            let head = try await client.headObject(bucket: Self.bucket, key: "report.csv")
            #expect(head.tagCount == 2)
            #expect(try await client.getObjectTagging(bucket: Self.bucket, key: "report.csv") == put.attributes.tags)

            try await client.putObjectTagging(bucket: Self.bucket, key: "report.csv", tags: ["owner": "ops:team-a"])
            #expect(
                try await client.getObjectTagging(bucket: Self.bucket, key: "report.csv") == ["owner": "ops:team-a"]
            )
            let after = try await client.headObject(bucket: Self.bucket, key: "report.csv")
            #expect(after.etag == head.etag && after.lastModified == head.lastModified && after.tagCount == 1)

            try await client.deleteObjectTagging(bucket: Self.bucket, key: "report.csv")
            #expect(try await client.getObjectTagging(bucket: Self.bucket, key: "report.csv").isEmpty)
            #expect(try await client.headObject(bucket: Self.bucket, key: "report.csv").tagCount == nil)

            let missing = await #expect(throws: ServiceError.self) {
                try await client.getObjectTagging(bucket: Self.bucket, key: "absent")
            }
            #expect(missing?.code == .noSuchKey)
        }
    }

    @Test(
        "a copy keeps its source's tags unless given its own; a multipart upload and copy carry them",
        arguments: UploadFileFixture.dialects
    )
    func copiesAndMultipart(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) {
            client,
            _ in
            try await client.createBucket(bucket: Self.bucket)
            let path = try UploadFileFixture.makeFile(testBytes(UploadFileFixture.fileSize(dialect), seed: 3))
            defer { UploadFileFixture.cleanUp(path) }
            var upload = UploadFileFixture.request(dialect, path: path, key: "big")
            upload.attributes.tags = ["kind": "backup"]
            #expect(try await client.uploadFile(upload).isMultipart)
            #expect(try await client.getObjectTagging(bucket: Self.bucket, key: "big") == ["kind": "backup"])

            try await client.copyObject(bucket: Self.bucket, key: "kept", sourceBucket: Self.bucket, sourceKey: "big")
            #expect(try await client.getObjectTagging(bucket: Self.bucket, key: "kept") == ["kind": "backup"])

            var replaced = UploadAttributes()
            replaced.tags = ["kind": "copy"]
            try await client.copyObject(
                bucket: Self.bucket,
                key: "replaced",
                sourceBucket: Self.bucket,
                sourceKey: "big",
                attributes: replaced
            )
            #expect(try await client.getObjectTagging(bucket: Self.bucket, key: "replaced") == ["kind": "copy"])

            // UploadPartCopy carries no tags: the multipart copy reads the source's (S3 and OSS report their count).
            var options = TransferOptions(partSize: UploadFileFixture.partSize(dialect), concurrency: 2)
            options.forceMultipart = true
            _ = try await client.resumableCopy(
                bucket: Self.bucket,
                key: "parts",
                sourceBucket: Self.bucket,
                sourceKey: "big",
                options: options
            )
            #expect(try await client.getObjectTagging(bucket: Self.bucket, key: "parts") == ["kind": "backup"])
        }
    }

    @Test("tags beyond the vendor's limits are refused before anything is sent", arguments: UploadFileFixture.dialects)
    func limits(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) {
            client,
            _ in
            try await client.createBucket(bucket: Self.bucket)
            let refused: [[String: String]] = [
                Dictionary(uniqueKeysWithValues: (1...11).map { ("k\($0)", "v") }),
                [String(repeating: "k", count: 129): "v"],
                ["k": String(repeating: "v", count: 257)],
                ["": "v"],
                ["a,b": "v"],
            ]
            for tags in refused {
                var put = PutObjectRequest(bucket: Self.bucket, key: "never", body: .bytes([1]))
                put.attributes.tags = tags
                let error = await #expect(throws: ObjectStorageError.self) { try await client.putObject(put) }
                #expect(error?.code == .invalidArgument, "\(tags.keys.sorted())")
                #expect(error?.message.contains("tag") == true)
            }
            let missing = await #expect(throws: ServiceError.self) {
                try await client.headObject(bucket: Self.bucket, key: "never")
            }
            #expect(missing?.code == .noSuchKey)
            // At the limits: 10 tags, a 128-character key, the longest value the vendor takes.
            var tags = Dictionary(uniqueKeysWithValues: (1...9).map { ("k\($0)", "v") })
            tags[String(repeating: "k", count: 128)] = String(
                repeating: "v",
                count: dialect.provider == .obs ? 255 : 256
            )
            var put = PutObjectRequest(bucket: Self.bucket, key: "full", body: .bytes([1]))
            put.attributes.tags = tags
            try await client.putObject(put)
            #expect(try await client.getObjectTagging(bucket: Self.bucket, key: "full") == tags)
        }
    }
}
