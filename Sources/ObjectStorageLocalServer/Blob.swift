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
    /// A file, immutable; removed when the version it holds is replaced (open readers keep it alive).
    case file(String)
    /// Bytes in memory.
    case memory(ByteBuffer)
}

/// An open blob for reading; a file stays readable even if it is unlinked meanwhile.
final class BlobReader: Sendable {
    enum Source: Sendable {
        case file(Int32)
        case memory(ByteBuffer)
    }

    let source: Source

    init(_ blob: Blob) throws {
        switch blob {
        case .file(let path): source = .file(try FileIO.openForReading(path))
        case .memory(let buffer): source = .memory(buffer)
        }
    }

    /// Reads up to `count` bytes at `offset`.
    func read(offset: Int64, count: Int, allocator: ByteBufferAllocator) throws -> ByteBuffer {
        switch source {
        case .memory(let buffer):
            let start = Int(offset)
            let length = max(0, min(count, buffer.readableBytes - start))
            return buffer.getSlice(at: buffer.readerIndex + start, length: length) ?? ByteBuffer()
        case .file(let fd):
            var buffer = allocator.buffer(capacity: count)
            try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
                try FileIO.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: pointer[0..<count]), offset: offset)
            }
            return buffer
        }
    }

    deinit {
        if case .file(let fd) = source { FileIO.closeFile(fd) }
    }
}

/// Receives the bytes of a new blob, hashing them as they arrive.
final class BlobWriter {
    private enum Target {
        case file(fd: Int32, path: String)
        case memory(ByteBuffer)
        case finished
    }

    private var target: Target
    private(set) var md5 = Hashing.MD5()
    private(set) var crc = CRC64()
    private var sha256: Hashing.SHA256?
    private(set) var count: Int64 = 0

    /// - Parameters:
    ///   - temporaryPath: The file to write, or `nil` to keep the bytes in memory.
    ///   - computeSHA256: Whether to compute the SHA-256 too (to check `x-amz-content-sha256`).
    init(temporaryPath: String?, computeSHA256: Bool) throws {
        if let temporaryPath {
            target = .file(fd: try FileIO.openForWriting(temporaryPath), path: temporaryPath)
        } else {
            target = .memory(ByteBuffer())
        }
        if computeSHA256 { sha256 = Hashing.SHA256() }
    }

    func write(_ buffer: ByteBuffer) throws {
        try buffer.withUnsafeReadableBytes { bytes in
            md5.update(bufferPointer: bytes)
            crc.update(bufferPointer: bytes)
            sha256?.update(bufferPointer: bytes)
            switch target {
            case .file(let fd, let path): try FileIO.writeAll(fd, bytes, path: path)
            case .memory, .finished: break
            }
        }
        if case .memory(var accumulated) = target {
            target = .finished
            accumulated.writeImmutableBuffer(buffer)
            target = .memory(accumulated)
        }
        count += Int64(buffer.readableBytes)
    }

    var sha256Digest: [UInt8]? { sha256?.finalize() }

    /// Finishes writing and returns the blob (a file at the temporary path, not yet in place).
    func finish() -> Blob {
        defer { target = .finished }
        switch target {
        case .file(let fd, let path):
            FileIO.closeFile(fd)
            return .file(path)
        case .memory(let buffer):
            return .memory(buffer)
        case .finished:
            return .memory(ByteBuffer())
        }
    }

    /// Discards what was written.
    func abandon() {
        if case .file(let fd, let path) = target {
            FileIO.closeFile(fd)
            FileIO.remove(path)
        }
        target = .finished
    }

    deinit { abandon() }
}
