//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOHTTP1
import ObjectStorageCheckpoint
import ObjectStorageSigning
import ObjectStorageTransport
import Synchronization

/// Writes one part's bytes into the temp file as they arrive, across the attempts of that part.
///
/// It checks each answer's head (ETag, status, `Content-Range`) before a byte is written, then feeds each
/// buffer to the part's CRC-64 (and, when the part is one of the object's multipart-upload parts, its MD5) in the
/// same pass as it moves the bytes:
///
/// - With a file that takes direct I/O, the bytes are copied into page-aligned 1 MiB buffers, and each full
///   buffer is written with `O_DIRECT` on NIO's thread pool while the next one fills. The page cache is bypassed: writing a
///   GiB through it cost more CPU than receiving it (allocating and dirtying 262,144 pages, then writing them
///   back), and a direct write costs a tenth of that. When two writes are in flight the connection waits
///   (backpressure), so a part never holds more than three buffers (3 MiB).
/// - Otherwise (or when the download reads the file back to check an MD5) each buffer is `pwrite`n at its
///   offset through the page cache.
///
/// Only one attempt of a part runs at a time, so the lock is never contended; it makes the position and
/// CRC reached readable after an attempt fails.
final class PartWriter: ResponseBodyConsumer {
    private struct State {
        /// The next offset of the object to receive.
        var position: Int64
        var crc = CRC64()
        /// The MD5 of the bytes received, when the part is one of the object's multipart-upload parts.
        var md5: Hashing.MD5?
        /// Leading body bytes to drop (a 200 answer carries the object from its first byte).
        var skip: Int64 = 0
        /// Direct mode: the buffer being filled and the temp-file offset of its first byte.
        var staging: DirectWriteBuffer?
        var stagingOffset: Int64 = 0
        /// Direct mode: the writes in flight, oldest first.
        var writes: [(id: Int, done: EventLoopFuture<Void>)] = []
        var nextWriteID = 0
        var writeFailure: (any Error)?
        /// An answer sent bytes past the part's end.
        var overflowed = false

        /// Adds received bytes to the CRC-64 and, if kept, the MD5.
        mutating func digest(_ bytes: UnsafeRawBufferPointer) {
            self.crc.update(bufferPointer: bytes)
            self.md5?.update(bufferPointer: bytes)
        }
    }

    let range: Range<Int64>
    private let layoutStart: Int64
    private let object: DownloadCheckpoint.ObjectState
    private let file: DownloadTempFile
    private let reporter: TransferProgressReporter?
    /// Where direct mode's buffers come from, or `nil` for writes through the page cache.
    private let buffers: DirectWriteBufferPool?
    private let state: Mutex<State>

    init(
        range: Range<Int64>,
        layoutStart: Int64,
        object: DownloadCheckpoint.ObjectState,
        file: DownloadTempFile,
        reporter: TransferProgressReporter?,
        directBuffers: DirectWriteBufferPool?,
        hashesMD5: Bool = false
    ) {
        self.range = range
        self.layoutStart = layoutStart
        self.object = object
        self.file = file
        self.reporter = reporter
        let aligned = (range.lowerBound - layoutStart) % Int64(DownloadTempFile.directAlignment) == 0
        self.buffers = file.directDescriptor != nil && aligned ? directBuffers : nil
        self.state = Mutex(
            State(
                position: range.lowerBound,
                crc: CRC64(object.crc64Polynomial),
                md5: hashesMD5 ? Hashing.MD5() : nil
            )
        )
    }

    /// The next offset to fetch: the part's end once it is complete.
    var position: Int64 { self.state.withLock { $0.position } }

    /// The CRC-64 of the bytes received so far.
    var crc64: UInt64 { self.state.withLock { $0.crc.value } }

    /// The MD5 of the bytes received so far, if the writer was asked to hash them.
    var md5: [UInt8]? { self.state.withLock { $0.md5?.finalize() } }

