//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorage
import ObjectStorageTransport

/// `cp URL -`: writes an object to standard output in order, with bounded memory.
///
/// A HEAD gives the size and ETag. An object of at most one part is read with one GET; a larger one with ranged
/// GETs of one part each, `concurrency` at a time, every one with `If-Match` on the HEAD's ETag, so an object
/// replaced while it is read fails (412) instead of mixing two versions. Parts that arrive early wait for their
/// turn: no more than `concurrency` parts are in memory, fetched or being fetched.
enum OrderedDownload {
    /// Writes the object at `source` to standard output.
    ///
    /// - Parameters:
    ///   - source: The object.
    ///   - options: Part size, concurrency and bandwidth limit.
    ///   - client: The client.
    /// - Throws: ``CLIError`` when the object changed while it was read or standard output fails;
    ///   ``ServiceError``, transport errors.
    static func run(from source: ObjectURL, options: TransferOptions, client: ObjectStorageClient) async throws {
        let key = source.key ?? ""
        let head = try await client.headObject(bucket: source.bucket, key: key)
        let size = head.contentLength ?? 0
        let partSize = max(options.partSize, 1)
        let limiter = options.bandwidthLimit.map { BandwidthLimiter(bytesPerSecond: $0) }
        do {
            try await BandwidthLimiter.$transfer.withValue(limiter) {
                guard size > partSize, let etag = head.etag else {
                    var request = GetObjectRequest(bucket: source.bucket, key: key)
                    request.ifMatch = head.etag
                    for try await chunk in try await client.getObject(request).body { try await write(chunk) }
                    return
                }
                let parts = Int((size + partSize - 1) / partSize)
                try await withThrowingTaskGroup(of: (Int, ByteBuffer).self) { group in
                    var ready: [Int: ByteBuffer] = [:]
                    var started = 0
                    var written = 0
                    while written < parts {
                        while started < parts && started - written < options.concurrency {
                            let number = started
                            let range = Int64(number) * partSize..<min(Int64(number + 1) * partSize, size)
                            group.addTask {
                                (number, try await fetch(source, range: range, etag: etag, client: client))
                            }
                            started += 1
                        }
                        if let part = ready.removeValue(forKey: written) {
                            try await write(part)
                            written += 1
                        } else if let fetched = try await group.next() {
                            ready[fetched.0] = fetched.1
                        } else {
                            break
                        }
                    }
                }
            }
        } catch let error as ServiceError where error.code == .preconditionFailed || error.statusCode == 412 {
            throw CLIError(
                status: .failure,
                message: "cp: '\(RemoteLocation.text(source))' was replaced while it was being read; "
                    + "standard output has only part of it"
            )
        }
    }

    /// One part, read whole, with `If-Match`.
    private static func fetch(
        _ source: ObjectURL,
        range: Range<Int64>,
        etag: String,
        client: ObjectStorageClient
    ) async throws -> ByteBuffer {
        var request = GetObjectRequest(bucket: source.bucket, key: source.key ?? "")
        request.range = .bytes(range.lowerBound...(range.upperBound - 1))
        request.ifMatch = etag
        let count = Int(range.upperBound - range.lowerBound)
        var part = ByteBufferAllocator().buffer(capacity: count)
        for try await var chunk in try await client.getObject(request).body {
            guard part.readableBytes + chunk.readableBytes <= count else { break }
            part.writeBuffer(&chunk)
        }
        guard part.readableBytes == count else {
            throw CLIError(
                status: .failure,
                message: "cp: '\(RemoteLocation.text(source))': bytes \(range.lowerBound)-\(range.upperBound - 1) "
                    + "came back as \(part.readableBytes) bytes instead of \(count)"
            )
        }
        return part
    }

    /// Writes to standard output on NIO's blocking-I/O pool.
    private static func write(_ buffer: ByteBuffer) async throws {
        try await BlockingIO.run { try StandardOutput.send(buffer) }
    }
}
