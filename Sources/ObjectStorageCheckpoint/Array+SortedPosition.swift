//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension Array {
    /// Where the element whose number is `number` stands in this array, sorted by `numberOf` without duplicates:
    /// its slot and whether it is there, or the slot where it belongs (binary search).
    ///
    /// - Parameters:
    ///   - number: The number to find (a part index or a part number).
    ///   - numberOf: An element's number.
    /// - Returns: The slot, and whether the element at it has `number`.
    func sortedPosition(of number: Int, by numberOf: (Element) -> Int) -> (slot: Int, found: Bool) {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if numberOf(self[middle]) < number { low = middle + 1 } else { high = middle }
        }
        return (low, low < count && numberOf(self[low]) == number)
    }
}
