//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// How a transfer of `length` bytes starting at object offset `start` is cut into parts of
/// `partSize` bytes (the last one shorter). Parts are numbered by a zero-based index; uploads add 1
/// to get S3/OSS/OBS part numbers.
///
/// ```swift
/// let layout = try PartLayout(length: 20, partSize: 8)
/// layout.partCount          // 3
/// layout.range(ofPart: 2)   // 16..<20 (object offsets)
/// ```
package struct PartLayout: Hashable, Sendable {
    /// The object offset of the transfer's first byte (the range start; 0 for whole objects).
    package let start: Int64
    /// The number of bytes transferred.
    package let length: Int64
    /// The size of every part but the last.
    package let partSize: Int64

    /// Creates a layout.
    ///
    /// - Parameters:
    ///   - length: The number of bytes to transfer (≥ 0).
    ///   - partSize: The part size (> 0).
    ///   - start: The object offset of the first byte (≥ 0); 0 by default.
    /// - Throws: ``CheckpointError`` `.invalidCheckpoint` for a negative length or start, a part size
    ///   ≤ 0, or an end beyond `Int64.max`.
    package init(length: Int64, partSize: Int64, start: Int64 = 0) throws(CheckpointError) {
        guard length >= 0 else { throw .invalidCheckpoint("transfer length \(length) is negative") }
        guard start >= 0 else { throw .invalidCheckpoint("range start \(start) is negative") }
        guard partSize > 0 else { throw .invalidCheckpoint("part size \(partSize) must be positive") }
        guard start <= Int64.max - length else { throw .invalidCheckpoint("range end overflows") }
        self.start = start
        self.length = length
        self.partSize = partSize
    }

    /// A layout from values already validated (a checkpoint's own fields).
    init(uncheckedStart start: Int64, length: Int64, partSize: Int64) {
        self.start = start
        self.length = length
        self.partSize = partSize
    }

    /// The number of parts: `ceil(length / partSize)`, 0 for an empty transfer.
    package var partCount: Int {
        Int(length / partSize + (length % partSize == 0 ? 0 : 1))
    }

    /// The object offsets of part `index` (shifted by ``start``).
    ///
    /// - Parameter index: A part index in `0..<partCount`.
    /// - Returns: The half-open range of object offsets (empty for an out-of-range index).
    package func range(ofPart index: Int) -> Range<Int64> {
        let local = localRange(ofPart: index)
        return (start + local.lowerBound)..<(start + local.upperBound)
    }

    /// The offsets of part `index` within the transferred bytes: where it goes in a download's temp
    /// file, or where it is read from in an upload's source file.
    ///
    /// - Parameter index: A part index in `0..<partCount`.
    /// - Returns: The half-open range (empty for an out-of-range index).
    package func localRange(ofPart index: Int) -> Range<Int64> {
        guard index >= 0, index < partCount else { return 0..<0 }
        let lower = Int64(index) * partSize
        return lower..<min(lower + partSize, length)
    }

    /// The size of part `index` in bytes (0 for an out-of-range index).
    ///
    /// - Parameter index: A part index.
    /// - Returns: Its size.
    package func size(ofPart index: Int) -> Int64 {
        let range = localRange(ofPart: index)
        return range.upperBound - range.lowerBound
    }
}
