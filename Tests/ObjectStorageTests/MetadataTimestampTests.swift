//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import ObjectStorage

/// The RFC 3339 parser for metadata-service expirations; expected values come from Python's `calendar.timegm`.
struct MetadataTimestampTests {
    @Test(
        arguments: [
            ("2017-11-01T05:20:01Z", 1_509_513_601.0),  // Alibaba Cloud's documented example
            ("2030-01-02T03:04:05Z", 1_893_553_445.0),
            ("2030-01-02T03:04:05.583000Z", 1_893_553_445.583),  // Huawei Cloud's style
            ("2030-01-02t03:04:05.5z", 1_893_553_445.5),
            ("2024-02-29T23:59:59Z", 1_709_251_199.0),  // leap day
            ("2024-03-01T08:00:00+08:00", 1_709_251_200.0),
            ("2024-02-29T23:30:00-00:30", 1_709_251_200.0),
            ("1970-01-01T00:00:00Z", 0.0),
        ]
    )
    func parsesRFC3339(text: String, seconds: Double) throws {
        let date = try #require(InstanceMetadataTimestamp.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test(
        arguments: [
            "", "2030-01-02", "2030-01-02T03:04:05", "2030-01-02T03:04:05+0800", "2030-13-02T03:04:05Z",
            "2023-02-29T03:04:05Z", "2030-01-02T24:00:00Z", "2030-01-02T03:04:05.Z", "2030-01-02T03:04:05Z ",
            "20300102T030405Z", "２０３０-01-02T03:04:05Z",
        ]
    )
    func rejectsOtherText(text: String) {
        #expect(InstanceMetadataTimestamp.parse(text) == nil)
    }
}
