//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageMD5
import NIOCore

extension MD5LaneHasher {
    /// The bytes one stream contributes to a round, cut into spans of whole blocks for the kernel: runs of whole
    /// blocks inside a buffer, and single blocks assembled in the stream's carry where a block straddles buffers.
    /// Whatever is left under a block at the end stays in the carry for the stream's next round.
    struct Lane {
        let state: MD5LaneState
        let buffers: [ByteBuffer]
        private var index = 0
        private var offset = 0
        /// Where the current span starts: a buffer and an offset in its readable bytes, or the carry (`nil`).
        private(set) var spanBuffer: Int?
        private(set) var spanOffset = 0
        /// Whole blocks left in the current span.
        private(set) var spanBlocks = 0

        init(state: MD5LaneState, buffers: [ByteBuffer]) {
            self.state = state
            self.buffers = buffers
            var taken: UInt64 = 0
            for buffer in buffers { taken += UInt64(buffer.readableBytes) }
            state.length += taken
        }

        /// Finds the next span once the current one is used up; `false` when the lane's bytes are all hashed or
        /// carried.
        mutating func refill() -> Bool {
            if spanBlocks > 0 { return true }
            if spanBuffer == nil && state.carried == 64 { state.carried = 0 }
            while index < buffers.count {
                let available = buffers[index].readableBytes - offset
                if state.carried == 0 && available >= 64 {
                    spanBuffer = index
                    spanOffset = offset
                    spanBlocks = available / 64
                    offset += spanBlocks * 64
                    return true
                }
                let count = min(64 - state.carried, available)
                let carried = state.carried
                buffers[index].withUnsafeReadableBytes { bytes in
                    UnsafeMutableRawBufferPointer(start: state.carry + carried, count: count)
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
                }
                state.carried += count
                offset += count
                if offset == buffers[index].readableBytes {
                    index += 1
                    offset = 0
                }
                if state.carried == 64 {
                    spanBuffer = nil
                    spanBlocks = 1
                    return true
                }
            }
            return false
        }

        /// Marks `blocks` blocks of the current span hashed.
        mutating func consume(_ blocks: Int) {
            spanBlocks -= blocks
            spanOffset += blocks * 64
        }

        /// Calls `body` with the address of the current span, or `nil` when there is none.
        func withSpan<Result>(_ body: (UnsafePointer<UInt8>?) -> Result) -> Result {
            guard spanBlocks > 0 else { return body(nil) }
            guard let spanBuffer else { return body(UnsafePointer(state.carry)) }
            return buffers[spanBuffer].withUnsafeReadableBytes { bytes in
                body(bytes.baseAddress.map { ($0 + spanOffset).assumingMemoryBound(to: UInt8.self) })
            }
        }
    }

    /// Hashes up to four lanes in lock-step until each has hashed or carried all its bytes; a lane that runs out
    /// early idles while the others finish.
    static func hash(_ lanes: inout [Lane], implementation: MD5Kernel.Implementation) {
        precondition(lanes.count <= 4)
        while true {
            var blocks = Int.max
            for index in lanes.indices where lanes[index].refill() {
                blocks = min(blocks, lanes[index].spanBlocks)
            }
            guard blocks != Int.max else { return }
            let current = lanes
            let lane = { (index: Int) -> Lane? in index < current.count ? current[index] : nil }
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<UInt32>?.self, capacity: 4) { states in
                withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: 4) { data in
                    withSpans(lane(0), lane(1), lane(2), lane(3)) { p0, p1, p2, p3 in
                        data.initializeElement(at: 0, to: p0)
                        data.initializeElement(at: 1, to: p1)
                        data.initializeElement(at: 2, to: p2)
                        data.initializeElement(at: 3, to: p3)
                        for index in 0..<4 {
                            states.initializeElement(
                                at: index,
                                to: data[index] == nil ? nil : current[index].state.words
                            )
                        }
                        if let data = data.baseAddress, let states = states.baseAddress {
                            COSMD5_blocks_x4_using(implementation.c, states, data, blocks)
                        }
                    }
                }
            }
            for index in lanes.indices where lanes[index].spanBlocks > 0 { lanes[index].consume(blocks) }
        }
    }

    private static func withSpans(
        _ l0: Lane?,
        _ l1: Lane?,
        _ l2: Lane?,
        _ l3: Lane?,
        _ body: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) -> Void
    ) {
        withSpan(l0) { p0 in
            withSpan(l1) { p1 in
                withSpan(l2) { p2 in
                    withSpan(l3) { p3 in body(p0, p1, p2, p3) }
                }
            }
        }
    }

    private static func withSpan(_ lane: Lane?, _ body: (UnsafePointer<UInt8>?) -> Void) {
        guard let lane else { return body(nil) }
        lane.withSpan(body)
    }
}
