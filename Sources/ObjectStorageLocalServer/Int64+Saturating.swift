//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension Int64 {
    /// `self + other`, saturating at `Int64.min` and `Int64.max` instead of trapping: for sums of numbers that
    /// came off the wire.
    func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = self.addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self * other`, saturating at `Int64.min` and `Int64.max` instead of trapping.
    func multipliedSaturating(by other: Int64) -> Int64 {
        let (product, overflow) = self.multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }

    /// `|self - other|` as a `UInt64`, which holds every distance between two `Int64`s.
    func absoluteDifference(_ other: Int64) -> UInt64 {
        self >= other ? UInt64(bitPattern: self &- other) : UInt64(bitPattern: other &- self)
    }
}
