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
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

@Suite("uploadFile: killed after CompleteMultipartUpload, before the checkpoint was removed")
struct UploadFileCompletedTests {
    typealias Fixture = UploadFileFixture

    /// Leaves the state a SIGKILL right after CompleteMultipartUpload leaves: the object is complete,
    /// the upload id is gone and the checkpoint records every part.
    static func killedAfterComplete(
        _ client: ObjectStorageClient,
        _ server: LocalObjectServer,
        request: UploadFileCall
    ) async throws {
        server.faults.add(
            FaultRule(
                operations: [.completeMultipartUpload],
                trigger: .always,
                fault: .error(status: 400, code: "InvalidArgument", message: "injected")
            )
        )
        await #expect(throws: ServiceError.self) { try await client.uploadFile(request) }
        server.faults.removeAll()
        let checkpoint = try Data(contentsOf: URL(fileURLWithPath: request.filePath + ".ucp"))
        let finished = try await client.uploadFile(request)
        #expect(finished.partsTransferred == 0)
        #expect(!FileManager.default.fileExists(atPath: request.filePath + ".ucp"))
        try checkpoint.write(to: URL(fileURLWithPath: request.filePath + ".ucp"))
    }

    /// Fails every UploadPart, so any part sent again fails the call.
    static func refuseParts(_ server: LocalObjectServer) {
        server.faults.add(
            FaultRule(
                operations: [.uploadPart, .createMultipartUpload],
                trigger: .always,
                fault: .error(status: 400, code: "InvalidArgument", message: "no part may be sent")
            )
        )
    }

    @Test("the complete object is recognised: no part is sent again", arguments: Fixture.dialects)
    func completedUploadIsRecognised(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: Fixture.bucket)
            let content = testBytes(Fixture.fileSize(dialect), seed: 61)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            let request = Fixture.request(dialect, path: path)
            try await Self.killedAfterComplete(client, server, request: request)

            Self.refuseParts(server)
            let log = ProgressLog()
            let result = try await client.uploadFile(request, progress: log.handler)
            let partCount = (content.count + Int(Fixture.partSize(dialect)) - 1) / Int(Fixture.partSize(dialect))
            #expect(result.partsTransferred == 0)
            #expect(result.partsReused == partCount)
            #expect(result.isMultipart)
            // The local server reports a CRC-64/XZ in the OSS dialect, and in OBS's for an upload that sent one (this
            // one did); S3 matches the multipart ETag.
            #expect(result.isCRC64Verified == (dialect.provider != .s3))
            #expect(log.all.last?.completedBytes == Int64(content.count))
            #expect(!FileManager.default.fileExists(atPath: path + ".ucp"))
            server.faults.removeAll()
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
            #expect(try await Fixture.pendingUploads(client).isEmpty)
        }
    }

    @Test("an object replaced since is uploaded again", arguments: [ClientDialect.ossV4, .s3])
    func replacedObjectIsUploadedAgain(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: Fixture.bucket)
            let content = testBytes(Fixture.fileSize(dialect), seed: 62)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            let request = Fixture.request(dialect, path: path)
            try await Self.killedAfterComplete(client, server, request: request)
            var other = content
            other[10] ^= 0xFF
            try await client.putObject(PutObjectRequest(bucket: Fixture.bucket, key: "object", body: .bytes(other)))

            let result = try await client.uploadFile(request)
            let partCount = (content.count + Int(Fixture.partSize(dialect)) - 1) / Int(Fixture.partSize(dialect))
            #expect(result.partsTransferred == partCount)
            #expect(result.partsReused == 0)
            #expect(result.restarts == 1)
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
            #expect(!FileManager.default.fileExists(atPath: path + ".ucp"))
        }
    }
}
