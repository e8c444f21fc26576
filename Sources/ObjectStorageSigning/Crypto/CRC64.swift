//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageCRC

/// CRC-64/XZ, which Alibaba Cloud OSS and Huawei Cloud OBS call "CRC64-ECMA": the value of the
/// `x-oss-hash-crc64ecma` header. Streaming, and combinable so that per-part checksums of a
/// multipart transfer fold into the whole object's.
///
/// ```swift
/// var crc = CRC64()
/// crc.update(part1)
/// crc.update(part2)
/// crc.value == CRC64.combine(CRC64.checksum(part1), CRC64.checksum(part2), lengthOfSecond: part2.count)
/// ```
package struct CRC64: Hashable, Sendable {
    /// The checksum of all bytes absorbed so far (0 for none).
    package private(set) var value: UInt64

    /// Starts a checksum, optionally continuing from the checksum of earlier bytes.
    ///
    /// - Parameter value: The checksum of the bytes before the ones to come (0 to start afresh).
    package init(value: UInt64 = 0) { self.value = value }

    /// Absorbs `bytes`.
    ///
    /// - Parameter bytes: The bytes to absorb.
    package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        value = COSCRC64_update(value, bytes.baseAddress, bytes.count)
    }

    /// Absorbs the bytes of a collection (contiguous collections are not copied).
    ///
    /// - Parameter bytes: The bytes to absorb.
    @inlinable
    package mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        withContiguousBytes(of: bytes) { update(bufferPointer: $0) }
    }

    /// The checksum of `bytes` in one call.
    ///
    /// - Parameter bytes: The bytes to checksum.
    /// - Returns: Their CRC-64/XZ.
    @inlinable
    package static func checksum<Bytes: Collection>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var crc = CRC64()
        crc.update(bytes)
        return crc.value
    }

    /// The checksum of `A || B` from the checksums of `A` and `B` and the length of `B` in bytes.
    ///
    /// - Parameters:
    ///   - first: The checksum of `A`.
    ///   - second: The checksum of `B`.
    ///   - lengthOfSecond: The length of `B` in bytes.
    /// - Returns: The checksum of `A` followed by `B`.
    package static func combine(_ first: UInt64, _ second: UInt64, lengthOfSecond: UInt64) -> UInt64 {
        COSCRC64_combine(first, second, lengthOfSecond)
    }

    /// Whether this machine uses the carry-less-multiply implementation.
    package static var isAccelerated: Bool { COSCRC64_is_accelerated() != 0 }
}
