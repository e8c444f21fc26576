//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning

/// Stable, script-friendly JSON on standard output.
enum JSONOutput {
    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        Swift.print(String(decoding: data, as: UTF8.self))
    }

    /// `2024-03-05T04:05:06Z` (UTC, whole seconds). Written by hand: an `ISO8601DateFormatter` made per call cost
    /// `ls` a quarter of a millisecond a line.
    static func iso8601(_ date: Date) -> String {
        SigningTimestamp(date).iso8601WholeSeconds
    }

    static func dictionary(_ headers: [HTTPHeader]) -> [String: String] {
        Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, second in "\(first),\(second)" })
    }
}
