//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore

/// An open blob for reading; its files stay readable even if they are unlinked meanwhile.
///
/// Files of at least ``BlobWriter/directWriteThreshold`` bytes are read as ``BlobWriter`` writes them: with direct
/// I/O where the file system allows it, straight into the response buffer. A large GET then takes no new page-cache
/// pages, each of which costs a host fault on a virtual machine that reclaims free guest memory (figures in
/// docs/BENCHMARKS.md). Smaller files are read through the page cache.
///
/// A blob of up to ``eagerlyOpenedFiles`` files (every object of up to that many parts) has them all opened at once,
/// so the version read is the version described even if it is replaced mid-read. A larger one (a multipart object
/// of more parts: completing an upload never copies its parts) opens a file for each read instead of holding
/// thousands of descriptors; if the object is replaced meanwhile and its files are gone, the read fails (the
/// response is cut short) rather than mixing versions: a file's path is never reused.
final class BlobReader: Sendable {
    /// The most files a blob has opened at once.
    static let eagerlyOpenedFiles = 256

    private struct Segment: Sendable {
        var file: BlobFile
        var start: Int64
        /// The open file and whether it was opened for direct I/O (reads must then be aligned), or `nil` when the
        /// file is opened for each read.
        var opened: (descriptor: Int32, direct: Bool)?
    }

    private enum Source: Sendable {
        case files([Segment])
        case memory(ByteBuffer)
    }

    private let source: Source

    /// Opens the files of `blob` (all at once, up to ``eagerlyOpenedFiles``), so the version read is the version
    /// described.
    init(_ blob: Blob) throws {
        switch blob {
        case .files(let files):
            let eager = files.count <= Self.eagerlyOpenedFiles
            var segments: [Segment] = []
            var start: Int64 = 0
            do {
                for file in files {
                    segments.append(Segment(file: file, start: start, opened: eager ? try Self.open(file) : nil))
                    start += file.size
                }
            } catch {
                for segment in segments { segment.opened.map { FileIO.closeFile($0.descriptor) } }
                throw error
            }
            source = .files(segments)
        case .memory(let buffer):
            source = .memory(buffer)
        }
    }

    /// Opens `file`, for direct I/O if it is large enough and the file system allows it.
    private static func open(_ file: BlobFile) throws -> (descriptor: Int32, direct: Bool) {
        if file.size >= BlobWriter.directWriteThreshold, let descriptor = FileIO.openForDirectReading(file.path) {
            return (descriptor, true)
        }
        return (try FileIO.openForReading(file.path), false)
    }

    /// The segment holding byte `offset` (the first that ends after it: empty files hold none), found by binary
    /// search, so that a GET of a 10,000-part object does not scan the list for each read.
    private static func segment(holding offset: Int64, in segments: [Segment]) -> Segment? {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = low + (high - low) / 2
            if segments[middle].start + segments[middle].file.size > offset { high = middle } else { low = middle + 1 }
        }
        return low < segments.count ? segments[low] : nil
    }

    /// How many bytes ``read(offset:count:allocator:)`` returns for `offset` and `count`: `count`, or less at the
    /// end of the file that holds `offset` (0 at the end of the blob).
    func readLength(at offset: Int64, upTo count: Int) -> Int {
        switch source {
        case .memory(let buffer):
            return max(0, min(count, buffer.readableBytes - Int(offset)))
        case .files(let segments):
            guard let segment = Self.segment(holding: offset, in: segments) else { return 0 }
            return Int(min(Int64(count), segment.start + segment.file.size - offset))
        }
    }

    /// Reads up to `count` bytes at `offset`, stopping at the end of the file that holds `offset`; empty only at
    /// the end of the blob (or of a file cut short).
    func read(offset: Int64, count: Int, allocator: ByteBufferAllocator) throws -> ByteBuffer {
        switch source {
        case .memory(let buffer):
            let start = Int(offset)
            let length = max(0, min(count, buffer.readableBytes - start))
            return buffer.getSlice(at: buffer.readerIndex + start, length: length) ?? ByteBuffer()
        case .files(let segments):
            guard count > 0, let segment = Self.segment(holding: offset, in: segments) else {
                return ByteBuffer()
            }
            let position = offset - segment.start
            let wanted = Int(min(Int64(count), segment.file.size - position))
            let (descriptor, direct) = try segment.opened ?? Self.open(segment.file)
            defer { if segment.opened == nil { FileIO.closeFile(descriptor) } }
            if direct { return try readAligned(descriptor, position: position, count: wanted, allocator) }
            var buffer = allocator.buffer(capacity: wanted)
            try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: wanted) { pointer in
                try FileIO.read(
                    descriptor,
                    into: UnsafeMutableRawBufferPointer(rebasing: pointer[0..<wanted]),
                    offset: position
                )
            }
            return buffer
        }
    }

    /// Reads `count` bytes at `position` of a direct-I/O file: the whole aligned pages around them, into an
    /// aligned spot of the new buffer, whose reader index then skips the extra leading bytes.
    private func readAligned(
        _ descriptor: Int32,
        position: Int64,
        count: Int,
        _ allocator: ByteBufferAllocator
    ) throws -> ByteBuffer {
        let alignment = AlignedBlock.alignment
        let skip = Int(position % Int64(alignment))
        let span = AlignedBlock.aligned(skip + count)
        var buffer = allocator.buffer(capacity: span + alignment)
        var lead = 0
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: span + alignment) { pointer in
            guard let base = pointer.baseAddress else { return 0 }
            lead = (alignment - Int(bitPattern: base) % alignment) % alignment
            let got = try FileIO.read(
                descriptor,
                into: UnsafeMutableRawBufferPointer(rebasing: pointer[lead..<lead + span]),
                offset: position - Int64(skip)
            )
            return lead + max(skip, min(got, skip + count))
        }
        buffer.moveReaderIndex(forwardBy: lead + skip)
        return buffer
    }

    deinit {
        if case .files(let segments) = source {
            for segment in segments { segment.opened.map { FileIO.closeFile($0.descriptor) } }
        }
    }
}
