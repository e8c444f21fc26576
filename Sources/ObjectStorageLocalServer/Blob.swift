//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorageSigning

/// The bytes of one object version or part. Never modified once committed: a new version is a new
/// blob, so a reader holding an open blob never sees bytes of two versions.
enum Blob: Sendable {
    /// Immutable files read one after another: one file, or the parts of a multipart object (completing an
    /// upload does not copy them). Removed when the version they hold is replaced (open readers keep them alive).
    case files([BlobFile])
    /// Bytes in memory.
    case memory(ByteBuffer)

    /// One file of `size` bytes.
    static func file(_ path: String, size: Int64) -> Blob { .files([BlobFile(path: path, size: size)]) }

    /// The files holding the bytes, in order (none for a memory blob).
    var paths: [String] {
        switch self {
        case .files(let files): files.map(\.path)
        case .memory: []
        }
    }
}

/// One file of a ``Blob``.
struct BlobFile: Sendable, Hashable {
    var path: String
    var size: Int64
}

/// An open blob for reading; its files stay readable even if they are unlinked meanwhile.
final class BlobReader: Sendable {
    private struct Segment: Sendable {
        var descriptor: Int32
        var start: Int64
        var size: Int64
    }

    private enum Source: Sendable {
        case files([Segment])
        case memory(ByteBuffer)
    }

    private let source: Source

    /// Opens every file of `blob` at once, so the version read is the version described.
    init(_ blob: Blob) throws {
        switch blob {
        case .files(let files):
            var segments: [Segment] = []
            var start: Int64 = 0
            do {
                for file in files {
                    segments.append(
                        Segment(descriptor: try FileIO.openForReading(file.path), start: start, size: file.size)
                    )
                    start += file.size
                }
            } catch {
                for segment in segments { FileIO.closeFile(segment.descriptor) }
                throw error
            }
            source = .files(segments)
        case .memory(let buffer):
            source = .memory(buffer)
        }
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the blob.
    func read(offset: Int64, count: Int, allocator: ByteBufferAllocator) throws -> ByteBuffer {
        switch source {
        case .memory(let buffer):
            let start = Int(offset)
            let length = max(0, min(count, buffer.readableBytes - start))
            return buffer.getSlice(at: buffer.readerIndex + start, length: length) ?? ByteBuffer()
        case .files(let segments):
            var buffer = allocator.buffer(capacity: count)
            try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
                var filled = 0
                var index = segments.firstIndex { offset < $0.start + $0.size } ?? segments.endIndex
                while filled < count, index < segments.endIndex {
                    let segment = segments[index]
                    let position = offset + Int64(filled) - segment.start
                    let wanted = Int(min(Int64(count - filled), segment.size - position))
                    let got = try FileIO.read(
                        segment.descriptor,
                        into: UnsafeMutableRawBufferPointer(rebasing: pointer[filled..<filled + wanted]),
                        offset: position
                    )
                    filled += got
                    if got < wanted { break }
                    index += 1
                }
                return filled
            }
            return buffer
        }
    }

    deinit {
        if case .files(let segments) = source {
            for segment in segments { FileIO.closeFile(segment.descriptor) }
        }
    }
}

/// A file open for writing, closed when the last reference goes, so a write still running on another task
/// never has its descriptor closed (or reused) under it.
private final class FileForWriting: Sendable {
    let descriptor: Int32
    let path: String

    init(_ path: String) throws {
        descriptor = try FileIO.openForWriting(path)
        self.path = path
    }

    deinit { FileIO.closeFile(descriptor) }
}

/// Receives the bytes of a new blob. Each buffer is hashed as it arrives; the file is written in batches of
/// at least ``batchSize`` bytes (one `writev`) on a separate task, so the next batch is hashed while the previous
/// one is written. At most one batch is in flight, which bounds the memory per upload to about two batches.
final class BlobWriter {
    static let batchSize = 1 << 20
    /// Also flush after this many buffers (a slow client sends many small ones).
    static let batchBuffers = 256

    private var file: FileForWriting?
    private var memory = ByteBuffer()
    private var batch: [ByteBuffer] = []
    private var batchBytes = 0
    private var inFlight: Task<Void, any Error>?
    private(set) var md5 = Hashing.MD5()
    private(set) var crc = CRC64()
    private var sha256: Hashing.SHA256?
    private(set) var count: Int64 = 0

    /// - Parameters:
    ///   - temporaryPath: The file to write, or `nil` to keep the bytes in memory.
    ///   - computeSHA256: Whether to compute the SHA-256 too (to check `x-amz-content-sha256`).
    init(temporaryPath: String?, computeSHA256: Bool) throws {
        if let temporaryPath { file = try FileForWriting(temporaryPath) }
        if computeSHA256 { sha256 = Hashing.SHA256() }
    }

    /// Hashes `buffer` and queues it for writing.
    func write(_ buffer: ByteBuffer) async throws {
        buffer.withUnsafeReadableBytes { bytes in
            md5.update(bufferPointer: bytes)
            crc.update(bufferPointer: bytes)
            sha256?.update(bufferPointer: bytes)
        }
        count += Int64(buffer.readableBytes)
        guard let file else {
            memory.writeImmutableBuffer(buffer)
            return
        }
        batch.append(buffer)
        batchBytes += buffer.readableBytes
        if batchBytes >= Self.batchSize || batch.count >= Self.batchBuffers { try await flush(file) }
    }

    /// Waits for the write in flight, then starts writing the queued batch.
    private func flush(_ file: FileForWriting) async throws {
        let buffers = batch
        batch = []
        batchBytes = 0
        try await inFlight?.value
        inFlight = Task.detached { try FileIO.writeAll(file.descriptor, buffers, path: file.path) }
    }

    var sha256Digest: [UInt8]? { sha256?.finalize() }

    /// Writes what is queued, closes the file and returns the blob (a file at the temporary path, not yet in place).
    func finish() async throws -> Blob {
        guard let file else { return .memory(memory) }
        if !batch.isEmpty { try await flush(file) }
        try await inFlight?.value
        inFlight = nil
        self.file = nil
        return .file(file.path, size: count)
    }

    /// Discards what was written.
    func abandon() async {
        _ = try? await inFlight?.value
        inFlight = nil
        if let file { FileIO.remove(file.path) }
        file = nil
    }

    deinit {
        if let file { FileIO.remove(file.path) }
    }
}
