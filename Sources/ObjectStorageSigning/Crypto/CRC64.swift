//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageCRC

/// A CRC-64: by default CRC-64/XZ, which Alibaba Cloud OSS and Huawei Cloud OBS call "CRC64-ECMA" (the
/// value of the `x-oss-hash-crc64ecma` header); or CRC-64/NVME, S3's `CRC64NVME` (`x-amz-checksum-crc64nvme`).
/// Streaming, and combinable so that per-part checksums of a multipart transfer fold into the whole object's.
///
/// ```swift
/// var crc = CRC64()
/// crc.update(part1)
/// crc.update(part2)
/// crc.value == CRC64.combine(CRC64.checksum(part1), CRC64.checksum(part2), lengthOfSecond: part2.count)
/// ```
package struct CRC64: Hashable, Sendable {
    /// Which CRC-64: the two share everything but the polynomial.
    package enum Polynomial: Hashable, Sendable {
        /// CRC-64/XZ (OSS and OBS "CRC64-ECMA").
        case xz
        /// CRC-64/NVME (S3 "CRC64NVME").
        case nvme

        var c: COSCRC64_polynomial { self == .xz ? COSCRC64_XZ : COSCRC64_NVME }
    }

    /// The polynomial of this checksum.
    package let polynomial: Polynomial
    /// The checksum of all bytes absorbed so far (0 for none).
    package private(set) var value: UInt64

    /// Starts a checksum, optionally continuing from the checksum of earlier bytes.
    ///
    /// - Parameters:
    ///   - polynomial: Which CRC-64.
    ///   - value: The checksum of the bytes before the ones to come (0 to start afresh).
    package init(_ polynomial: Polynomial = .xz, value: UInt64 = 0) {
        self.polynomial = polynomial
        self.value = value
    }

    /// Absorbs `bytes`.
    ///
    /// - Parameter bytes: The bytes to absorb.
    package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        value = COSCRC64_update(polynomial.c, value, bytes.baseAddress, bytes.count)
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
    /// - Parameters:
    ///   - bytes: The bytes to checksum.
    ///   - polynomial: Which CRC-64.
    /// - Returns: Their CRC-64.
    @inlinable
    package static func checksum<Bytes: Collection>(
        _ bytes: Bytes,
        polynomial: Polynomial = .xz
    ) -> UInt64 where Bytes.Element == UInt8 {
        var crc = CRC64(polynomial)
        crc.update(bytes)
        return crc.value
    }

    /// The checksum of `A || B` from the checksums of `A` and `B` and the length of `B` in bytes.
    ///
    /// - Parameters:
    ///   - first: The checksum of `A`.
    ///   - second: The checksum of `B`.
    ///   - lengthOfSecond: The length of `B` in bytes.
    ///   - polynomial: Which CRC-64.
    /// - Returns: The checksum of `A` followed by `B`.
    package static func combine(
        _ first: UInt64,
        _ second: UInt64,
        lengthOfSecond: UInt64,
        polynomial: Polynomial = .xz
    ) -> UInt64 {
        COSCRC64_combine(polynomial.c, first, second, lengthOfSecond)
    }

    /// The checksum of pieces laid end to end, from each piece's checksum and length.
    ///
    /// - Parameters:
    ///   - pieces: Each piece's checksum (`nil` when unknown) and length in bytes, in order.
    ///   - polynomial: Which CRC-64.
    /// - Returns: The checksum of the whole, or `nil` when a piece's is unknown.
    package static func combine(
        _ pieces: some Sequence<(crc: UInt64?, length: Int64)>,
        polynomial: Polynomial = .xz
    ) -> UInt64? {
        var combined: UInt64 = 0
        for piece in pieces {
            guard let crc = piece.crc else { return nil }
            combined = Self.combine(combined, crc, lengthOfSecond: UInt64(piece.length), polynomial: polynomial)
        }
        return combined
    }

    /// Whether this machine uses the carry-less-multiply implementation.
    package static var isAccelerated: Bool { COSCRC64_is_accelerated() != 0 }
}

extension CRC64 {
    /// `value` as S3 writes a CRC in a header (`x-amz-checksum-crc64nvme`): the base64 of its eight big-endian
    /// bytes.
    ///
    /// - Parameter value: A CRC-64.
    /// - Returns: Twelve base64 characters.
    package static func base64(_ value: UInt64) -> String {
        ByteEncoding.base64(withUnsafeBytes(of: value.bigEndian) { Array($0) })
    }

    /// The CRC in an S3 checksum header.
    ///
    /// - Parameter text: The header's value.
    /// - Returns: The CRC, or `nil` unless `text` is the base64 of exactly eight bytes.
    package static func value(base64 text: String) -> UInt64? {
        guard let bytes = ByteEncoding.bytes(fromBase64: text), bytes.count == 8 else { return nil }
        return bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
