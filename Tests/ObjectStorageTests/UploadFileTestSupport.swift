//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

/// Files, digests and transports shared by the uploadFile suites.
enum UploadFileFixture {
    static let bucket = "uploads"

    /// The dialects the upload engine is tested in.
    static let dialects: [ClientDialect] = [.ossV4, .obs, .s3]

    /// A part size the local server accepts in `dialect` (its minimum).
    static func partSize(_ dialect: ClientDialect) -> Int64 { Int64(dialect.minimumPartSize) }

    /// A file size giving several parts: 6 parts of 100 KiB plus a tail for OSS/OBS; 2 parts of
    /// 5 MiB plus a tail for S3.
    static func fileSize(_ dialect: ClientDialect) -> Int {
        dialect.provider == .s3 ? 2 * dialect.minimumPartSize + 300_000 : 6 * dialect.minimumPartSize + 12_345
    }

    /// Writes `bytes` to a new temporary file and returns its path.
    static func makeFile(_ bytes: [UInt8], name: String = "source.bin") throws -> String {
        let path = temporaryPath(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Removes the file and its default checkpoint and lock.
    static func cleanUp(_ path: String) {
        for suffix in ["", ".ucp", ".ucp.lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The SHA-256 of the object as a GET returns it.
    static func objectSHA256(_ client: ObjectStorageClient, key: String) async throws -> [UInt8] {
        let body = try await client.getObject(GetObjectRequest(bucket: bucket, key: key)).body
        var hash = Hashing.SHA256()
        for try await chunk in body {
            chunk.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
        }
        return hash.finalize()
    }

    /// The upload ids in progress in the bucket.
    static func pendingUploads(_ client: ObjectStorageClient) async throws -> [String] {
        var ids: [String] = []
        for try await page in client.listMultipartUploads(bucket: bucket) {
            ids += page.uploads.map(\.uploadID)
        }
        return ids
    }

    /// A client talking to the same server as `client` through the plain transport.
    static func plainClient(like client: ObjectStorageClient) -> ObjectStorageClient {
        ObjectStorageClient(
            configuration: client.configuration,
            transport: AsyncHTTPClientTransport.shared,
            logger: .scanning
        )
    }

    /// A call with the test defaults: checkpoint on, the dialect's minimum part size.
    static func request(_ dialect: ClientDialect, path: String, key: String = "object") -> UploadFileCall {
        var request = UploadFileCall(bucket: bucket, key: key, filePath: path)
        request.options.enableCheckpoint = true
        request.options.partSize = partSize(dialect)
        request.options.concurrency = 2
        return request
    }
}

/// Collects progress reports.
final class ProgressLog: Sendable {
    private let reports = Mutex<[TransferProgress]>([])

    var all: [TransferProgress] { reports.withLock { $0 } }

    var handler: TransferProgressHandler {
        { progress in self.reports.withLock { $0.append(progress) } }
    }
}

/// Lets UploadPart requests through until `limit` of them have been answered, then holds every new
/// UploadPart request until its task is cancelled; each answered part is announced on `events`.
final class PartGateTransport: HTTPTransport {
    let base: any HTTPTransport
    let limit: Int
    let answered: Mutex<Int>
    let events: AsyncStream<Int>.Continuation

    init(base: any HTTPTransport, limit: Int, events: AsyncStream<Int>.Continuation) {
        self.base = base
        self.limit = limit
        self.answered = Mutex(0)
        self.events = events
    }

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        guard request.method == .PUT, request.url.contains("partNumber=") else {
            return try await base.execute(request, deadline: deadline, logger: logger)
        }
        if answered.withLock({ $0 >= limit }) {
            try await Task.sleep(for: .seconds(120))
        }
        let response = try await base.execute(request, deadline: deadline, logger: logger)
        let count = answered.withLock { count in
            count += 1
            return count
        }
        events.yield(count)
        return response
    }
}

/// Flips the first byte of every UploadPart body while keeping its headers (Content-MD5 included).
struct CorruptingPartTransport: HTTPTransport {
    let base: any HTTPTransport

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        guard request.method == .PUT, request.url.contains("partNumber="), let body = request.body else {
            return try await base.execute(request, deadline: deadline, logger: logger)
        }
        var bytes: [UInt8] = []
        for try await chunk in body { bytes += chunk.readableBytesView }
        if !bytes.isEmpty { bytes[0] ^= 0xFF }
        var altered = request
        altered.body = .bytes(ByteBuffer(bytes: bytes))
        return try await base.execute(altered, deadline: deadline, logger: logger)
    }
}
