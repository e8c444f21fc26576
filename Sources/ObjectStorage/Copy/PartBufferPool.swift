//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import Synchronization

/// The buffers a streamed copy holds its parts in, reused from part to part: a transfer of any size allocates
/// about ``TransferOptions/concurrency`` of them, once.
///
/// Allocating a fresh buffer for every part would leave freed part-sized blocks behind in the allocator's
/// per-thread arenas, which glibc does not return to the system: 8 MiB parts, 4 at a time, then kept the process
/// at about 1.7 times the parts' size.
final class PartBufferPool: Sendable {
    private let free = Mutex<[ByteBuffer]>([])

    /// An empty buffer with room for `capacity` bytes: a returned one when there is one.
    func take(capacity: Int) -> ByteBuffer {
        var buffer = free.withLock { $0.popLast() } ?? ByteBuffer()
        buffer.clear()
        buffer.reserveCapacity(capacity)
        return buffer
    }

    /// Gives a buffer back once its bytes are sent. A buffer whose storage is still shared (a request that
    /// keeps a slice) is copied on its next write instead of being overwritten, so returning it is always safe.
    func give(_ buffer: ByteBuffer) {
        free.withLock { $0.append(buffer) }
    }
}
