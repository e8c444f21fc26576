//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageCRC
import ObjectStorageSigning

/// CRC-64/XZ through the public wrapper (the dispatching path) and through each implementation.
func runCRCBenchmarks() {
    let best = COSCRC64_best_implementation()
    print("CRC-64/XZ  (best implementation on this CPU: \(name(of: best)); target >= 5 GB/s)")
    let chunk = benchmarkBytes(count: 1 << 20, seed: 1)
    let gib = 1 << 30

    let wrapper = bestRate {
        var crc = CRC64()
        chunk.withUnsafeBytes { buffer in
            for _ in 0..<1024 { crc.update(bufferPointer: buffer) }
        }
        sink &+= crc.value
        return gib
    }
    report("  CRC64.update, 1 MiB chunks (cache-resident)", wrapper / 1e9, "GB/s", name(of: best))

    let implementations = [COSCRC64_VPCLMUL, COSCRC64_CLMUL, COSCRC64_PORTABLE]
    for implementation in implementations where implementation.rawValue <= best.rawValue {
        let rate = bestRate {
            var crc: UInt64 = 0
            chunk.withUnsafeBytes { buffer in
                for _ in 0..<1024 {
                    crc = COSCRC64_update_using(implementation, COSCRC64_XZ, crc, buffer.baseAddress, buffer.count)
                }
            }
            sink &+= crc
            return gib
        }
        report("  \(name(of: implementation)), 1 MiB chunks", rate / 1e9, "GB/s")
    }

    let large = benchmarkBytes(count: 256 << 20, seed: 2)
    let fromMemory = bestRate(rounds: 2) {
        var crc = CRC64()
        large.withUnsafeBytes { crc.update(bufferPointer: $0) }
        sink &+= crc.value
        return large.count
    }
    report("  CRC64.update, one 256 MiB buffer (from RAM)", fromMemory / 1e9, "GB/s")

    let parts = (0..<1000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
    let combines = bestRate {
        var crc: UInt64 = 0
        for part in parts { crc = CRC64.combine(crc, part, lengthOfSecond: 5 << 20) }
        sink &+= crc
        return parts.count
    }
    report("  CRC64.combine, 5 MiB parts", combines, "combines/s")
    print("")
}

private func name(of implementation: COSCRC64_implementation) -> String {
    switch implementation {
    case COSCRC64_VPCLMUL: return "VPCLMULQDQ 4x512-bit"
    case COSCRC64_CLMUL: return "PCLMULQDQ 8x128-bit"
    default: return "portable slicing-by-8"
    }
}
