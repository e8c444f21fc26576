//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageCRC
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// CRC-64/XZ ("CRC64-ECMA") and CRC-64/NVME (S3's "CRC64NVME"): known answers, the accelerated paths against the
/// portable one, streaming and combine, for both polynomials.
struct CRC64Tests {
    /// Every implementation the C library has; those this CPU lacks fall back to the next one down.
    static let implementations = [COSCRC64_PORTABLE, COSCRC64_CLMUL, COSCRC64_VPCLMUL]
    static let polynomials: [CRC64.Polynomial] = [.xz, .nvme]

    @Test func checkValueOf123456789() {
        #expect(CRC64.checksum(Array("123456789".utf8)) == 0x995D_C9BB_DF19_39FA)
        // The CRC catalogue's check value for CRC-64/NVME.
        #expect(CRC64.checksum(Array("123456789".utf8), polynomial: .nvme) == 0xAE8B_1486_0A79_9888)
    }

    /// Expected values from a bit-at-a-time reference (Python, reflected polynomial 0x9A6C9329AC4BC9B5).
    @Test func nvmeMatchesABitwiseReference() {
        let fox = Array("The quick brown fox jumps over the lazy dog".utf8)
        #expect(CRC64.checksum(fox, polynomial: .nvme) == 0xD76C_5405_4954_C143)
        let pattern = generatedBytes(count: 1_000_003) { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        #expect(CRC64.checksum(pattern, polynomial: .nvme) == 0xDFD6_487E_AC9F_093E)
        for implementation in Self.implementations {
            #expect(crc(pattern[...], using: implementation, polynomial: .nvme) == 0xDFD6_487E_AC9F_093E)
        }
    }

    @Test func emptyInputIsZeroAndLeavesAChecksumUnchanged() {
        #expect(CRC64.checksum([UInt8]()) == 0)
        #expect(CRC64().value == 0)
        var crc = CRC64(value: 0x1234_5678_9ABC_DEF0)
        crc.update([UInt8]())
        #expect(crc.value == 0x1234_5678_9ABC_DEF0)
    }

    /// Expected values from liblzma (`xz --check=crc64`, then `xz -lvv` shows the block's check value).
    @Test func matchesLiblzma() {
        let fox = Array("The quick brown fox jumps over the lazy dog".utf8)
        #expect(CRC64.checksum(fox) == 0x5B5E_B8C2_E54A_A1C4)
        let pattern = generatedBytes(count: 1_000_003) { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        #expect(CRC64.checksum(pattern) == 0xDF6A_4373_2B71_F155)
        for implementation in Self.implementations {
            #expect(crc(pattern, using: implementation) == 0xDF6A_4373_2B71_F155)
        }
    }

    @Test(arguments: polynomials)
    func acceleratedMatchesPortableForEveryLengthUpTo1024(polynomial: CRC64.Polynomial) {
        var random = SeededRandom(seed: 1)
        let buffer = random.bytes(1024 + 64)
        for length in 0...1024 {
            let offset = Int.random(in: 0..<64, using: &random)
            let initial = length % 3 == 0 ? 0 : random.next()
            let slice = buffer[offset..<offset + length]
            let expected = portable(slice, initial: initial, polynomial: polynomial)
            for implementation in Self.implementations {
                let actual = crc(slice, initial: initial, using: implementation, polynomial: polynomial)
                #expect(actual == expected, "length \(length), offset \(offset), implementation \(implementation)")
            }
            let oneShot = CRC64.checksum(slice, polynomial: polynomial)
            #expect(oneShot == portable(slice, initial: 0, polynomial: polynomial))
        }
    }

    @Test(arguments: polynomials)
    func acceleratedMatchesPortableForBigBuffersAtRandomAlignmentsAndSplits(polynomial: CRC64.Polynomial) {
        var random = SeededRandom(seed: 2)
        let buffer = random.bytes(3 << 20)
        for _ in 0..<24 {
            let offset = Int.random(in: 0..<64, using: &random)
            let length = Int.random(in: 1024...(buffer.count - offset), using: &random)
            let slice = buffer[offset..<offset + length]
            let expected = portable(slice, initial: 0, polynomial: polynomial)
            let split = offset + Int.random(in: 0...length, using: &random)
            for implementation in Self.implementations {
                #expect(
                    crc(slice, using: implementation, polynomial: polynomial) == expected,
                    "length \(length), offset \(offset)"
                )
                let first = crc(buffer[offset..<split], using: implementation, polynomial: polynomial)
                let rest = buffer[split..<offset + length]
                #expect(crc(rest, initial: first, using: implementation, polynomial: polynomial) == expected)
            }
        }
    }

    @Test(arguments: polynomials)
    func streamingInOddChunkSizesMatchesOneShot(polynomial: CRC64.Polynomial) {
        var random = SeededRandom(seed: 3)
        let buffer = random.bytes(600_000)
        let expected = portable(buffer[...], initial: 0, polynomial: polynomial)
        for chunkSize in [1, 3, 7, 15, 17, 127, 129, 255, 257, 511, 513, 4095, 65_537] {
            var crc = CRC64(polynomial)
            var start = 0
            while start < buffer.count {
                let end = min(start + chunkSize, buffer.count)
                crc.update(buffer[start..<end])
                start = end
            }
            #expect(crc.value == expected, "chunk size \(chunkSize)")
        }
    }

    @Test(arguments: polynomials)
    func combineEqualsChecksumOfConcatenation(polynomial: CRC64.Polynomial) {
        var random = SeededRandom(seed: 4)
        let buffer = random.bytes(1 << 20)
        var splits = [0, 1, 7, 8, 255, 256, 4096, buffer.count - 1, buffer.count]
        splits += (0..<16).map { _ in Int.random(in: 0...buffer.count, using: &random) }
        let whole = CRC64.checksum(buffer, polynomial: polynomial)
        for split in splits {
            let first = CRC64.checksum(buffer[..<split], polynomial: polynomial)
            let second = CRC64.checksum(buffer[split...], polynomial: polynomial)
            let length = UInt64(buffer.count - split)
            let combined = CRC64.combine(first, second, lengthOfSecond: length, polynomial: polynomial)
            #expect(combined == whole, "split \(split)")
        }
    }

    @Test func combineWithEmptySecondPartKeepsTheFirst() {
        let first = CRC64.checksum(Array("123456789".utf8))
        #expect(CRC64.combine(first, 0, lengthOfSecond: 0) == 0x995D_C9BB_DF19_39FA)
        #expect(CRC64.combine(0, first, lengthOfSecond: 9) == 0x995D_C9BB_DF19_39FA)
    }

    @Test func combineOverLargeLengths() {
        // 40 MiB of zeros, folded from 1 MiB parts, against streaming the same bytes.
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        var streamed = CRC64()
        var combined = CRC64.checksum(Array("prefix".utf8))
        streamed.update(Array("prefix".utf8))
        let part = CRC64.checksum(zeros)
        for _ in 0..<40 {
            streamed.update(zeros)
            combined = CRC64.combine(combined, part, lengthOfSecond: UInt64(zeros.count))
        }
        #expect(combined == streamed.value)

        // Lengths far past anything that can be hashed here must still be associative:
        // (A + B) + C == A + (B + C), with B and C as long as 2^62 bytes.
        var random = SeededRandom(seed: 5)
        let lengths: [UInt64] = [1 << 32, (1 << 40) + 3, 1 << 62, UInt64.max / 8, 5_000_000_007]
        for lengthB in lengths {
            for lengthC in lengths where lengthB <= UInt64.max - lengthC {
                let (a, b, c) = (random.next(), random.next(), random.next())
                let left = CRC64.combine(CRC64.combine(a, b, lengthOfSecond: lengthB), c, lengthOfSecond: lengthC)
                let tail = CRC64.combine(b, c, lengthOfSecond: lengthC)
                let right = CRC64.combine(a, tail, lengthOfSecond: lengthB + lengthC)
                #expect(left == right, "lengths \(lengthB), \(lengthC)")
            }
        }
    }

    @Test func acceleratedFlagMatchesTheDetectedImplementation() {
        #expect(CRC64.isAccelerated == (COSCRC64_best_implementation() != COSCRC64_PORTABLE))
    }

    private func crc(
        _ bytes: ArraySlice<UInt8>,
        initial: UInt64 = 0,
        using implementation: COSCRC64_implementation,
        polynomial: CRC64.Polynomial = .xz
    ) -> UInt64 {
        let c = polynomial == .xz ? COSCRC64_XZ : COSCRC64_NVME
        return bytes.withUnsafeBytes { COSCRC64_update_using(implementation, c, initial, $0.baseAddress, $0.count) }
    }

    private func crc(_ bytes: [UInt8], using implementation: COSCRC64_implementation) -> UInt64 {
        crc(bytes[...], using: implementation)
    }

    private func portable(_ bytes: ArraySlice<UInt8>, initial: UInt64, polynomial: CRC64.Polynomial = .xz) -> UInt64 {
        let c = polynomial == .xz ? COSCRC64_XZ : COSCRC64_NVME
        return bytes.withUnsafeBytes { COSCRC64_update_portable(c, initial, $0.baseAddress, $0.count) }
    }
}

/// SplitMix64: reproducible test data without depending on the system generator.
private struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        generatedBytes(count: count) { _ in UInt8(truncatingIfNeeded: next()) }
    }
}
