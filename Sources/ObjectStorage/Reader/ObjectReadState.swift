//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore

/// What an ``ObjectReader`` remembers between reads: the head once fetched, one read-ahead buffer, and where the
/// last read ended (which tells a sequential pattern from a random one). Pure: the reader sends the GETs.
struct ObjectReadState: Sendable {
    /// What to do for a read: the bytes already buffered for its start, and the range to fetch for the rest (which
    /// may extend past the read: the read-ahead).
    struct Plan {
        var buffered: ByteBuffer
        var fetch: Range<Int64>
    }

    /// The first bytes of the object, once a read touched them.
    var head: ByteBuffer?
    /// Bytes fetched ahead of the last sequential read, starting at `readAheadStart`.
    var readAhead = ByteBuffer()
    var readAheadStart: Int64 = 0
    /// Where the last read ended.
    var lastEnd: Int64?
    /// The current read-ahead window: 0 after a random read, doubling with each sequential one.
    var window = 0
    /// The GETs sent.
    var requests = 0

    /// The read-ahead of the first sequential read.
    static let initialWindow = 128 * 1024

    /// Notes a read answered from a cache.
    mutating func served(_ range: Range<Int64>) {
        self.lastEnd = range.upperBound
    }

    /// Plans the read of `wanted`: takes what the read-ahead buffer holds of its start, and widens the rest by the
    /// window, up to `readAheadLimit` (the start of the cached tail), when the read is sequential.
    mutating func plan(_ wanted: Range<Int64>, readAheadLimit: Int64, maximumReadAhead: Int) -> Plan {
        let sequential = self.lastEnd == wanted.lowerBound
        self.lastEnd = wanted.upperBound
        var buffered = ByteBuffer()
        var start = wanted.lowerBound
        let bufferEnd = self.readAheadStart + Int64(self.readAhead.readableBytes)
        if start >= self.readAheadStart && start < bufferEnd {
            let skip = Int(start - self.readAheadStart)
            let take = Int(min(wanted.upperBound, bufferEnd) - start)
            buffered = self.readAhead.getSlice(at: self.readAhead.readerIndex + skip, length: take) ?? ByteBuffer()
            start += Int64(take)
            // What lies before the read's end is consumed.
            self.readAhead.moveReaderIndex(forwardBy: skip + take)
            self.readAheadStart = start
        } else {
            self.readAhead = ByteBuffer()
        }
        guard start < wanted.upperBound else {
            return Plan(buffered: buffered, fetch: start..<start)
        }
        if sequential {
            self.window = min(max(self.window * 2, Self.initialWindow), maximumReadAhead)
        } else {
            self.window = 0
        }
        // Read ahead up to the limit (the cached tail), never past it; the read itself may cross it.
        let (end, overflow) = wanted.upperBound.addingReportingOverflow(Int64(self.window))
        let readAheadEnd = overflow ? readAheadLimit : min(end, readAheadLimit)
        return Plan(buffered: buffered, fetch: start..<max(wanted.upperBound, readAheadEnd))
    }

    /// Keeps what a fetch brought beyond its read, starting at `start`, as the read-ahead buffer.
    mutating func keepReadAhead(_ remainder: ByteBuffer, from start: Int64) {
        guard remainder.readableBytes > 0 else { return }
        self.readAhead = remainder
        self.readAheadStart = start
    }
}
