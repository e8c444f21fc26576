//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ObjectStorage
import ObjectStorageCheckpoint
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

/// The upload engine against the answers of Ceph RGW 16 where they differ from S3's (emulated over the local
/// server by ``CephGatewayTransport``; `Scripts/interop-peers` runs the same cases against a real gateway).
@Suite("uploadFile: Ceph RGW's multipart answers")
struct UploadFileCephGatewayTests {
    typealias Fixture = UploadFileFixture

    static let partCount = 3

    /// Runs `body` with an S3 client whose answers pass through a fresh ``CephGatewayTransport``.
    static func withGateway(
        _ body: (ObjectStorageClient, LocalObjectServer, CephGatewayTransport, String) async throws -> Void
    ) async throws {
        let gateway = CephGatewayTransport(base: AsyncHTTPClientTransport.shared)
        let transport: @Sendable (any HTTPTransport) -> any HTTPTransport = { _ in gateway }
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, server in
            let client = client.derived(transport: transport)
            try await client.createBucket(bucket: Fixture.bucket)
            let content = testBytes(Fixture.fileSize(.s3), seed: 71)
            let path = try Fixture.makeFile(content)
            defer { Fixture.cleanUp(path) }
            try await body(client, server, gateway, path)
            #expect(try await Fixture.objectSHA256(client, key: "object") == Hashing.SHA256.hash(content))
            #expect(try await Fixture.pendingUploads(client).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path + ".ucp"))
        }
    }

    @Test("Complete answers an empty ETag: the result has the object's ETag, as a HEAD reports it")
    func emptyETagInCompleteAnswer() async throws {
        try await Self.withGateway { client, _, _, path in
            let result = try await client.uploadFile(Fixture.request(.s3, path: path))
            let head = try await Fixture.plainClient(like: client).headObject(bucket: Fixture.bucket, key: "object")
            let etag = try #require(head.etag)
            #expect(etag.hasSuffix("-\(Self.partCount)\""))
            #expect(result.etag == etag)
            #expect(result.partsTransferred == Self.partCount)
        }
    }

    @Test("completeMultipartUpload reports an empty ETag as none")
    func emptyETagIsNil() async throws {
        try await Self.withGateway { client, _, _, path in
            let uploadID = try await client.createMultipartUpload(bucket: Fixture.bucket, key: "object")
            let part = try await client.uploadPart(
                bucket: Fixture.bucket,
                key: "object",
                uploadID: uploadID,
                partNumber: 1,
                body: .file(path: path)
            )
            let completed = try await client.completeMultipartUpload(
                bucket: Fixture.bucket,
                key: "object",
                uploadID: uploadID,
                parts: [part]
            )
            #expect(completed.etag == nil)
        }
    }

    @Test("ListParts answers 404 NoSuchKey for an aborted upload: the resume starts a fresh upload")
    func noSuchKeyFromListParts() async throws {
        try await Self.withGateway { client, server, _, path in
            let request = Fixture.request(.s3, path: path)
            let checkpoint = try await UploadFileResumeTests.interruptedUpload(client, server, request: request)
            let uploadID = checkpoint.uploadId
            try await client.abortMultipartUpload(bucket: Fixture.bucket, key: "object", uploadID: uploadID)
            _ = await expectServiceError(.noSuchKey, status: 404) {
                for try await _ in client.listParts(bucket: Fixture.bucket, key: "object", uploadID: uploadID) {}
            }

            let result = try await client.uploadFile(request)
            #expect(result.restarts == 1)
            #expect(result.partsReused == 0)
            #expect(result.partsTransferred == Self.partCount)
        }
    }

    @Test("Complete answers 500 for an upload aborted before it: a fresh upload, not a 500")
    func internalErrorForAbortedUpload() async throws {
        try await Self.withGateway { client, _, gateway, path in
            let plain = Fixture.plainClient(like: client)
            gateway.beforeFirstComplete { uploadID in
                try await plain.abortMultipartUpload(bucket: Fixture.bucket, key: "object", uploadID: uploadID)
            }
            let result = try await client.uploadFile(Fixture.request(.s3, path: path))
            #expect(gateway.internalErrors > 0)
            #expect(result.restarts == 1)
            #expect(result.partsTransferred == Self.partCount)
        }
    }

    @Test("Complete took effect but its answer was lost (500, then 500 on retry): the upload is complete")
    func lostCompleteAnswer() async throws {
        try await Self.withGateway { client, _, gateway, path in
            gateway.losesFirstCompleteAnswer()
            let result = try await client.uploadFile(Fixture.request(.s3, path: path))
            let head = try await Fixture.plainClient(like: client).headObject(bucket: Fixture.bucket, key: "object")
            #expect(gateway.internalErrors >= 1)
            #expect(result.restarts == 0)
            #expect(result.partsTransferred == Self.partCount)
            #expect(result.etag == head.etag)
        }
    }
}

