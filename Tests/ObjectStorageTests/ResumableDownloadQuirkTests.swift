//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import NIOHTTP1
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@Suite("Resumable download: server quirks")
struct ResumableDownloadQuirkTests {
    @Test("a ranged answer with status 200 and a Content-Range (rclone serve s3) is read as a part")
    func rangedAnswerWithStatus200() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(1024 * 1024 + 99, seed: 41)
        let transport: @Sendable (any HTTPTransport) -> any HTTPTransport = { Status200RangeTransport(base: $0) }
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            let client = client.derived(transport: transport)
            try await client.createBucket(bucket: "quirk")
            try await client.putObject(PutObjectRequest(bucket: "quirk", key: "k", body: .bytes(content)))
            let destination = scratch.file("quirk.bin")
            let result = try await client.resumableDownload(
                bucket: "quirk",
                key: "k",
                to: destination,
                options: smallPartOptions(partSize: 256 * 1024, concurrency: 2)
            )
            #expect(try fileBytes(destination) == content)
            #expect(result.restarts == 0)
            #expect(result.bytesTransferred == Int64(content.count))
        }
    }
}

/// Turns every 206 answer into a 200 with the same headers and body, as rclone serve s3 does.
struct Status200RangeTransport: HTTPTransport {
    let base: any HTTPTransport

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        var response = try await base.execute(request, deadline: deadline, logger: logger)
        if response.status == .partialContent { response.status = .ok }
        return response
    }
}
