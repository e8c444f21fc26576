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

/// Versions through the SDK in the three dialects against the local server: versioning, version ids on every call
/// that takes one, delete markers, and the version listing page by page.
@Suite("Object versions")
struct ObjectVersionsTests {
    static let bucket = "versioned"

    @Test(
        "every call that names a version reads, copies, presigns, downloads or deletes that version",
        arguments: UploadFileFixture.dialects
    )
    func versionsEndToEnd(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) {
            client,
            _ in
            try await client.createBucket(bucket: Self.bucket)
            #expect(try await client.getBucketVersioning(bucket: Self.bucket) == nil)
            try await client.putBucketVersioning(bucket: Self.bucket, .enabled)
            #expect(try await client.getBucketVersioning(bucket: Self.bucket) == .enabled)

            let first = try #require(
                try await client.putObject(PutObjectRequest(bucket: Self.bucket, key: "doc", body: .bytes([1, 1])))
                    .versionID
            )
            let second = try #require(
                try await client.putObject(PutObjectRequest(bucket: Self.bucket, key: "doc", body: .bytes([2, 2])))
                    .versionID
            )
            #expect(first != second)
            var old = GetObjectRequest(bucket: Self.bucket, key: "doc")
            old.versionID = first
            #expect(try await client.getObject(old).body.collect(upTo: 100).bytes == [1, 1])
            #expect(try await client.headObject(bucket: Self.bucket, key: "doc", versionID: first).versionID == first)
            let url = try await client.presign(bucket: Self.bucket, key: "doc", query: ["versionId": first]).url
            #expect(try await HTTPClientFetch.get(url).body == [1, 1])
            let path = temporaryPath("version-\(dialect.name).bin")
            defer { try? FileManager.default.removeItem(atPath: path) }
            _ = try await client.resumableDownload(bucket: Self.bucket, key: "doc", versionID: first, to: path)
            #expect(FileManager.default.contents(atPath: path) == Data([1, 1]))

            // Restoring a version is a copy of it onto its own key.
            let restored = try await client.copyObject(
                bucket: Self.bucket,
                key: "doc",
                sourceBucket: Self.bucket,
                sourceKey: "doc",
                sourceVersionID: first
            )
            #expect(restored.versionID != nil && restored.versionID != first)
            #expect(
                try await client.getObject(GetObjectRequest(bucket: Self.bucket, key: "doc")).body.collect(upTo: 100)
                    .bytes == [1, 1]
            )

            let deleted = try await client.deleteObject(bucket: Self.bucket, key: "doc")
            #expect(deleted.isDeleteMarker && deleted.versionID != nil)
            let hidden = await #expect(throws: ServiceError.self) {
                try await client.headObject(bucket: Self.bucket, key: "doc")
            }
            #expect(hidden?.code == .noSuchKey)
            let missing = await #expect(throws: ServiceError.self) {
                try await client.headObject(bucket: Self.bucket, key: "doc", versionID: "0123456789")
            }
            #expect(missing?.statusCode == 404)

            var listed: [ListObjectVersionsResponse.Version] = []
            for try await page in client.listObjectVersions(bucket: Self.bucket, maxKeys: 1) {
                #expect(page.versions.count <= 1)
                listed += page.versions
            }
            #expect(listed.map(\.versionID) == [deleted.versionID, restored.versionID, second, first])
            #expect(listed.map(\.isDeleteMarker) == [true, false, false, false])
            #expect(listed.map(\.isLatest) == [true, false, false, false])
            #expect(listed[1].size == 2 && listed[1].etag != nil)

            // Removing the marker by its id uncovers the restored version; removing every version empties the bucket.
            let unmarked = try await client.deleteObject(bucket: Self.bucket, key: "doc", versionID: deleted.versionID)
            #expect(unmarked.isDeleteMarker)
            #expect(try await client.headObject(bucket: Self.bucket, key: "doc").versionID == restored.versionID)
            try await client.putBucketVersioning(bucket: Self.bucket, .suspended)
            #expect(try await client.getBucketVersioning(bucket: Self.bucket) == .suspended)
            let null = try await client.putObject(PutObjectRequest(bucket: Self.bucket, key: "doc", body: .bytes([3])))
            #expect(null.versionID == "null")
            let remaining = try await client.listObjectVersions(bucket: Self.bucket).reduce(into: []) {
                $0 += $1.versions
            }
            let response = try await client.deleteObjects(
                bucket: Self.bucket,
                objects: remaining.map { ObjectVersion(key: $0.key, versionID: $0.versionID) }
            )
            #expect(response.failures.isEmpty && response.deleted.count == 4)
            try await client.deleteBucket(bucket: Self.bucket)
        }
    }

    @Test("a directory job as of a time refuses an upload and a time in the future before anything moves")
    func asOfRefusals() async throws {
        try await LocalObjectServer.withRunning(logger: .scanning) { client, _ in
            let directory = temporaryPath("as-of-\(UUID())")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try await client.createBucket(bucket: Self.bucket)
            var options = DirectoryTransferOptions()
            options.sourceAsOf = Date(timeIntervalSinceNow: -60)
            let upload = await #expect(throws: ObjectStorageError.self) {
                try await client.uploadDirectory(directory, bucket: Self.bucket, options: options)
            }
            #expect(upload?.code == .invalidArgument && upload?.message.contains("keep no versions") == true)
            options.sourceAsOf = Date(timeIntervalSinceNow: 3_600)
            let future = await #expect(throws: ObjectStorageError.self) {
                try await client.downloadDirectory(bucket: Self.bucket, to: directory, options: options)
            }
            #expect(future?.code == .invalidArgument && future?.message.contains("in the future") == true)
            var revert = RevertOptions()
            revert.concurrency = 0
            let concurrency = await #expect(throws: ObjectStorageError.self) {
                try await client.revert(bucket: Self.bucket, prefix: "", to: Date(), options: revert)
            }
            #expect(concurrency?.code == .invalidArgument, "\(String(describing: concurrency))")
        }
    }
}
