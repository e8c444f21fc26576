//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import NIOCore
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// Create-only and compare-and-swap writes (``WriteCondition``) against the local server, which checks them
/// atomically in each dialect.
@Suite("Conditional writes")
struct ConditionalWriteTests {
    /// The dialects that offer create-only: S3 (`If-None-Match: *`) and OSS (`x-oss-forbid-overwrite`).
    static let createOnly: [ClientDialect] = [.s3, .ossV4, .ossV1]

    /// The code a lost create-only write answers in `dialect`, and its status.
    static func refusal(_ dialect: ClientDialect) -> (ServiceError.Code, Int) {
        dialect.provider == .s3 ? (.preconditionFailed, 412) : (.fileAlreadyExists, 409)
    }

    static func put(_ key: String, _ text: String, _ condition: WriteCondition? = nil) -> PutObjectRequest {
        var request = PutObjectRequest(bucket: "cond", key: key, body: .bytes(Array(text.utf8)))
        request.condition = condition
        return request
    }

    /// Runs `body` with a client of a fresh server in `dialect` that has the bucket `cond`.
    static func withBucket(
        _ dialect: ClientDialect,
        _ body: @Sendable (ObjectStorageClient) async throws -> Void
    ) async throws {
        try await LocalObjectServer.withRunning(vendor: dialect.wire, configureClient: dialect.configure) { client, _ in
            try await client.createBucket(bucket: "cond")
            try await body(client)
        }
    }

    /// Starts a multipart upload of `key` with one part holding `text`.
    static func onePartUpload(
        _ client: ObjectStorageClient,
        _ key: String,
        _ text: String
    ) async throws -> (String, CompletedPart) {
        let uploadID = try await client.createMultipartUpload(bucket: "cond", key: key)
        let part = try await client.uploadPart(
            bucket: "cond",
            key: key,
            uploadID: uploadID,
            partNumber: 1,
            body: .bytes(Array(text.utf8))
        )
        return (uploadID, part)
    }

    static func read(_ client: ObjectStorageClient, _ key: String) async throws -> String {
        let body = try await client.getObject(GetObjectRequest(bucket: "cond", key: key)).body
        return String(decoding: try await body.collect(upTo: 1 << 20).bytes, as: UTF8.self)
    }

