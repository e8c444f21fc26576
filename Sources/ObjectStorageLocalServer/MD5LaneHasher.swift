//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOPosix
import Synchronization

/// Computes the MD5 of several request bodies at once, up to four in lock-step in the SIMD lanes of one core
/// (`COSMD5_blocks_x4`). MD5 is one long dependency chain per message, so one body cannot go faster than the
/// scalar code; four bodies in lanes cost about as much as one (here, per CPU second: OpenSSL 765 MB/s, the kernel
/// 724 MB/s with one lane busy, 2,830 MB/s with four). Uploads in parallel (multipart parts) are the case that
/// matters: hashed one by one, MD5 was 43% of all CPU of a 1 GiB multipart upload.
///
/// Each body has an ``MD5Stream``. Its buffers are queued without being hashed; a worker hashes queued bytes in rounds.
/// A round starts when a stream has ``roundThreshold`` bytes queued or someone waits on a stream (its digest, or its
/// backlog above ``backlogLimit``), and takes every stream with bytes queued, up to four, ``laneBatchLimit`` bytes each
/// (or what it has). Waiting for that much keeps the lanes full, since streams arriving together are hashed together:
/// about 65-70% of the lane slots in the 1 GiB upload benchmark, where fewer than four parts are often in flight. One
/// worker runs the rounds while any is due, on a thread of the servers' blocking pool (see ``startWorker()``). Raising
/// the limits to 1 and 2 MiB filled the lanes a little better but raised the server's peak RSS by ~5 MiB for no
/// measurable CPU gain.
final class MD5LaneHasher: Sendable {
    /// The hasher shared by the process's servers. Where the C is not optimized (SwiftPM's debug builds compile it
    /// at -O0), the SIMD kernels are far slower than OpenSSL's single stream (a 10 MB upload in two 5 MiB parts, one
    /// at a time, took 200 ms instead of 40), so there it uses the portable kernel and bodies keep OpenSSL (see
    /// ``runsLanesSideBySide``).
    static let shared = MD5LaneHasher(implementation: MD5Kernel.isOptimized ? .avx512 : .portable)

    /// Queued bytes in one stream that start a round.
    let roundThreshold: Int
    /// Queued bytes above which ``MD5Stream/update(_:)`` waits.
    let backlogLimit: Int
    /// The bytes a round takes from one stream (the last buffer is cut there, so full lanes end together).
    let laneBatchLimit: Int
    /// The kernel (tests force each one; otherwise the fastest this CPU has).
    let implementation: MD5Kernel.Implementation

    private let registry = Mutex(Registry())

    /// Whether the kernel in use runs the lanes side by side (SIMD); the portable one hashes them one after another.
    var runsLanesSideBySide: Bool {
        min(implementation.rawValue, MD5Kernel.best.rawValue) > MD5Kernel.Implementation.portable.rawValue
    }

    /// - Parameters:
    ///   - roundThreshold: Queued bytes in one stream that start a round.
    ///   - backlogLimit: Queued bytes above which a stream's `update` waits.
    ///   - laneBatchLimit: The bytes a round takes from one stream.
    ///   - implementation: The kernel to use, or the fastest one this CPU has below it.
    init(
        roundThreshold: Int = 256 << 10,
        backlogLimit: Int = 512 << 10,
        laneBatchLimit: Int = 256 << 10,
        implementation: MD5Kernel.Implementation = .avx512
    ) {
        self.roundThreshold = roundThreshold
        self.backlogLimit = backlogLimit
        self.laneBatchLimit = laneBatchLimit
        self.implementation = implementation
    }

    /// The streams made and not yet finalized, cancelled or dropped (or still in a round that hashes them).
    var streamCount: Int { registry.withLock { $0.entries.count } }

    /// A new stream, for one message.
    func makeStream() -> MD5Stream {
        let state = MD5LaneState()
        let id = registry.withLock { registry in
            let id = registry.nextID
            registry.nextID += 1
            registry.entries[id] = Entry(state: state)
            return id
        }
        return MD5Stream(hasher: self, id: id, state: state)
    }

    // MARK: Streams

    private struct Waiter {
        /// Resume once the stream has at most this many bytes queued and none being hashed.
        var queuedAtMost: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct Entry {
        let state: MD5LaneState
        var queue = CircularBuffer<ByteBuffer>()
        var queued = 0
        /// In a round: the worker owns `state` and took buffers from `queue`.
        var claimed = false
        /// Removed while claimed: the worker drops the entry when its round ends.
        var removed = false
        var waiters: [Waiter] = []

        init(state: MD5LaneState) { self.state = state }

        var isDue: Bool { queued > 0 && !claimed && !removed }

        /// 2 when someone awaits the digest, 1 when someone waits on the backlog, 0 otherwise.
        var urgency: Int {
            if waiters.contains(where: { $0.queuedAtMost == 0 }) { return 2 }
            return waiters.isEmpty ? 0 : 1
        }
    }

    private struct Registry {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        var working = false

        /// Whether a stream has `roundThreshold` bytes queued, or someone waits on one with bytes queued.
        func isRoundDue(roundThreshold: Int) -> Bool {
            entries.values.contains { entry in
                entry.isDue && (entry.queued >= roundThreshold || !entry.waiters.isEmpty)
            }
        }

