//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// A page-aligned 1 MiB buffer that a ``PartWriter`` fills and writes with direct I/O.
///
/// `@unchecked Sendable`: a buffer has one owner at a time. The part writer fills it under its lock, hands
/// it to exactly one thread-pool write once full, and takes it back (to refill) only after that write has
/// completed, so no two threads ever touch its bytes at once.
final class DirectWriteBuffer: @unchecked Sendable {
    static let capacity = 1 << 20

    private let base: UnsafeMutableRawPointer
    private(set) var count = 0

    init() {
        self.base = UnsafeMutableRawPointer.allocate(
            byteCount: Self.capacity,
            alignment: DownloadTempFile.directAlignment
        )
    }

    deinit {
        self.base.deallocate()
    }

    var isFull: Bool { self.count == Self.capacity }

    /// The bytes appended so far.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: self.base, count: self.count) }

    /// Appends as much of `bytes` as fits; returns how many.
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        let taken = min(bytes.count, Self.capacity - self.count)
        if taken > 0, let source = bytes.baseAddress {
            (self.base + self.count).copyMemory(from: source, byteCount: taken)
            self.count += taken
        }
        return taken
    }

    /// Empties the buffer for reuse.
    func reset() { self.count = 0 }
}

/// The direct-write buffers of one download, reused from part to part: a fresh 1 MiB buffer costs 256 page
/// faults when first filled, which cost more than the copy into it.
final class DirectWriteBufferPool: Sendable {
    private let buffers = Mutex<[DirectWriteBuffer]>([])

    /// A free buffer, or a new one.
    func take() -> DirectWriteBuffer {
        self.buffers.withLock { $0.popLast() } ?? DirectWriteBuffer()
    }

    /// Returns `buffer` for reuse.
    func give(_ buffer: DirectWriteBuffer) {
        buffer.reset()
        self.buffers.withLock { $0.append(buffer) }
    }
}
