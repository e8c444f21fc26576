//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension Duration {
    /// The duration as a person reads it: `0.15 s`, `12.30 s`, `2 min 5 s` (a `Duration` prints as
    /// `0.145021836 seconds`).
    public var readable: String {
        let seconds = Double(self.components.seconds) + Double(self.components.attoseconds) / 1e18
        if seconds < 60 { return String(format: "%.2f s", seconds) }
        let whole = Int(seconds.rounded())
        return "\(whole / 60) min \(whole % 60) s"
    }
}