        /// Marks the worker running if a round is due and it is not; `true` if the caller must start it.
        mutating func startWorkerIfDue(roundThreshold: Int) -> Bool {
            guard !working, isRoundDue(roundThreshold: roundThreshold) else { return false }
            working = true
            return true
        }
    }

    /// Queues `buffer` for stream `id`; `true` when the stream's backlog is over the limit.
    func enqueue(_ buffer: ByteBuffer, stream id: Int) -> Bool {
        let (start, over) = registry.withLock { registry -> (Bool, Bool) in
            guard var entry = registry.entries.removeValue(forKey: id) else { return (false, false) }
            entry.queue.append(buffer)
            entry.queued += buffer.readableBytes
            let over = entry.queued > backlogLimit
            let due = entry.queued >= roundThreshold && !registry.working
            registry.entries[id] = entry
            if due { registry.working = true }
            return (due, over)
        }
        if start { startWorker() }
        return over
    }

    /// Waits until stream `id` has at most `queuedAtMost` bytes queued and none being hashed.
    func wait(stream id: Int, queuedAtMost: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (resumeNow, start) = registry.withLock { registry -> (Bool, Bool) in
                guard var entry = registry.entries[id], !entry.removed else { return (true, false) }
                if entry.queued <= queuedAtMost && !entry.claimed { return (true, false) }
                entry.waiters.append(Waiter(queuedAtMost: queuedAtMost, continuation: continuation))
                registry.entries[id] = entry
                return (false, registry.startWorkerIfDue(roundThreshold: roundThreshold))
            }
            if resumeNow { continuation.resume() }
            if start { startWorker() }
        }
    }

    /// Forgets stream `id`, with what it had queued; a round hashing it finishes on its own.
    func remove(stream id: Int) {
        let waiters = registry.withLock { registry -> [Waiter] in
            guard var entry = registry.entries[id] else { return [] }
            let waiters = entry.waiters
            if entry.claimed {
                entry.removed = true
                entry.waiters = []
                entry.queue.removeAll()
                entry.queued = 0
                registry.entries[id] = entry
            } else {
                registry.entries[id] = nil
            }
            return waiters
        }
        for waiter in waiters { waiter.continuation.resume() }
    }

    // MARK: Worker

    /// Starts the worker on a thread of the servers' blocking pool. Not a task: a single worker task that every large
    /// body waits on fell behind every other ready job of a busy cooperative pool (the full test suite) and stalled
    /// all large uploads in the process until their deadlines; run on the request tasks instead, the rounds held one
    /// of the pool's few threads for as long as any body in the process kept them due.
    private func startWorker() {
        FileIO.blockingPool.submit { _ in self.work() }
    }

    /// Runs rounds until none is due.
    private func work() {
        while let claims = claimRound() {
            var lanes = claims.map { Lane(state: $0.state, buffers: $0.buffers) }
            Self.hash(&lanes, implementation: implementation)
            release(claims.map(\.id))
        }
    }

    private struct Claim {
        var id: Int
        var state: MD5LaneState
        var buffers: [ByteBuffer]
    }

    /// Takes the next round's streams, or stops the worker (`nil`) when no round is due.
    private func claimRound() -> [Claim]? {
        registry.withLock { registry -> [Claim]? in
            guard registry.isRoundDue(roundThreshold: roundThreshold) else {
                registry.working = false
                return nil
            }
            // Streams whose digest is awaited first (their body is complete, so they are few bytes from done and
            // would otherwise lose every round to streams waiting on their backlog, which always have more queued),
            // then those waiting on their backlog, then the fullest.
            let chosen = registry.entries.filter { $0.value.isDue }
                .sorted { left, right in
                    if left.value.urgency != right.value.urgency { return left.value.urgency > right.value.urgency }
                    return left.value.queued > right.value.queued
                }
                .prefix(4)
            var claims: [Claim] = []
            for (id, var entry) in chosen {
                var buffers: [ByteBuffer] = []
                var bytes = 0
                while bytes < laneBatchLimit, var buffer = entry.queue.popFirst() {
                    // Cut the last buffer at the limit, so that full lanes hold the same number of blocks.
                    if buffer.readableBytes > laneBatchLimit - bytes,
                        let head = buffer.readSlice(length: laneBatchLimit - bytes)
                    {
                        entry.queue.prepend(buffer)
                        buffer = head
                    }
                    buffers.append(buffer)
                    bytes += buffer.readableBytes
                }
                entry.queued -= bytes
                entry.claimed = true
                registry.entries[id] = entry
                claims.append(Claim(id: id, state: entry.state, buffers: buffers))
            }
            return claims
        }
    }

    /// Hands the streams of a finished round back and wakes whoever waited for them.
    private func release(_ ids: [Int]) {
        let ready = registry.withLock { registry -> [Waiter] in
            var ready: [Waiter] = []
            for id in ids {
                guard var entry = registry.entries[id] else { continue }
                if entry.removed {
                    registry.entries[id] = nil
                    continue
                }
                entry.claimed = false
                var waiting: [Waiter] = []
                for waiter in entry.waiters {
                    if entry.queued <= waiter.queuedAtMost { ready.append(waiter) } else { waiting.append(waiter) }
                }
                entry.waiters = waiting
                registry.entries[id] = entry
            }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }
}
