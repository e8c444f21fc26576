//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A byte range of an object as the user asked for it, HTTP style: `first` to `last` inclusive, or
/// to the end of the object when `last` is `nil` (`bytes=first-`).
///
/// Suffix ranges (`bytes=-N`) are resolved by the engine against the probed size before a checkpoint
/// is made, so a checkpoint always records a concrete start.
package struct CheckpointByteRange: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The offset of the first byte.
    package var first: Int64
    /// The offset of the last byte, inclusive; `nil` for "to the end".
    package var last: Int64?

    /// Creates a range.
    ///
    /// - Parameters:
    ///   - first: The offset of the first byte (≥ 0).
    ///   - last: The offset of the last byte, inclusive (≥ `first`), or `nil` for the end of the object.
    package init(first: Int64, last: Int64? = nil) {
        self.first = first
        self.last = last
    }

    /// The half-open byte range this selects in an object of `objectSize` bytes. `last` beyond the
    /// end is clamped to the end, as servers do.
    ///
    /// - Parameter objectSize: The object's size.
    /// - Returns: The selected range (object offsets), or `nil` when unsatisfiable: a negative or
    ///   reversed range, or `first` at or beyond the end.
    package func resolved(objectSize: Int64) -> Range<Int64>? {
        guard first >= 0, objectSize >= 0, first < objectSize else { return nil }
        if let last {
            guard last >= first else { return nil }
            return first..<(min(last, objectSize - 1) + 1)
        }
        return first..<objectSize
    }

    /// `bytes=first-last` (or `bytes=first-`), the `Range` header value.
    package var description: String {
        if let last { return "bytes=\(first)-\(last)" }
        return "bytes=\(first)-"
    }
}