    @Test("create-only PUT: the first writes, the second is refused and the bytes stay", arguments: createOnly)
    func createOnlyPut(_ dialect: ClientDialect) async throws {
        try await Self.withBucket(dialect) { client in
            try await client.putObject(Self.put("k", "first", .ifAbsent))
            let error = await #expect(throws: ServiceError.self) {
                try await client.putObject(Self.put("k", "second", .ifAbsent))
            }
            let (code, status) = Self.refusal(dialect)
            #expect(error?.code == code && error?.statusCode == status)
            #expect(error?.isWriteConditionFailure == true)
            #expect(try await Self.read(client, "k") == "first")
        }
    }

    @Test(
        "of 16 concurrent create-only PUTs of one key exactly one wins, and the object holds its bytes",
        arguments: createOnly
    )
    func sixteenWritersOneWinner(_ dialect: ClientDialect) async throws {
        try await Self.withBucket(dialect) { client in
            let outcomes = await withTaskGroup(of: (Int, (any Error)?).self) { group in
                for writer in 0..<16 {
                    group.addTask {
                        do {
                            try await client.putObject(Self.put("race", "writer-\(writer)", .ifAbsent))
                            return (writer, nil)
                        } catch {
                            return (writer, error)
                        }
                    }
                }
                var all: [(Int, (any Error)?)] = []
                for await outcome in group { all.append(outcome) }
                return all
            }
            let winners = outcomes.filter { $0.1 == nil }.map(\.0)
            #expect(winners.count == 1, "winners: \(winners)")
            let (code, _) = Self.refusal(dialect)
            for (_, error) in outcomes where error != nil {
                #expect((error as? ServiceError)?.code == code, "\(String(describing: error))")
            }
            let stored = try await Self.read(client, "race")
            #expect(winners.map { "writer-\($0)" } == [stored])
        }
    }

    @Test("S3 If-Match: a write over the ETag read succeeds, a stale one is refused (412), a missing key 404")
    func compareAndSwap() async throws {
        let dialect = ClientDialect.s3
        try await Self.withBucket(dialect) { client in
            let first = try await client.putObject(Self.put("k", "v1"))
            let etag = try #require(first.etag)
            let second = try await client.putObject(Self.put("k", "v2", .ifMatch(etag)))
            #expect(second.etag != nil && second.etag != etag)
            let stale = await #expect(throws: ServiceError.self) {
                try await client.putObject(Self.put("k", "v3", .ifMatch(etag)))
            }
            #expect(stale?.code == .preconditionFailed && stale?.statusCode == 412)
            #expect(try await Self.read(client, "k") == "v2")
            let missing = await #expect(throws: ServiceError.self) {
                try await client.putObject(Self.put("absent", "x", .ifMatch(etag)))
            }
            #expect(missing?.statusCode == 404)
            await #expect(throws: ServiceError.self) { try await Self.read(client, "absent") }
        }
    }

    @Test("a copy onto an existing key is refused with the condition; onto a new key it copies", arguments: createOnly)
    func conditionalCopy(_ dialect: ClientDialect) async throws {
        try await Self.withBucket(dialect) { client in
            try await client.putObject(Self.put("source", "source bytes"))
            try await client.putObject(Self.put("taken", "kept"))
            let error = await #expect(throws: ServiceError.self) {
                try await client.copyObject(
                    bucket: "cond",
                    key: "taken",
                    sourceBucket: "cond",
                    sourceKey: "source",
                    condition: .ifAbsent
                )
            }
            #expect(error?.code == Self.refusal(dialect).0)
            #expect(try await Self.read(client, "taken") == "kept")
            try await client.copyObject(
                bucket: "cond",
                key: "fresh",
                sourceBucket: "cond",
                sourceKey: "source",
                condition: .ifAbsent
            )
            #expect(try await Self.read(client, "fresh") == "source bytes")
        }
    }

    @Test(
        "a create-only completion onto a key written meanwhile is refused and the key keeps its bytes",
        arguments: createOnly
    )
    func conditionalCompletion(_ dialect: ClientDialect) async throws {
        try await Self.withBucket(dialect) { client in
            let (uploadID, part) = try await Self.onePartUpload(client, "k", "multipart")
            try await client.putObject(Self.put("k", "meanwhile"))
            let error = await #expect(throws: ServiceError.self) {
                try await client.completeMultipartUpload(
                    bucket: "cond",
                    key: "k",
                    uploadID: uploadID,
                    parts: [part],
                    condition: .ifAbsent
                )
            }
            #expect(error?.code == Self.refusal(dialect).0)
            #expect(try await Self.read(client, "k") == "meanwhile")
            // The refusal came before the completion: the upload is still there, and completes without the condition.
            try await client.completeMultipartUpload(bucket: "cond", key: "k", uploadID: uploadID, parts: [part])
            #expect(try await Self.read(client, "k") == "multipart")
        }
    }

    @Test("S3 If-Match on a completion: the ETag read completes, another is refused")
    func completionCompareAndSwap() async throws {
        let dialect = ClientDialect.s3
        try await Self.withBucket(dialect) { client in
            let etag = try #require(try await client.putObject(Self.put("k", "v1")).etag)
            let (uploadID, part) = try await Self.onePartUpload(client, "k", "v2")
            let stale = await #expect(throws: ServiceError.self) {
                try await client.completeMultipartUpload(
                    bucket: "cond",
                    key: "k",
                    uploadID: uploadID,
                    parts: [part],
                    condition: .ifMatch("0123456789abcdef0123456789abcdef")
                )
            }
            #expect(stale?.code == .preconditionFailed)
            try await client.completeMultipartUpload(
                bucket: "cond",
                key: "k",
                uploadID: uploadID,
                parts: [part],
                condition: .ifMatch(etag)
            )
            #expect(try await Self.read(client, "k") == "v2")
        }
    }

    @Test(
        "uploadFile in parts honours the condition: refused onto an existing key, written onto a new one",
        arguments: createOnly
    )
    func uploadFileInParts(_ dialect: ClientDialect) async throws {
        try await Self.withBucket(dialect) { client in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cond-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("big").path
            let bytes = testBytes(dialect.minimumPartSize + 1000)
            #expect(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
            var options = TransferOptions(partSize: Int64(dialect.minimumPartSize))
            options.forceMultipart = true
            options.writeCondition = .ifAbsent
            try await client.putObject(Self.put("taken", "kept"))
            let error = await #expect(throws: ServiceError.self) {
                _ = try await client.uploadFile(from: file, bucket: "cond", key: "taken", options: options)
            }
            #expect(error?.isWriteConditionFailure == true)
            #expect(try await Self.read(client, "taken") == "kept")
            _ = try await client.uploadFile(from: file, bucket: "cond", key: "fresh", options: options)
            let head = try await client.headObject(bucket: "cond", key: "fresh")
            #expect(head.contentLength == Int64(bytes.count))
            // Nothing left behind: the refused upload was aborted.
            var uploads: [String] = []
            for try await page in client.listMultipartUploads(bucket: "cond") { uploads += page.uploads.map(\.key) }
            #expect(uploads.isEmpty)
        }
    }

    @Test("a condition a service does not offer fails with `unsupported` before anything is sent")
    func unsupportedSendsNothing() async throws {
        let server = try await RawHTTPServer.start { _ in .response("200 OK", headers: [], body: []) }
        defer { Task { try? await server.stop() } }
        let cases: [(StorageVendor, WriteCondition)] = [
            (.obs, .ifAbsent), (.obs, .ifMatch("e")), (.oss, .ifMatch("e")),
        ]
        for (vendor, condition) in cases {
            let configuration = ObjectStorageClient.Configuration(
                vendor: vendor,
                endpoint: try Endpoint(url: server.url("")),
                region: vendor == .oss ? "cn-hangzhou" : "cn-north-4",
                credentials: .static(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
            )
            let client = ObjectStorageClient(configuration: configuration, logger: .scanning)
            let put = await #expect(throws: ObjectStorageError.self) {
                try await client.putObject(Self.put("k", "x", condition))
            }
            #expect(put?.code == .unsupported)
            let copy = await #expect(throws: ObjectStorageError.self) {
                try await client.copyObject(
                    bucket: "cond",
                    key: "k",
                    sourceBucket: "cond",
                    sourceKey: "s",
                    condition: condition
                )
            }
            #expect(copy?.code == .unsupported)
            let complete = await #expect(throws: ObjectStorageError.self) {
                try await client.completeMultipartUpload(
                    bucket: "cond",
                    key: "k",
                    uploadID: "u",
                    parts: [CompletedPart(partNumber: 1, etag: "e")],
                    condition: condition
                )
            }
            #expect(complete?.code == .unsupported)
            #expect("\(put.map { "\($0)" } ?? "")".contains(vendor == .obs ? "OBS" : "OSS"))
        }
        #expect(server.requests.isEmpty, "requests reached the server: \(server.requests.count)")
    }

    @Test("OBS: the server ignores the other dialects' condition headers, as OBS documents none")
    func obsIgnoresConditionHeaders() async throws {
        let dialect = ClientDialect.obs
        try await Self.withBucket(dialect) { client in
            try await client.putObject(Self.put("k", "first"))
            let request = ServiceRequest(
                method: "PUT",
                bucket: "cond",
                key: "k",
                headers: ["If-None-Match": "*", "x-oss-forbid-overwrite": "true"],
                body: .bytes(Array("second".utf8))
            )
            _ = try await client.send(request)
            #expect(try await Self.read(client, "k") == "second")
        }
    }
}
