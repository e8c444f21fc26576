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
/// replaced while it is read fails (412) instead of mixing two versions. The part whose turn it is goes to standard
/// output as its bytes arrive; each part after it reads ahead at most ``readAheadLimit`` bytes into memory and then
/// stops reading its connection until its turn, leaving TCP flow control to hold the rest at the sender. Memory
/// therefore stays below `concurrency × (readAheadLimit + blockSize)`, whatever the part size.
enum OrderedDownload {
    /// The size of the blocks a part is handed over in: 1 MiB.
    static let blockSize = 1 << 20
    /// The most bytes a part holds in memory while it waits for its turn: 4 MiB, or the part size if smaller.
    static let readAheadLimit = 4 << 20

    /// Writes the object at `source` to standard output.
    ///
    /// - Parameters:
    ///   - source: The object.
    ///   - options: Part size and concurrency.
    ///   - client: The client.
    /// - Throws: ``CLIError`` when the object changed while it was read or standard output fails;
    ///   ``ServiceError``, transport errors.
    static func run(from source: ObjectURL, options: TransferOptions, client: ObjectStorageClient) async throws {
        let key = source.key ?? ""
        let head = try await client.headObject(bucket: source.bucket, key: key)
        let size = head.contentLength ?? 0
        let partSize = max(options.partSize, 1)
        do {
            guard size > partSize, let etag = head.etag else {
                var request = GetObjectRequest(bucket: source.bucket, key: key)
                request.ifMatch = head.etag
                for try await chunk in try await client.getObject(request).body { try await write(chunk) }
                return
            }
            let parts = Int((size + partSize - 1) / partSize)
            try await withThrowingTaskGroup(of: Void.self) { group in
                var readAheads: [Int: PartReadAhead] = [:]
                let limit = Int(min(partSize, Int64(readAheadLimit)))
                var started = 0
                for written in 0..<parts {
                    while started < parts && started - written < options.concurrency {
                        let range = Int64(started) * partSize..<min(Int64(started + 1) * partSize, size)
                        let readAhead = PartReadAhead(limit: limit)
                        readAheads[started] = readAhead
                        group.addTask {
                            do {
                                try await fetch(source, range: range, etag: etag, client: client, into: readAhead)
                            } catch {
                                readAhead.finish(throwing: error)
                                throw error
                            }
                        }
                        started += 1
                    }
                    guard let readAhead = readAheads.removeValue(forKey: written) else { break }
                    var copied: Int64 = 0
                    while let block = try await readAhead.next() {
                        copied += Int64(block.readableBytes)
                        try await write(block)
                    }
                    let expected = min(partSize, size - Int64(written) * partSize)
                    guard copied == expected else {
                        throw CLIError(
                            status: .failure,
                            message: "cp: '\(RemoteLocation.text(source))': part \(written + 1) ended after "
                                + "\(copied) of \(expected) bytes"
                        )
                    }
                }
                try await group.waitForAll()
            }
        } catch let error as ServiceError where error.code == .preconditionFailed || error.statusCode == 412 {
            throw CLIError(
                status: .failure,
                message: "cp: '\(RemoteLocation.text(source))' was replaced while it was being read; "
                    + "standard output has only part of it"
            )
        }
    }

    /// Fetches one part with `If-Match`, handing its bytes to `readAhead` in blocks as they arrive, and finishes it.
    ///
    /// A connection lost mid-part (closed by the transport's read-idle timeout while the part waited for its turn,
    /// or by the server) is picked up with a GET of the rest of the part, still pinned to the ETag; after three
    /// such failures in a row without a byte of progress, the part fails.
    ///
    /// - Throws: ``CLIError`` when the part has another size than asked; ``ServiceError``, transport errors.
    private static func fetch(
        _ source: ObjectURL,
        range: Range<Int64>,
        etag: String,
        client: ObjectStorageClient,
        into readAhead: PartReadAhead
    ) async throws {
        let expected = range.upperBound - range.lowerBound
        var received: Int64 = 0
        var failuresWithoutProgress = 0
        // The transport's chunks may sit in larger buffers than their bytes: copied into blocks, a part that waits
        // for its turn holds no more memory than its size.
        var block = ByteBufferAllocator().buffer(capacity: blockSize)
        resuming: while received < expected {
            var request = GetObjectRequest(bucket: source.bucket, key: source.key ?? "")
            request.range = .bytes((range.lowerBound + received)...(range.upperBound - 1))
            request.ifMatch = etag
            let before = received
            do {
                for try await var chunk in try await client.getObject(request).body {
                    received += Int64(chunk.readableBytes)
                    guard received <= expected else { break resuming }
                    while chunk.readableBytes > 0 {
                        let room = blockSize - block.readableBytes
                        guard let piece = chunk.readSlice(length: min(room, chunk.readableBytes)) else { break }
                        block.writeImmutableBuffer(piece)
                        if block.readableBytes == blockSize {
                            try await readAhead.send(block)
                            block = ByteBufferAllocator().buffer(capacity: blockSize)
                        }
                    }
                }
                break resuming
            } catch is TransportError where failuresWithoutProgress < 2 || received > before {
                failuresWithoutProgress = received > before ? 0 : failuresWithoutProgress + 1
            }
        }
        if block.readableBytes > 0 { try await readAhead.send(block) }
        guard received == expected else {
            throw CLIError(
                status: .failure,
                message: "cp: '\(RemoteLocation.text(source))': bytes \(range.lowerBound)-\(range.upperBound - 1) "
                    + "came back as \(received) bytes instead of \(expected)"
            )
        }
        readAhead.finish()
    }

    /// Writes to standard output on NIO's blocking-I/O pool.
    private static func write(_ buffer: ByteBuffer) async throws {
        try await BlockingIO.run { try StandardOutput.send(buffer) }
    }
}
