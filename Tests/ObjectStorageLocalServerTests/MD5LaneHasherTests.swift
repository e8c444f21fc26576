//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorageSigning
import Testing

@testable import ObjectStorageLocalServer

/// Bodies hashed through ``MD5LaneHasher`` streams: the RFC suite, lengths around block boundaries, random
/// chunkings down to single bytes, several streams interleaved, and streams abandoned midway, with each kernel.
@Suite("MD5 lane hasher")
struct MD5LaneHasherTests {
    /// Small limits, so that bodies of a few KiB go through many rounds and wait on their backlog.
    private static func smallHasher(_ implementation: MD5Kernel.Implementation) -> MD5LaneHasher {
        MD5LaneHasher(roundThreshold: 1000, backlogLimit: 3000, laneBatchLimit: 2000, implementation: implementation)
    }

    private static func hashers(_ implementation: MD5Kernel.Implementation) -> [MD5LaneHasher] {
        [smallHasher(implementation), MD5LaneHasher(implementation: implementation)]
    }

    /// Hashes `message` through a new stream of `hasher` in chunks of the given sizes (cycled).
    private func streamDigest(_ message: [UInt8], chunks: [Int], hasher: MD5LaneHasher) async -> [UInt8] {
        let stream = hasher.makeStream()
        var offset = 0
        var next = 0
        while offset < message.count {
            let count = min(chunks[next % chunks.count], message.count - offset)
            await stream.update(ByteBuffer(bytes: message[offset..<offset + count]))
            offset += count
            next += 1
        }
        return await stream.finalize()
    }

    @Test(arguments: MD5KernelTests.implementations)
    func rfcSuite(_ implementation: MD5Kernel.Implementation) async throws {
        for hasher in Self.hashers(implementation) {
            for (message, expected) in MD5KernelTests.rfcSuite {
                for chunks in [[1 << 20], [1], [3, 61]] {
                    let digest = await streamDigest(Array(message.utf8), chunks: chunks, hasher: hasher)
                    #expect(ByteEncoding.hex(digest) == expected, "\"\(message)\" in chunks \(chunks)")
                }
            }
        }
    }