/// Answers as Ceph RGW 16 does where it deviates from S3, over a server that answers as S3 does:
/// CompleteMultipartUpload's 200 carries `<ETag></ETag>`, and its `NoSuchUpload` is `500 InternalError`;
/// ListParts' `NoSuchUpload` is `404 NoSuchKey`. It can also abort the upload just before the first Complete,
/// or lose the first Complete's answer (the server executes it; the client gets 500).
final class CephGatewayTransport: HTTPTransport {
    let base: any HTTPTransport
    private struct State {
        var beforeFirstComplete: (@Sendable (String) async throws -> Void)?
        var losesFirstCompleteAnswer = false
        var completes = 0
        var internalErrors = 0
    }
    private let state = Mutex(State())

    init(base: any HTTPTransport) {
        self.base = base
    }

    /// Runs `hook` with the upload id before the first CompleteMultipartUpload is sent.
    func beforeFirstComplete(_ hook: @escaping @Sendable (String) async throws -> Void) {
        self.state.withLock { $0.beforeFirstComplete = hook }
    }

    /// Answers the first CompleteMultipartUpload with 500 after the server executed it.
    func losesFirstCompleteAnswer() {
        self.state.withLock { $0.losesFirstCompleteAnswer = true }
    }

    /// How many answers were turned into 500 InternalError.
    var internalErrors: Int { self.state.withLock { $0.internalErrors } }

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        guard let uploadID = Self.uploadID(in: request.url) else {
            return try await self.base.execute(request, deadline: deadline, logger: logger)
        }
        switch request.method {
        case .POST:
            return try await self.complete(request, uploadID: uploadID, deadline: deadline, logger: logger)
        case .GET:
            let response = try await self.base.execute(request, deadline: deadline, logger: logger)
            guard try await Self.isNoSuchUpload(response) else { return response }
            return Self.errorAnswer(status: .notFound, code: "NoSuchKey")
        default:
            return try await self.base.execute(request, deadline: deadline, logger: logger)
        }
    }

    private func complete(
        _ request: TransportRequest,
        uploadID: String,
        deadline: NIODeadline,
        logger: Logger
    ) async throws -> TransportResponse {
        let (isFirst, hook, losesAnswer) = self.state.withLock { state in
            state.completes += 1
            return (state.completes == 1, state.beforeFirstComplete, state.losesFirstCompleteAnswer)
        }
        if isFirst, let hook { try await hook(uploadID) }
        let response = try await self.base.execute(request, deadline: deadline, logger: logger)
        if isFirst && losesAnswer {
            _ = try await response.body.collect(upTo: 1 << 20)
            return self.internalError()
        }
        if response.status == .ok {
            var body = try await response.body.collect(upTo: 1 << 20)
            let xml = body.readString(length: body.readableBytes) ?? ""
            let emptied = xml.replacingOccurrences(
                of: #"<ETag>[^<]*</ETag>"#,
                with: "<ETag></ETag>",
                options: .regularExpression
            )
            return Self.answer(status: .ok, xml: emptied)
        }
        guard try await Self.isNoSuchUpload(response) else { return response }
        return self.internalError()
    }

    private func internalError() -> TransportResponse {
        self.state.withLock { $0.internalErrors += 1 }
        return Self.errorAnswer(status: .internalServerError, code: "InternalError")
    }

    /// Whether `response` is a 404 NoSuchUpload (its body is consumed when the status is 404).
    private static func isNoSuchUpload(_ response: TransportResponse) async throws -> Bool {
        guard response.status == .notFound else { return false }
        let body = try await response.body.collect(upTo: 1 << 20)
        return String(buffer: body).contains("<Code>NoSuchUpload</Code>")
    }

    static func uploadID(in url: String) -> String? {
        guard let marker = url.firstRange(of: "uploadId=") else { return nil }
        let value = url[marker.upperBound...].prefix { $0 != "&" }
        return String(value).removingPercentEncoding
    }

    static func errorAnswer(status: HTTPResponseStatus, code: String) -> TransportResponse {
        Self.answer(
            status: status,
            xml: "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>\(code)</Code></Error>"
        )
    }

    static func answer(status: HTTPResponseStatus, xml: String) -> TransportResponse {
        let bytes = ByteBuffer(string: xml)
        let headers: HTTPHeaders = [
            "Content-Type": "application/xml", "Content-Length": String(bytes.readableBytes),
        ]
        return TransportResponse(
            status: status,
            headers: headers,
            body: .stream(
                AsyncStream { continuation in
                    continuation.yield(bytes)
                    continuation.finish()
                }
            )
        )
    }
}
