//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

extension DownloadCheckpoint {
    /// The number of parts.
    package var partCount: Int { layout.partCount }

    /// Whether part `index` is already in the temp file.
    ///
    /// - Parameter index: A zero-based part index.
    /// - Returns: `true` when it was marked completed.
    package func isPartCompleted(_ index: Int) -> Bool {
        position(of: index).found
    }

    /// The recorded CRC64 of part `index`, if it is completed.
    ///
    /// - Parameter index: A zero-based part index.
    /// - Returns: The CRC64, or `nil` when the part is missing.
    package func crc64(ofPart index: Int) -> UInt64? {
        let (slot, found) = position(of: index)
        return found ? completedParts[slot].crc64 : nil
    }

    /// Records that part `index` is in the temp file (written and, ideally, `fsync`ed) with CRC64
    /// `crc64`. Marking a part again replaces its CRC64.
    ///
    /// - Parameters:
    ///   - index: A zero-based part index in `0..<partCount`.
    ///   - crc64: The CRC64 of the part's bytes.
    /// - Throws: ``CheckpointError`` `.invalidCheckpoint` for an index out of range.
    package mutating func markPartCompleted(_ index: Int, crc64: UInt64) throws(CheckpointError) {
        guard index >= 0, index < partCount else {
            throw .invalidCheckpoint("part index \(index) is outside 0..<\(partCount)")
        }
        let (slot, found) = position(of: index)
        if found {
            completedParts[slot].crc64 = crc64
        } else {
            completedParts.insert(CompletedPart(index: index, crc64: crc64), at: slot)
        }
    }

    /// Forgets part `index` (e.g. its bytes failed a re-verification), so it is fetched again.
    ///
    /// - Parameter index: A zero-based part index.
    package mutating func markPartMissing(_ index: Int) {
        let (slot, found) = position(of: index)
        if found { completedParts.remove(at: slot) }
    }

    /// Forgets every completed part (the temp file is being restarted from scratch).
    package mutating func resetProgress() {
        completedParts.removeAll()
    }

    /// The indexes of the parts still to fetch, ascending.
    package var missingParts: [Int] {
        var missing = [Int]()
        missing.reserveCapacity(partCount - completedParts.count)
        var next = completedParts.startIndex
        for index in 0..<partCount {
            if next < completedParts.endIndex, completedParts[next].index == index {
                next += 1
            } else {
                missing.append(index)
            }
        }
        return missing
    }

    /// The bytes already in the temp file (the sum of the completed parts' sizes).
    package var bytesCompleted: Int64 {
        let layout = self.layout
        return completedParts.reduce(0) { $0 + layout.size(ofPart: $1.index) }
    }

    /// Whether every part is in the temp file.
    package var isComplete: Bool { completedParts.count == partCount }

    /// The CRC64 of all transferred bytes, combined from the per-part CRC64s in order; `nil` until
    /// every part is completed. Compare it with ``ObjectState/crc64`` for a whole-object download
    /// (a ranged download has no server value to compare with). 0 for an empty transfer.
    ///
    /// - Returns: The combined CRC64, or `nil` when parts are missing.
    package func combinedCRC64() -> UInt64? {
        guard isComplete else { return nil }
        let layout = self.layout
        return completedParts.reduce(UInt64(0)) { crc, part in
            CRC64.combine(
                crc,
                part.crc64,
                lengthOfSecond: UInt64(layout.size(ofPart: part.index)),
                polynomial: object.crc64Polynomial
            )
        }
    }

    /// The slot of `index` in ``completedParts`` (binary search) and whether it is there.
    private func position(of index: Int) -> (slot: Int, found: Bool) {
        completedParts.sortedPosition(of: index, by: \.index)
    }
}

extension DownloadCheckpoint: CheckpointDocument {
    static var kind: String { "download" }

    func contentProblem() -> String? {
        guard partSize > 0 else { return "part size \(partSize) must be positive" }
        guard object.size >= 0 else { return "object size \(object.size) is negative" }
        if let range = identity.range, range.resolved(objectSize: object.size) == nil {
            return "range \(range) is outside an object of \(object.size) bytes"
        }
        guard CheckpointRules.isAbsoluteNormalised(identity.destinationPath) else {
            return "destination path '\(identity.destinationPath)' is not absolute and normalised"
        }
        guard CheckpointRules.isAbsoluteNormalised(tempFilePath) else {
            return "temp file path '\(tempFilePath)' is not absolute and normalised"
        }
        guard tempFilePath != identity.destinationPath else { return "the temp file is the destination" }
        guard CheckpointPaths.directory(of: tempFilePath) == CheckpointPaths.directory(of: identity.destinationPath)
        else {
            return "temp file '\(tempFilePath)' is not in the destination's directory"
        }
        let count = partCount
        var previous = -1
        for part in completedParts {
            guard part.index > previous, part.index < count else {
                return "completed part \(part.index) is out of order or outside 0..<\(count)"
            }
            previous = part.index
        }
        return nil
    }

    func sensitiveField() -> String? {
        CheckpointRules.endpointProblem(identity.endpoint)
    }
}
