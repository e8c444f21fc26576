//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import NIOCore
import ObjectStorageTestSupport
import Testing

@testable import ObjectStorageLocalServer

/// Reads that find their file or buffer among a blob's, empty ones included, files opened eagerly or per read.
@Suite("Blob reader")
struct BlobReaderTests {
    @Test(
        "Every offset reads the bytes of the file holding it, up to that file's end",
        arguments: [4, BlobReader.eagerlyOpenedFiles + 3]
    )
    func everyOffsetReadsFromTheFileHoldingIt(fileCount: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Sizes cycle through 0 (an empty first file), 5, 0 (an empty file between two others) and 3 bytes.
        var files: [BlobFile] = []
        var contents: [[UInt8]] = []
        for index in 0..<fileCount {
            let bytes = testBytes([0, 5, 0, 3][index % 4], seed: UInt8(truncatingIfNeeded: index))
            let path = directory.appendingPathComponent("part-\(index)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            files.append(BlobFile(path: path, size: Int64(bytes.count)))
            contents.append(bytes)
        }
        try expectEveryOffsetReadsItsSegment(try BlobReader(.files(files)), contents: contents)
    }

    @Test("Every offset of a blob in memory reads the bytes of the buffer holding it, up to that buffer's end")
    func everyOffsetReadsFromTheBufferHoldingIt() throws {
        let contents = (0..<7).map { testBytes([0, 5, 0, 3][$0 % 4], seed: UInt8($0)) }
        // A buffer whose reader index is not 0 (a slice) reads from its readable bytes.
        var buffers = contents.map { ByteBuffer(bytes: [0xEE] + $0) }
        for index in buffers.indices { buffers[index].moveReaderIndex(forwardBy: 1) }
        try expectEveryOffsetReadsItsSegment(try BlobReader(.memory(buffers)), contents: contents)
    }

    private func expectEveryOffsetReadsItsSegment(_ reader: BlobReader, contents: [[UInt8]]) throws {
        let whole = contents.flatMap { $0 }
        var fileEnd = 0
        var ends: [Int] = []
        for bytes in contents where !bytes.isEmpty {
            fileEnd += bytes.count
            ends.append(fileEnd)
        }
        for offset in 0..<whole.count {
            let end = try #require(ends.first { $0 > offset })
            #expect(reader.readLength(at: Int64(offset), upTo: 100) == end - offset, "offset \(offset)")
            let buffer = try reader.read(offset: Int64(offset), count: 100, allocator: ByteBufferAllocator())
            #expect(Array(buffer.readableBytesView) == Array(whole[offset..<end]), "offset \(offset)")
            let one = try reader.read(offset: Int64(offset), count: 1, allocator: ByteBufferAllocator())
            #expect(Array(one.readableBytesView) == [whole[offset]], "offset \(offset)")
        }
        #expect(reader.readLength(at: Int64(whole.count), upTo: 100) == 0)
        #expect(
            try reader.read(offset: Int64(whole.count), count: 100, allocator: ByteBufferAllocator()).readableBytes == 0
        )
    }
}
