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

    /// One file or buffer of the blob, and where its bytes start in the blob.
    private struct Segment: Sendable {
        enum Content: Sendable {
            /// The file, open with whether it was opened for direct I/O (reads must then be aligned), or not open
            /// (`nil`) when it is opened for each read.
            case file(BlobFile, opened: (descriptor: Int32, direct: Bool)?)
            case memory(ByteBuffer)
        }

        var content: Content
        var start: Int64
        var size: Int64

        var end: Int64 { start + size }
    }

    private let segments: [Segment]

    /// Opens the files of `blob` (all at once, up to ``eagerlyOpenedFiles``), so the version read is the version
    /// described.
    init(_ blob: Blob) throws {
        var segments: [Segment] = []
        var start: Int64 = 0
        switch blob {
        case .files(let files):
            let eager = files.count <= Self.eagerlyOpenedFiles
            do {
                for file in files {
                    let opened = eager ? try Self.open(file) : nil
                    segments.append(Segment(content: .file(file, opened: opened), start: start, size: file.size))
                    start += file.size
                }
            } catch {
                Self.close(segments)
                throw error
            }
        case .memory(let buffers):
            for buffer in buffers {
                let size = Int64(buffer.readableBytes)
                segments.append(Segment(content: .memory(buffer), start: start, size: size))
                start += size
            }
        }
        self.segments = segments
    }

    /// Opens `file`, for direct I/O if it is large enough and the file system allows it.
    private static func open(_ file: BlobFile) throws -> (descriptor: Int32, direct: Bool) {
        if file.size >= BlobWriter.directWriteThreshold, let descriptor = FileIO.openForDirectReading(file.path) {
            return (descriptor, true)
        }
        return (try FileIO.openForReading(file.path), false)
    }

    private static func close(_ segments: [Segment]) {
        for segment in segments {
            if case .file(_, let opened?) = segment.content { FileIO.closeFile(opened.descriptor) }
        }
    }

    /// The segment holding byte `offset` (the first that ends after it: empty files hold none), found by binary
    /// search, so that a GET of a 10,000-part object does not scan the list for each read.
    private func segment(holding offset: Int64) -> Segment? {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = low + (high - low) / 2
            if segments[middle].end > offset { high = middle } else { low = middle + 1 }
        }
        return low < segments.count ? segments[low] : nil
    }

    /// How many bytes ``read(offset:count:allocator:)`` returns for `offset` and `count`: `count`, or less at the
    /// end of the file or buffer that holds `offset` (0 at the end of the blob).
    func readLength(at offset: Int64, upTo count: Int) -> Int {
        guard let segment = segment(holding: offset) else { return 0 }
        return Int(min(Int64(count), segment.end - offset))
    }

    /// Reads up to `count` bytes at `offset`, stopping at the end of the file or buffer that holds `offset`; empty
    /// only at the end of the blob (or of a file cut short).
    func read(offset: Int64, count: Int, allocator: ByteBufferAllocator) throws -> ByteBuffer {
        guard count > 0, let segment = segment(holding: offset) else { return ByteBuffer() }
        let position = offset - segment.start
        let wanted = Int(min(Int64(count), segment.size - position))
        switch segment.content {
        case .memory(let buffer):
            return buffer.getSlice(at: buffer.readerIndex + Int(position), length: wanted) ?? ByteBuffer()
        case .file(let file, let opened):
            let (descriptor, direct) = try opened ?? Self.open(file)
            defer { if opened == nil { FileIO.closeFile(descriptor) } }
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

    deinit { Self.close(segments) }
}