    /// Checks a 2xx answer before any of its bytes is written; leaves other answers to the caller.
    func accept(status: HTTPResponseStatus, headers: HTTPHeaders) throws -> Bool {
        guard (200..<300).contains(status.code) else { return false }
        try self.state.withLock { state in
            state.skip = try self.check(status: status, headers: headers, position: state.position)
            state.overflowed = false
        }
        return true
    }

    /// Takes a buffer on the event loop: direct mode stages it, otherwise it is written at once.
    ///
    /// An answer that ends with the part ends the request normally, so its connection is kept; only bytes
    /// past the part's end (a 200 carrying the whole object) end it early.
    func consume(_ buffer: ByteBuffer, on eventLoop: any EventLoop) throws -> BodyDemand {
        guard let buffers = self.buffers else {
            _ = try self.consume(buffer)
            return self.state.withLock { $0.overflowed } ? .done : .more
        }
        var full: [(DirectWriteBuffer, Int64)] = []
        let (count, overflowed) = try buffer.withUnsafeReadableBytes { bytes in
            try self.state.withLock { state in
                if let failure = state.writeFailure { throw failure }
                let kept = UnsafeRawBufferPointer(rebasing: bytes[self.share(of: bytes.count, &state)])
                var rest = kept
                while !rest.isEmpty {
                    let staging: DirectWriteBuffer
                    if let current = state.staging {
                        staging = current
                    } else {
                        staging = buffers.take()
                        state.staging = staging
                        state.stagingOffset = state.position - self.layoutStart
                    }
                    let taken = staging.append(rest)
                    state.digest(UnsafeRawBufferPointer(rebasing: rest[..<taken]))
                    state.position += Int64(taken)
                    rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
                    if staging.isFull {
                        full.append((staging, state.stagingOffset))
                        state.staging = nil
                    }
                }
                return (kept.count, state.overflowed)
            }
        }
        self.counted(count)
        for (buffer, offset) in full { self.startWrite(buffer, at: offset, on: eventLoop) }
        if overflowed { return .done }
        // Two writes in flight: wait for the older one before taking more bytes.
        let waitFor = self.state.withLock { $0.writes.count >= 2 ? $0.writes.first?.done : nil }
        return waitFor.map { .after($0) } ?? .more
    }

    /// Takes a buffer outside direct mode: writes the part's share of it at its offset through the page cache
    /// and adds it to the CRC; `false` once the part is complete.
    func consume(_ buffer: ByteBuffer) throws -> Bool {
        let (offset, count) = try buffer.withUnsafeReadableBytes { (bytes) throws(ObjectStorageError) in
            let (offset, share) = self.state.withLock { state in (state.position, self.share(of: bytes.count, &state)) }
            let kept = UnsafeRawBufferPointer(rebasing: bytes[share])
            guard !kept.isEmpty else { return (offset, 0) }
            try self.file.write(kept, at: offset - self.layoutStart)
            self.state.withLock { state in
                state.digest(kept)
                state.position += Int64(kept.count)
            }
            return (offset, kept.count)
        }
        self.counted(count)
        return offset + Int64(count) < self.range.upperBound
    }

    /// Writes what is staged and waits for every write of the part; call once its bytes have all arrived.
    ///
    /// - Throws: The first write's error.
    func finish() async throws {
        let (staging, offset) = self.state.withLock { state in
            defer { state.staging = nil }
            return (state.staging, state.stagingOffset)
        }
        await self.drain()
        if let failure = self.state.withLock({ $0.writeFailure }) { throw failure }
        guard let staging else { return }
        defer { self.buffers?.give(staging) }
        let file = self.file
        try await BlockingIO.run {
            // The aligned head goes to the disk directly; the tail (the object's last bytes) through the cache.
            let bytes = staging.bytes
            let head = bytes.count - bytes.count % DownloadTempFile.directAlignment
            try file.writeDirect(UnsafeRawBufferPointer(rebasing: bytes[..<head]), at: offset)
            try file.write(UnsafeRawBufferPointer(rebasing: bytes[head...]), at: offset + Int64(head))
        }
    }