    @Test(arguments: MD5KernelTests.implementations)
    func lengthsAroundBlockBoundaries(_ implementation: MD5Kernel.Implementation) async throws {
        var random = SeededGenerator(seed: 0xB10C + UInt64(implementation.rawValue))
        for hasher in Self.hashers(implementation) {
            for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 4095, 4096, 4097] {
                let message = randomBytes(length, using: &random)
                for chunks in [[length + 1], [1], [7], [64], [63, 65], [1, 200, 2]] {
                    let digest = await streamDigest(message, chunks: chunks, hasher: hasher)
                    #expect(digest == Hashing.MD5.hash(message), "\(length) bytes in chunks \(chunks)")
                }
            }
        }
    }

    @Test(arguments: MD5KernelTests.implementations)
    func randomLengthsAndChunkings(_ implementation: MD5Kernel.Implementation) async throws {
        var random = SeededGenerator(seed: 0xC4A2 + UInt64(implementation.rawValue))
        for hasher in Self.hashers(implementation) {
            for _ in 0..<12 {
                let length = Int.random(in: 0...(3 << 20), using: &random)
                let message = randomBytes(length, using: &random)
                let chunks = (0..<5).map { _ in Int.random(in: 1...(300 << 10), using: &random) }
                let digest = await streamDigest(message, chunks: chunks, hasher: hasher)
                #expect(digest == Hashing.MD5.hash(message), "\(length) bytes in chunks \(chunks)")
            }
            // Single bytes, for a body large enough to cross the round threshold and backlog limit.
            let message = randomBytes(10_000, using: &random)
            #expect(await streamDigest(message, chunks: [1], hasher: hasher) == Hashing.MD5.hash(message))
        }
    }

    /// One to six streams of different lengths fed at the same time from concurrent tasks, each in its own random
    /// chunking; more streams than lanes take turns.
    @Test(arguments: MD5KernelTests.implementations, 1...6)
    func concurrentStreams(_ implementation: MD5Kernel.Implementation, count: Int) async throws {
        var random = SeededGenerator(seed: 0xC0C0 + UInt64(count * 8 + implementation.rawValue))
        for hasher in Self.hashers(implementation) {
            let inputs = (0..<count).map { index -> (message: [UInt8], chunks: [Int]) in
                let length = Int.random(in: 0...(1_500_000 >> (index % 3)), using: &random)
                let largest = [1 << 10, 64 << 10, 256 << 10][index % 3]
                return (
                    randomBytes(length, using: &random),
                    (0..<7).map { _ in Int.random(in: 1...largest, using: &random) }
                )
            }
            let digests = await withTaskGroup(of: (Int, [UInt8]).self) { group in
                for (index, input) in inputs.enumerated() {
                    group.addTask { (index, await streamDigest(input.message, chunks: input.chunks, hasher: hasher)) }
                }
                var digests = [[UInt8]](repeating: [], count: count)
                for await (index, digest) in group { digests[index] = digest }
                return digests
            }
            for (index, input) in inputs.enumerated() {
                #expect(
                    digests[index] == Hashing.MD5.hash(input.message),
                    "stream \(index), \(input.message.count) bytes"
                )
            }
        }
    }

    /// Streams cancelled or dropped midway, with bytes queued, do not stall or disturb the others.
    @Test(arguments: MD5KernelTests.implementations)
    func abandonedStreams(_ implementation: MD5Kernel.Implementation) async throws {
        var random = SeededGenerator(seed: 0xDEAD + UInt64(implementation.rawValue))
        for hasher in Self.hashers(implementation) {
            let kept = (0..<3).map { _ in randomBytes(Int.random(in: 100_000...900_000, using: &random), using: &random)
            }
            let dropped = randomBytes(600_000, using: &random)
            let digests = await withTaskGroup(of: (Int, [UInt8]).self) { group in
                for (index, message) in kept.enumerated() {
                    group.addTask { (index, await streamDigest(message, chunks: [5000, 70_000], hasher: hasher)) }
                }
                group.addTask {
                    let stream = hasher.makeStream()
                    for offset in stride(from: 0, to: 400_000, by: 50_000) {
                        await stream.update(ByteBuffer(bytes: dropped[offset..<offset + 50_000]))
                    }
                    stream.cancel()
                    await stream.update(ByteBuffer(bytes: dropped[400_000...]))
                    return (-1, [])
                }
                group.addTask {
                    // Dropped without cancel or finalize, with bytes queued.
                    let stream = hasher.makeStream()
                    await stream.update(ByteBuffer(bytes: dropped[0..<300_000]))
                    return (-1, [])
                }
                var digests = [[UInt8]](repeating: [], count: kept.count)
                for await (index, digest) in group where index >= 0 { digests[index] = digest }
                return digests
            }
            for (index, message) in kept.enumerated() {
                #expect(digests[index] == Hashing.MD5.hash(message), "kept stream \(index)")
            }
            // The hasher still works afterwards.
            let after = randomBytes(200_000, using: &random)
            #expect(await streamDigest(after, chunks: [4096], hasher: hasher) == Hashing.MD5.hash(after))
            // Cancelled, dropped and finalized streams are all gone from the hasher.
            #expect(hasher.streamCount == 0)
        }
    }

    /// The lock-step driver on its own: lanes of different lengths over buffers of odd sizes, so that blocks
    /// straddle buffers and lanes run out at different times.
    @Test(arguments: MD5KernelTests.implementations)
    func lockStepRounds(_ implementation: MD5Kernel.Implementation) throws {
        var random = SeededGenerator(seed: 0x10C5 + UInt64(implementation.rawValue))
        for laneCount in 1...4 {
            let messages = (0..<laneCount).map { _ in
                randomBytes(Int.random(in: 0...20_000, using: &random), using: &random)
            }
            let states = messages.map { _ in MD5LaneState() }
            // Two rounds per lane, split at a random point, each round's bytes in random buffers.
            let splits = messages.map { Int.random(in: 0...$0.count, using: &random) }
            for round in 0..<2 {
                var lanes = messages.indices.map { index -> MD5LaneHasher.Lane in
                    let range = round == 0 ? 0..<splits[index] : splits[index]..<messages[index].count
                    var buffers: [ByteBuffer] = []
                    var offset = range.lowerBound
                    while offset < range.upperBound {
                        let count = min(Int.random(in: 1...3000, using: &random), range.upperBound - offset)
                        buffers.append(ByteBuffer(bytes: messages[index][offset..<offset + count]))
                        offset += count
                    }
                    return MD5LaneHasher.Lane(state: states[index], buffers: buffers)
                }
                MD5LaneHasher.hash(&lanes, implementation: implementation)
            }
            for index in messages.indices {
                #expect(
                    states[index].finalize() == Hashing.MD5.hash(messages[index]),
                    "\(laneCount) lanes, lane \(index)"
                )
            }
        }
    }
}
