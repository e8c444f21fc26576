//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageMD5

/// The running MD5 of one stream: the chaining words, the bytes of the block not yet complete, and the length.
///
/// Not locked: the ``MD5LaneHasher`` worker touches it only while it has the stream claimed for a round, and the
/// stream's owner only once the hasher has let go of it; the hasher's lock orders those hand-overs.
final class MD5LaneState: @unchecked Sendable {
    /// A, B, C and D.
    let words: UnsafeMutablePointer<UInt32>
    /// The start of a message block that is not complete yet (64 bytes of room).
    let carry: UnsafeMutablePointer<UInt8>
    /// How many bytes of `carry` are filled (64 only while that block is being hashed).
    var carried = 0
    /// The bytes taken in so far, hashed or carried.
    var length: UInt64 = 0

    init() {
        words = .allocate(capacity: 4)
        carry = .allocate(capacity: 64)
        COSMD5_init(words)
    }

    deinit {
        words.deallocate()
        carry.deallocate()
    }

    /// Pads the message and returns its digest; the state is spent afterwards.
    func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 16) { digest, count in
            COSMD5_final(words, carry, carried, length, digest.baseAddress)
            count = 16
        }
    }
}