    /// Waits for the writes in flight and drops what is staged: the part is given up.
    func abandon() async {
        await self.drain()
        if let staging = self.state.withLock({ state in
            defer { state.staging = nil }
            return state.staging
        }) {
            self.buffers?.give(staging)
        }
    }

    /// Waits for the writes in flight.
    private func drain() async {
        while let next = self.state.withLock({ $0.writes.first?.done }) {
            try? await next.get()
            // The completion callback removes the write; wait for it to have run.
            await Task.yield()
        }
    }

    /// The part's share of the next `available` body bytes: without the bytes to skip and the bytes past the
    /// part's end.
    private func share(of available: Int, _ state: inout State) -> Range<Int> {
        let dropped = Int(min(state.skip, Int64(available)))
        state.skip -= Int64(dropped)
        // A 200 answer carries the rest of the object: keep only this part's bytes.
        let count = Int(max(0, min(Int64(available - dropped), self.range.upperBound - state.position)))
        if count < available - dropped { state.overflowed = true }
        return dropped..<(dropped + count)
    }

    private func counted(_ count: Int) {
        guard count > 0 else { return }
        self.reporter?.add(Int64(count))
    }

    /// Writes a full staging buffer on the thread pool; it returns to the spares when done.
    private func startWrite(_ buffer: DirectWriteBuffer, at offset: Int64, on eventLoop: any EventLoop) {
        let file = self.file
        let done = BlockingIO.run(on: eventLoop) {
            try file.writeDirect(buffer.bytes, at: offset)
        }
        let id = self.state.withLock { state in
            defer { state.nextWriteID += 1 }
            state.writes.append((state.nextWriteID, done))
            return state.nextWriteID
        }
        done.whenComplete { result in
            self.state.withLock { state in
                state.writes.removeAll { $0.id == id }
                if case .failure(let error) = result, state.writeFailure == nil { state.writeFailure = error }
            }
            self.buffers?.give(buffer)
        }
    }

    /// Checks the answer before any byte is written; returns how many leading body bytes to skip
    /// (a server that ignores `Range` sends the whole object with 200).
    private func check(status: HTTPResponseStatus, headers: HTTPHeaders, position: Int64) throws -> Int64 {
        if !self.object.etag.isEmpty, let etag = headers.first(name: "ETag"),
            Self.opaque(etag) != Self.opaque(self.object.etag)
        {
            throw ObjectChangedSignal(reason: "the ETag changed from \(self.object.etag) to \(etag)")
        }
        // rclone serve s3 answers a Range GET with 200 and the range's bytes, described by Content-Range:
        // a 200 that carries a valid Content-Range is read as the partial answer it is.
        let contentRange = headers.first(name: "Content-Range").flatMap(ContentRange.init)
        let end = self.range.upperBound
        switch status.code {
        case 206,
            200 where contentRange != nil:
            guard let range = contentRange else {
                throw ObjectStorageError.invalidResponse("a 206 answer without a valid Content-Range")
            }
            if let total = range.total, total != self.object.size {
                throw ObjectChangedSignal(reason: "the size changed from \(self.object.size) to \(total)")
            }
            guard range.first == position, range.last == end - 1 else {
                throw ObjectStorageError.invalidResponse(
                    "asked for bytes \(position)-\(end - 1), the service sent \(range.first)-\(range.last)"
                )
            }
            return 0
        case 200:
            if let length = headers.first(name: "Content-Length").flatMap({ Int64($0) }), length != self.object.size {
                throw ObjectChangedSignal(reason: "the size changed from \(self.object.size) to \(length)")
            }
            return position
        default:
            throw ObjectStorageError.invalidResponse("unexpected status \(status.code) for a ranged GET")
        }
    }

    /// The ETag without quotes or a weak prefix, for comparison.
    private static func opaque(_ etag: String) -> Substring {
        var text = Substring(etag)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.hasPrefix("\"") { text = text.dropFirst() }
        if text.hasSuffix("\"") { text = text.dropLast() }
        return text
    }
}
