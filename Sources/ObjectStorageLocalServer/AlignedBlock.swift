//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// A page-aligned block of memory that direct (`O_DIRECT`) file writes are staged in.
///
/// Blocks are reused through a small process-wide pool: fresh memory is the expensive part of an upload on a
/// virtual machine whose host hands pages back lazily, so a busy server keeps recycling the same few blocks.
/// A block has one owner at a time (a ``BlobWriter``, then the write task it hands the block to), which is what
/// makes the unchecked `Sendable` conformance sound.
final class AlignedBlock: @unchecked Sendable {
    /// The alignment of the memory, and the granularity of offsets and lengths a direct write accepts.
    static let alignment = 4096
    /// The size of every block.
    static let size = 1 << 20
    /// How many free blocks the pool keeps (the rest are freed).
    static let pooled = 16

    private static let pool = Mutex<[AlignedBlock]>([])

    let bytes: UnsafeMutableRawBufferPointer

    private init() {
        bytes = .allocate(byteCount: Self.size, alignment: Self.alignment)
    }

    deinit { bytes.deallocate() }

    /// A free block from the pool, or a new one.
    static func take() -> AlignedBlock {
        pool.withLock { $0.popLast() } ?? AlignedBlock()
    }

    /// Gives `block` back to the pool; its owner must not use it afterwards.
    static func recycle(_ block: AlignedBlock) {
        pool.withLock { free in
            if free.count < pooled { free.append(block) }
        }
    }

    /// `length` rounded up to a multiple of ``alignment``.
    static func aligned(_ length: Int) -> Int {
        (length + alignment - 1) / alignment * alignment
    }
}
