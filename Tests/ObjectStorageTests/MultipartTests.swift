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

@Suite("Multipart uploads against the local server")
struct MultipartTests {
    @Test("initiate, upload parts from a file, list parts in pages, complete, abort", arguments: ClientDialect.all)
    func roundTrip(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "multipart")
            let partSize = dialect.minimumPartSize
            let content = testBytes(partSize * 2 + 1234, seed: 3)
            let path = temporaryPath("parts")
            try Data(content).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }

            let uploadID = try await client.createMultipartUpload(
                bucket: "multipart",
                key: "big"
            )
            var parts: [CompletedPart] = []
            for index in 0..<3 {
                let offset = Int64(index * partSize)
                let length = min(Int64(partSize), Int64(content.count) - offset)
                let body: UploadBody =
                    index == 2 ? .bytes(content[Int(offset)...]) : .file(path: path, offset: offset, length: length)
                let part = try await client.uploadPart(
                    bucket: "multipart",
                    key: "big",
                    uploadID: uploadID,
                    partNumber: index + 1,
                    body: body

                )
                parts.append(part)
            }
            var pages = 0
            var listed: [Int] = []
            for try await page in client.listParts(bucket: "multipart", key: "big", uploadID: uploadID, maxParts: 2) {
                pages += 1
                listed += page.parts.map(\.partNumber)
            }
            #expect(listed == [1, 2, 3])
            #expect(pages == 2)

            var uploads: [String] = []
            for try await page in client.listMultipartUploads(bucket: "multipart") {
                uploads += page.uploads.map(\.uploadID)
            }
            #expect(uploads == [uploadID])

            let completed = try await client.completeMultipartUpload(
                bucket: "multipart",
                key: "big",
                uploadID: uploadID,
                parts: parts.reversed()

            )
            #expect(completed.etag != nil)
            let body = try await client.getObject(GetObjectRequest(bucket: "multipart", key: "big")).body
            #expect(try await body.collect(upTo: 32 << 20).bytes == content)

            let secondID = try await client.createMultipartUpload(
                bucket: "multipart",
                key: "gone"
            )
            try await client.abortMultipartUpload(
                bucket: "multipart",
                key: "gone",
                uploadID: secondID
            )
            _ = await expectServiceError(.noSuchUpload, status: 404) {
                _ = try await client.uploadPart(
                    bucket: "multipart",
                    key: "gone",
                    uploadID: secondID,
                    partNumber: 1,
                    body: .bytes([1])

                )
            }
        }
    }
}
