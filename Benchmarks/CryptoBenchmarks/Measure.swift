//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps results alive so the optimizer cannot drop the work that produced them.
nonisolated(unsafe) var sink: UInt64 = 0

/// Runs `batch` (which does some units of work and returns how many) until `minimumSeconds` of this
/// thread's CPU time have passed, `rounds` times, and returns the best rate in units per CPU second.
///
/// CPU time rather than wall time, as `openssl speed` measures by default: figures stay comparable
/// when other processes share the core.
func bestRate(rounds: Int = 3, minimumSeconds: Double = 1, _ batch: () throws -> Int) rethrows -> Double {
    var best = 0.0
    for _ in 0..<rounds {
        var units = 0
        let start = threadCPUSeconds()
        var elapsed = 0.0
        repeat {
            units += try batch()
            elapsed = threadCPUSeconds() - start
        } while elapsed < minimumSeconds
        best = max(best, Double(units) / elapsed)
    }
    return best
}

/// CPU time consumed by the calling thread, in seconds.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Deterministic filler bytes (SplitMix64).
func benchmarkBytes(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }
}

/// One line of the report: a label, a figure and its unit, and an optional remark.
func report(_ label: String, _ value: Double, _ unit: String, _ remark: String = "") {
    let figure = value >= 100 ? String(Int(value.rounded())) : String(format: "%.2f", value)
    let padded = label.padding(toLength: 46, withPad: " ", startingAt: 0)
    let paddedFigure = String(repeating: " ", count: max(0, 12 - figure.count)) + figure
    print("\(padded)\(paddedFigure) \(unit.padding(toLength: 10, withPad: " ", startingAt: 0))\(remark)")
}
