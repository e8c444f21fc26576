//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageMD5

/// The Swift face of the four-lane MD5 kernel (`CObjectStorageMD5`), so that tests and the hasher can name and
/// force its implementations.
enum MD5Kernel {
    /// An implementation of the four-lane kernel, slowest first.
    enum Implementation: Int, CaseIterable, Sendable, CustomStringConvertible {
        /// Plain C, lane after lane.
        case portable = 0
        /// Four lanes in SSE2 registers (x86_64).
        case sse2 = 1
        /// Four lanes in 128-bit AVX-512VL registers (x86_64 with AVX-512F and VL).
        case avx512 = 2

        var description: String { ["portable", "sse2", "avx512"][rawValue] }

        var c: COSMD5_implementation {
            switch self {
            case .portable: COSMD5_PORTABLE
            case .sse2: COSMD5_SSE2
            case .avx512: COSMD5_AVX512
            }
        }

        /// Whether this CPU and OS can run it (otherwise the kernel falls back to the best one below it).
        var isSupported: Bool { rawValue <= MD5Kernel.best.rawValue }
    }

    /// The fastest implementation this CPU and OS support.
    static var best: Implementation {
        Implementation(rawValue: Int(COSMD5_best_implementation().rawValue)) ?? .portable
    }

    /// Whether the kernels were compiled with optimization (not in SwiftPM's debug builds).
    static var isOptimized: Bool { COSMD5_is_optimized() != 0 }

    /// MD5's initial chaining words.
    static var initialState: [UInt32] { [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476] }

    /// Runs the compression function over `blocks` 64-byte blocks in each of four lanes: lane `i` hashes the first
    /// `blocks * 64` bytes of `data[i]` into `states[i]`; a lane whose data is `nil` keeps its state.
    static func compress(
        _ states: inout [[UInt32]],
        _ data: [[UInt8]?],
        blocks: Int,
        implementation: Implementation
    ) {
        precondition(states.count == 4 && data.count == 4 && states.allSatisfy { $0.count == 4 })
        precondition(data.allSatisfy { ($0?.count ?? Int.max) >= blocks * 64 })
        var flat = states.flatMap { $0 }
        let copies = data.map { bytes -> UnsafeMutablePointer<UInt8>? in
            guard let bytes else { return nil }
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
            copy.initialize(from: bytes, count: bytes.count)
            return copy
        }
        defer { for copy in copies { copy?.deallocate() } }
        flat.withUnsafeMutableBufferPointer { words in
            guard let base = words.baseAddress else { return }
            let pointers: [UnsafeMutablePointer<UInt32>?] = (0..<4).map { base + 4 * $0 }
            let inputs: [UnsafePointer<UInt8>?] = copies.map { $0.map { UnsafePointer($0) } }
            COSMD5_blocks_x4_using(implementation.c, pointers, inputs, blocks)
        }
        states = (0..<4).map { Array(flat[4 * $0..<4 * $0 + 4]) }
    }

    /// Hashes the bytes after the last whole block with MD5's padding for a message of `length` bytes and returns
    /// the digest.
    static func finish(_ state: [UInt32], tail: [UInt8], length: UInt64) -> [UInt8] {
        precondition(state.count == 4 && tail.count < 64)
        var words = state
        return [UInt8](unsafeUninitializedCapacity: 16) { digest, count in
            words.withUnsafeMutableBufferPointer { words in
                COSMD5_final(words.baseAddress, tail, tail.count, length, digest.baseAddress)
            }
            count = 16
        }
    }
}
