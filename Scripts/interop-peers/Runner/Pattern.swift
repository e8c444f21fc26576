//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore

/// Deterministic test content: byte `i` is `(i * 7 + seed) % 251`, so any misplaced slice shows.
/// The nginx fixture written by `run` uses the same formula with seed 0.
enum Pattern {
    static func bytes(count: Int, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 7 &+ seed) % 251) }
    }

    static func slice(_ bytes: [UInt8], _ range: ClosedRange<Int>) -> [UInt8] {
        Array(bytes[range])
    }
}

extension ByteBuffer {
    /// The readable bytes as an array.
    var bytes: [UInt8] { Array(self.readableBytesView) }
}
