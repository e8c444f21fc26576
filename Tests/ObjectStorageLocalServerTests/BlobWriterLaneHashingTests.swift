//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import NIOCore
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

@testable import ObjectStorageLocalServer

/// Bodies written through ``BlobWriter`` with their MD5 on a lane hasher, as a release build's server does (a debug
/// build's shared hasher keeps OpenSSL, so the server's own tests do not reach this path).
@Suite("Blob writer with lane hashing")
struct BlobWriterLaneHashingTests {
    @Test(
        "Bodies written side by side have the bytes and the MD5 of what was sent",
        arguments: MD5KernelTests.implementations.filter { $0 != .portable }
    )
    func bodiesWrittenSideBySide(_ implementation: MD5Kernel.Implementation) async throws {
        let hasher = MD5LaneHasher(implementation: implementation)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Sizes on both sides of the direct-write threshold, and one not a whole number of blocks.
        let sizes = [(3 << 20) + 17, 1 << 20, 200_000, (2 << 20) - 1]
        let results = try await withThrowingTaskGroup(of: (Int, [UInt8], [UInt8]).self) { group in
            for (index, size) in sizes.enumerated() {
                group.addTask {
                    let body = testBytes(size, seed: UInt8(index + 1))
                    let writer = try BlobWriter(
                        temporaryPath: directory.appendingPathComponent("body-\(index)").path,
                        computeSHA256: false,
                        expectedSize: Int64(size),
                        md5Hasher: hasher
                    )
                    #expect(hasher.streamCount > 0, "the MD5 is computed in lanes")
                    var offset = 0
                    var chunk = 65_537 + index * 4_099
                    while offset < size {
                        let count = min(chunk, size - offset)
                        try await writer.write(ByteBuffer(bytes: body[offset..<offset + count]))
                        offset += count
                        chunk = chunk % 300_000 + 12_345
                    }
                    let blob = try await writer.finish()
                    let digest = await writer.md5Digest()
                    let path = try #require(blob.paths.first)
                    let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                    return (index, digest, stored)
                }
            }
            var results: [Int: ([UInt8], [UInt8])] = [:]
            for try await (index, digest, stored) in group { results[index] = (digest, stored) }
            return results
        }
        #expect(hasher.streamCount == 0)
        for (index, size) in sizes.enumerated() {
            let body = testBytes(size, seed: UInt8(index + 1))
            let (digest, stored) = try #require(results[index])
            #expect(digest == Hashing.MD5.hash(body), "body \(index)")
            #expect(stored == body, "body \(index)")
        }
    }

    @Test(
        "A body abandoned midway leaves the hasher and the others' digests right",
        .enabled(if: MD5Kernel.best != .portable, "needs a SIMD kernel")
    )
    func abandonedBody() async throws {
        let hasher = MD5LaneHasher(implementation: .avx512)
        let kept = testBytes(1 << 20, seed: 9)
        let keptWriter = try BlobWriter(
            temporaryPath: nil,
            computeSHA256: false,
            expectedSize: Int64(kept.count),
            md5Hasher: hasher
        )
        let dropped = try BlobWriter(temporaryPath: nil, computeSHA256: false, expectedSize: 1 << 20, md5Hasher: hasher)
        #expect(hasher.streamCount == 2)
        for start in stride(from: 0, to: kept.count, by: 100_000) {
            let end = min(start + 100_000, kept.count)
            try await keptWriter.write(ByteBuffer(bytes: kept[start..<end]))
            if start < 500_000 { try await dropped.write(ByteBuffer(bytes: testBytes(100_000, seed: 3))) }
            if start == 500_000 { await dropped.abandon() }
        }
        _ = try await keptWriter.finish()
        #expect(await keptWriter.md5Digest() == Hashing.MD5.hash(kept))
        #expect(hasher.streamCount == 0, "the abandoned body's stream is gone")
    }
}
