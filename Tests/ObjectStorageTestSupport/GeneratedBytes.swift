//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// `count` bytes where byte `index` is `byte(index)`, written in a plain loop.
///
/// `(0..<count).map { ... }` runs its generic code unspecialized in a debug build: 8 s for 48 MiB here, against
/// 0.3 s for this loop. Tests building their payloads that way held both threads of a 2-core machine's concurrency
/// pool for half a minute and stalled every other test in the process past its deadline.
///
/// - Parameters:
///   - count: How many bytes.
///   - byte: The byte at an index.
/// - Returns: The bytes.
public func generatedBytes(count: Int, _ byte: (Int) -> UInt8) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        var index = 0
        while index < count {
            buffer[index] = byte(index)
            index += 1
        }
        initialized = count
    }
}

/// Deterministic test bytes that differ by `seed`: byte `index` is `31 * index + 7 * seed + index / 256`, truncated.
///
/// - Parameters:
///   - count: How many bytes.
///   - seed: Varies the bytes.
/// - Returns: The bytes.
public func testBytes(_ count: Int, seed: UInt8 = 1) -> [UInt8] {
    generatedBytes(count: count) { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7 &+ ($0 >> 8)) }
}
