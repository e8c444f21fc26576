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
import ObjectStorageTransport
import Synchronization

/// uploadFile when its multipart upload disappears from the server (aborted by someone else, expired): the
/// servers say so in different words (ListParts: `NoSuchUpload`, Ceph RGW `NoSuchKey`; Complete: `NoSuchUpload`,
/// Ceph RGW `500 InternalError`), and each time the engine starts a fresh upload.
extension PeerSuite {
    /// Paused after part 1, its upload aborted, then resumed: a fresh upload of every part.
    func uploadFileResumedAfterAbort() async throws {
        let key = "engine-aborted.bin"
        let bytes = Pattern.bytes(count: 2 * Self.partSize + 99, seed: 16)
        try await self.withPausedUpload(key: key, bytes: bytes) { path in
            var uploads: [String] = []
            for try await page in self.client.listMultipartUploads(bucket: self.bucket, prefix: key) {
                uploads += page.uploads.map(\.uploadID)
            }
            try require(uploads.count == 1, "\(uploads.count) uploads in progress for \(key), not 1")
            try await self.client.abortMultipartUpload(bucket: self.bucket, key: key, uploadID: uploads[0])

            let result = try await self.client.uploadFile(
                from: path,
                bucket: self.bucket,
                key: key,
                options: Self.uploadOptions
            )
            try require(result.restarts == 1, "\(result.restarts) restarts, not 1")
            try require(result.partsTransferred == 3, "sent \(result.partsTransferred) parts, not 3")
            let (_, body) = try await self.get(key)
            try require(body == bytes, "GET returned \(body.count) bytes that differ from the file")
        }
    }

    /// Its upload aborted just before CompleteMultipartUpload: a fresh upload, not the server's error.
    func uploadFileAbortedBeforeComplete() async throws {
        let key = "engine-aborted-complete.bin"
        let bytes = Pattern.bytes(count: Self.partSize + 77, seed: 17)
        let path = try self.sourceFile(key, bytes)
        defer { Self.removeSourceFile(path) }
        let plain = self.client
        let bucket = self.bucket
        let transport = AbortingTransport(base: AsyncHTTPClientTransport.shared) {
            for try await page in plain.listMultipartUploads(bucket: bucket, prefix: key) {
                for upload in page.uploads where upload.key == key {
                    try await plain.abortMultipartUpload(bucket: bucket, key: key, uploadID: upload.uploadID)
                }
            }
        }
        let client = ObjectStorageClient(configuration: self.client.configuration, transport: transport)
        let result = try await client.uploadFile(from: path, bucket: bucket, key: key, options: Self.uploadOptions)
        try require(transport.aborted, "the upload was not aborted before Complete")
        try require(result.restarts == 1, "\(result.restarts) restarts, not 1")
        let (_, body) = try await self.get(key)
        try require(body == bytes, "GET returned \(body.count) bytes that differ from the file")
        try require((try? Files.load(path + ".ucp")) == nil, "the checkpoint was not removed")
    }
}

/// Runs `abort` before passing on the first CompleteMultipartUpload.
final class AbortingTransport: HTTPTransport {
    let base: any HTTPTransport
    let abort: @Sendable () async throws -> Void
    private let done = Mutex(false)

    init(base: any HTTPTransport, abort: @escaping @Sendable () async throws -> Void) {
        self.base = base
        self.abort = abort
    }

    var aborted: Bool { self.done.withLock { $0 } }

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        let isComplete = request.method == .POST && request.url.contains("uploadId=")
        if isComplete, self.done.withLock({ $0 }) == false {
            try await self.abort()
            self.done.withLock { $0 = true }
        }
        return try await self.base.execute(request, deadline: deadline, logger: logger)
    }
}
