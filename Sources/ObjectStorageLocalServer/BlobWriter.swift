//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorageSigning

/// A file open for writing, closed when the last reference goes, so a write still running on another task
/// never has its descriptor closed (or reused) under it.
private final class FileForWriting: Sendable {
    let descriptor: Int32
    let path: String

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { FileIO.closeFile(descriptor) }
}

/// Receives the bytes of a new blob. Each buffer is hashed as it arrives (MD5 with OpenSSL's single-stream code,
/// CRC-64 and, on request, SHA-256) and written on a separate task, so the next bytes are hashed while the previous
/// ones are written; at most one write is in flight, which bounds the memory per upload to about two blocks or
/// batches.
///
/// A large body (at least ``directWriteThreshold`` bytes announced) is written with direct I/O where the file
/// system allows it: the bytes are copied into pooled page-aligned blocks (``AlignedBlock``) and each full block is
/// written past the page cache, which takes no new memory pages (on a virtual machine whose host reclaims free guest
/// memory each new page costs a host fault; the figures are in docs/BENCHMARKS.md). Readers see the same bytes
/// either way. Smaller bodies go through the page cache in batches of at least ``batchSize`` bytes (one `writev`).
final class BlobWriter {
    static let batchSize = 1 << 20
    /// Also flush after this many buffers (a slow client sends many small ones).
    static let batchBuffers = 256
    /// The announced body size from which the file is written with direct I/O.
    static let directWriteThreshold: Int64 = 1 << 20
    /// The most memory reserved up front for a body kept in memory.
    static let memoryReservationLimit: Int64 = 64 << 20

    private var file: FileForWriting?
    private var memory = ByteBuffer()
    private var inFlight: Task<Void, any Error>?
    private var md5 = Hashing.MD5()
    private(set) var crc = CRC64()
    /// S3's checksum (`x-amz-checksum-crc64nvme`).
    private(set) var crcNVME = CRC64(.nvme)
    private var sha256: Hashing.SHA256?
    private(set) var count: Int64 = 0

    // Page-cache writes: the buffers of the next batch.
    private var batch: [ByteBuffer] = []
    private var batchBytes = 0

    // Direct writes: the block being filled, the block being written, and where the next block goes.
    private var direct = false
    private var block: AlignedBlock?
    private var blockInFlight: AlignedBlock?
    private var filled = 0
    private var written: Int64 = 0

    /// - Parameters:
    ///   - temporaryPath: The file to write, or `nil` to keep the bytes in memory.
    ///   - computeSHA256: Whether to compute the SHA-256 too (to check `x-amz-content-sha256`).
    ///   - expectedSize: The announced size of the body (`Content-Length`), if any.
    init(temporaryPath: String?, computeSHA256: Bool, expectedSize: Int64? = nil) throws {
        if let temporaryPath {
            if let expectedSize, expectedSize >= Self.directWriteThreshold,
                let descriptor = FileIO.openForDirectWriting(temporaryPath)
            {
                file = FileForWriting(descriptor: descriptor, path: temporaryPath)
                direct = true
            } else {
                file = FileForWriting(descriptor: try FileIO.openForWriting(temporaryPath), path: temporaryPath)
            }
        } else if let expectedSize, expectedSize > 0 {
            // One allocation instead of a doubling series (capped: the announced size is the client's word).
            memory.reserveCapacity(Int(min(expectedSize, Self.memoryReservationLimit)))
        }
        if computeSHA256 { sha256 = Hashing.SHA256() }
    }

    /// Hashes `buffer` and queues it for writing.
    func write(_ buffer: ByteBuffer) async throws {
        buffer.withUnsafeReadableBytes { bytes in
            md5.update(bufferPointer: bytes)
            crc.update(bufferPointer: bytes)
            crcNVME.update(bufferPointer: bytes)
            sha256?.update(bufferPointer: bytes)
        }
        count += Int64(buffer.readableBytes)
        guard let file else {
            memory.writeImmutableBuffer(buffer)
            return
        }
        if direct {
            try await stage(buffer, file: file)
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
        inFlight = FileIO.startBlocking { try FileIO.writeAll(file.descriptor, buffers, path: file.path) }
    }

    /// Copies `buffer` into aligned blocks, writing each block as it fills.
    private func stage(_ buffer: ByteBuffer, file: FileForWriting) async throws {
        var copied = 0
        while copied < buffer.readableBytes {
            let block = self.block ?? AlignedBlock.take()
            self.block = block
            let length = min(buffer.readableBytes - copied, block.bytes.count - filled)
            let start = filled
            buffer.withUnsafeReadableBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: block.bytes[start..<start + length])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[copied..<copied + length]))
            }
            filled += length
            copied += length
            if filled == block.bytes.count { try await writeBlock(file, length: filled) }
        }
    }

    /// Waits for the write in flight, then starts writing the first `length` bytes of the current block (a
    /// multiple of the alignment) at the end of the file; the block written before becomes the one to fill.
    private func writeBlock(_ file: FileForWriting, length: Int) async throws {
        guard let block else { return }
        try await inFlight?.value
        let offset = written
        inFlight = FileIO.startBlocking {
            try FileIO.writeAll(
                file.descriptor,
                UnsafeRawBufferPointer(rebasing: block.bytes[0..<length]),
                offset: offset,
                path: file.path
            )
        }
        self.block = blockInFlight
        blockInFlight = block
        written += Int64(length)
        filled = 0
    }

    var sha256Digest: [UInt8]? { sha256?.finalize() }

    /// The MD5 of the bytes written. Read once.
    var md5Digest: [UInt8] { md5.finalize() }

    /// Writes what is queued, closes the file and returns the blob (a file at the temporary path, not yet in place).
    func finish() async throws -> Blob {
        guard let file else { return .memory([memory]) }
        if direct {
            if filled > 0, let block {
                // A direct write takes whole pages: pad the tail, then cut the file back to its size.
                let padded = AlignedBlock.aligned(filled)
                _ = UnsafeMutableRawBufferPointer(rebasing: block.bytes[filled..<padded])
                    .initializeMemory(as: UInt8.self, repeating: 0)
                try await writeBlock(file, length: padded)
            }
            try await inFlight?.value
            try FileIO.truncate(file.descriptor, size: count, path: file.path)
        } else {
            if !batch.isEmpty { try await flush(file) }
            try await inFlight?.value
        }
        inFlight = nil
        recycleBlocks()
        self.file = nil
        return .file(file.path, size: count)
    }

    /// Discards what was written.
    func abandon() async {
        _ = try? await inFlight?.value
        inFlight = nil
        recycleBlocks()
        if let file { FileIO.remove(file.path) }
        file = nil
    }

    /// Gives the blocks back to the pool; only once no write is in flight.
    private func recycleBlocks() {
        for block in [block, blockInFlight].compactMap({ $0 }) { AlignedBlock.recycle(block) }
        block = nil
        blockInFlight = nil
    }

    deinit {
        if let file { FileIO.remove(file.path) }
    }
}
