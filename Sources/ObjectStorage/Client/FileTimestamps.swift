//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The times `futimens` and `utimensat` set on a downloaded file.
enum FileTimestamps {
    /// The access and the modification time both at `date`; `nil` for a date more than about 31,000 years from 1970,
    /// as a date parsed from a header is bounded before it becomes an integer.
    static func both(_ date: Date) -> [timespec]? {
        let interval = date.timeIntervalSince1970
        guard abs(interval) < 1e12 else { return nil }
        let seconds = interval.rounded(.down)
        let stamp = timespec(tv_sec: Int(seconds), tv_nsec: Int((interval - seconds) * 1e9))
        return [stamp, stamp]
    }
}
