//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore

/// The MD5 of one message computed on an ``MD5LaneHasher``, alongside other messages: ``update(_:)`` queues the bytes
/// (keeping a reference to the buffer until they are hashed) and ``finalize()`` waits for them and returns the
/// digest. Dropping the stream, or ``cancel()``, forgets what it had queued.
final class MD5Stream {
    private let hasher: MD5LaneHasher
    private let id: Int
    private let state: MD5LaneState
    private var open = true

    init(hasher: MD5LaneHasher, id: Int, state: MD5LaneState) {
        self.hasher = hasher
        self.id = id
        self.state = state
    }

    /// Queues the readable bytes of `buffer`; waits only while this stream has more than the hasher's backlog limit
    /// queued.
    func update(_ buffer: ByteBuffer) async {
        guard open, buffer.readableBytes > 0 else { return }
        if hasher.enqueue(buffer, stream: id) {
            await hasher.wait(stream: id, queuedAtMost: hasher.backlogLimit)
        }
    }

    /// Waits until every queued byte is hashed, then returns the 16-byte digest. Call once; the stream is closed
    /// afterwards.
    func finalize() async -> [UInt8] {
        precondition(open, "MD5Stream finalized twice")
        await hasher.wait(stream: id, queuedAtMost: 0)
        hasher.remove(stream: id)
        open = false
        return state.finalize()
    }

    /// Forgets what is queued; the stream is closed afterwards.
    func cancel() {
        guard open else { return }
        open = false
        hasher.remove(stream: id)
    }

    deinit {
        if open { hasher.remove(stream: id) }
    }
}
