//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser

/// An age written as digits and one unit: `90s`, `30m`, `12h`, `7d` (at most 100 years).
struct Age: ExpressibleByArgument, Sendable, Hashable {
    /// The age in seconds.
    var seconds: Double

    private static let unitSeconds: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
    private static let longest: Int64 = 100 * 365 * 86_400

    init?(argument: String) {
        guard let unit = argument.last.flatMap({ Self.unitSeconds[Character($0.lowercased())] }) else { return nil }
        let digits = argument.dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isWholeNumber }), let count = Int64(digits) else {
            return nil
        }
        let (product, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, product <= Self.longest else { return nil }
        seconds = Double(product)
    }
}
