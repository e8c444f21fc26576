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
import ObjectStorageTransport
import Testing

/// `resumableCopy` when its upload is gone or its Complete's answer is lost: the same recovery as `uploadFile`'s,
/// in each dialect and against Ceph RGW's answers (emulated by ``CephGatewayTransport``).
@Suite("Resumable server-side copy: a finished or vanished upload")
struct ResumableCopyRecoveryTests {
    typealias Copy = ResumableCopyTests

    /// A copy with its checkpoint in `directory`, one part at a time.
    static func checkpointed(_ dialect: ClientDialect, in directory: String) -> TransferOptions {
        var options = Copy.options(dialect, concurrency: 1)
        options.enableCheckpoint = true
        options.checkpointFilePath = directory + "/copy.ccp"
        return options
    }

    static func withDirectory(_ body: (String) async throws -> Void) async throws {
        let directory = temporaryPath("copy-recovery")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await body(directory)
    }

    @Test(
        "killed after Complete, before the checkpoint was removed: recognised, no part copied again",
        arguments: Copy.dialects
    )
    func aCompletedCopyIsRecognised(_ dialect: ClientDialect) async throws {
        let source = testBytes(Copy.sourceSize(dialect), seed: 31)
        try await Self.withDirectory { directory in
            let faults = FaultInjector()
            try await LocalObjectServer.withRunning(
                vendor: dialect.wire,
                faults: faults,
                logger: .scanning,
                configureClient: dialect.configure
            ) { client, _ in
                try await client.createBucket(bucket: Copy.bucket)
                try await Copy.put(client, "source", source)
                let options = Self.checkpointed(dialect, in: directory)
                let checkpointPath = try #require(options.checkpointFilePath)
                // The state a SIGKILL right after Complete leaves: the object exists, the upload id is gone, and
                // the checkpoint records every part.
                faults.add(
                    FaultRule(
                        operations: [.completeMultipartUpload],
                        trigger: .always,
                        fault: .error(status: 400, code: "InvalidArgument", message: "injected")
                    )
                )
                await #expect(throws: ServiceError.self) { try await Copy.copy(client, options: options) }
                faults.removeAll()
                let checkpoint = try Data(contentsOf: URL(fileURLWithPath: checkpointPath))
                let first = try await Copy.copy(client, options: options)
                try checkpoint.write(to: URL(fileURLWithPath: checkpointPath))
                faults.add(
                    FaultRule(
                        operations: [.uploadPart, .createMultipartUpload],
                        trigger: .always,
                        fault: .error(status: 400, code: "InvalidArgument", message: "no part may be copied")
                    )
                )

                let result = try await Copy.copy(client, options: options)
                #expect(result.partsTransferred == 0)
                #expect(result.partsReused == first.partCount)
                #expect(result.etag == first.etag)
                #expect(!FileManager.default.fileExists(atPath: checkpointPath))
                faults.removeAll()
                #expect(try await Copy.object(client, "copy") == source)
                #expect(try await UploadFileFixture.pendingUploads(client).isEmpty)
            }
        }
    }

    /// Runs `body` with an S3 client whose answers pass through a fresh ``CephGatewayTransport``, and the source
    /// in place; checks the copy's bytes and that no upload is left.
    static func withGateway(
        _ body: (ObjectStorageClient, CephGatewayTransport, FaultInjector) async throws -> Void
    ) async throws {
        let gateway = CephGatewayTransport(base: AsyncHTTPClientTransport.shared)
        let transport: @Sendable (any HTTPTransport) -> any HTTPTransport = { _ in gateway }
        let faults = FaultInjector()
        // Two parts, the fewest a multipart copy has in S3 (5 MiB each but the last).
        let source = testBytes(ClientDialect.s3.minimumPartSize + 1_000, seed: 32)
        try await LocalObjectServer.withRunning(vendor: .s3, faults: faults, logger: .scanning) { client, _ in
            let client = client.derived(transport: transport)
            try await client.createBucket(bucket: Copy.bucket)
            try await Copy.put(client, "source", source)
            try await body(client, gateway, faults)
            #expect(try await Copy.object(client, "copy") == source)
            #expect(try await UploadFileFixture.pendingUploads(client).isEmpty)
        }
    }

    @Test("RGW: ListParts answers 404 NoSuchKey for an aborted upload: the resume starts a fresh copy")
    func noSuchKeyFromListParts() async throws {
        try await Self.withDirectory { directory in
            try await Self.withGateway { client, _, faults in
                let options = Self.checkpointed(.s3, in: directory)
                faults.add(
                    FaultRule(
                        operations: [.uploadPart],
                        trigger: .nth(2),
                        fault: .error(status: 403, code: "AccessDenied", message: "Access Denied.")
                    )
                )
                await #expect(throws: ServiceError.self) { try await Copy.copy(client, options: options) }
                faults.removeAll()
                let uploads = try await UploadFileFixture.pendingUploads(client)
                let uploadID = try #require(uploads.first)
                try await client.abortMultipartUpload(bucket: Copy.bucket, key: "copy", uploadID: uploadID)

                let result = try await Copy.copy(client, options: options)
                #expect(result.restarts == 1)
                #expect(result.partsReused == 0)
                #expect(result.partsTransferred == result.partCount)
            }
        }
    }

    @Test("RGW: Complete answers 500 for an upload aborted before it: a fresh copy, not a 500")
    func internalErrorForAbortedUpload() async throws {
        try await Self.withGateway { client, gateway, _ in
            let plain = UploadFileFixture.plainClient(like: client)
            gateway.beforeFirstComplete { uploadID in
                try await plain.abortMultipartUpload(bucket: Copy.bucket, key: "copy", uploadID: uploadID)
            }
            let result = try await Copy.copy(client, options: Copy.options(.s3))
            #expect(gateway.internalErrors > 0)
            #expect(result.restarts == 1)
            #expect(result.partsTransferred == result.partCount)
        }
    }

    @Test("RGW: Complete took effect but its answer was lost, or carried an empty ETag: the copy has the object's")
    func lostOrEmptyCompleteAnswer() async throws {
        for losesAnswer in [true, false] {
            try await Self.withGateway { client, gateway, _ in
                if losesAnswer { gateway.losesFirstCompleteAnswer() }
                let result = try await Copy.copy(client, options: Copy.options(.s3))
                let head = try await UploadFileFixture.plainClient(like: client).headObject(
                    bucket: Copy.bucket,
                    key: "copy"
                )
                #expect((gateway.internalErrors >= 1) == losesAnswer)
                #expect(result.restarts == 0)
                #expect(result.etag != nil)
                #expect(result.etag == head.etag)
            }
        }
    }
}
