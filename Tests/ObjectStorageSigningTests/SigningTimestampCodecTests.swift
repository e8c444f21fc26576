//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning
import Testing

/// SigningTimestamp as the one date codec of the SDK and the local server; expected seconds come from Python's
/// `calendar.timegm`.
@Suite("SigningTimestamp codec")
struct SigningTimestampCodecTests {
    @Test(
        "The three HTTP date forms and ISO 8601 extended parse to the same instant",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Sun, 6 Nov 1994 08:49:37 GMT",
            // s3cmd's SigV2 x-amz-date (`%a, %d %b %Y %H:%M:%S +0000`), and the other names of UTC.
            "Sun, 06 Nov 1994 08:49:37 +0000", "Sun, 06 Nov 1994 08:49:37 -0000", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Nov 1994 08:49:37 UT",
        ]
    )
    func httpDateForms(_ text: String) {
        #expect(SigningTimestamp(httpDate: text)?.secondsSince1970 == 784_111_777)
    }

    @Test("Another zone is refused, not taken for GMT", arguments: ["+0100", "EST", "-0500", "Z", "GMT+1"])
    func otherZonesAreRefused(_ zone: String) {
        #expect(SigningTimestamp(httpDate: "Sun, 06 Nov 1994 08:49:37 \(zone)") == nil)
    }

    @Test("ISO 8601 extended, with or without a fraction")
    func iso8601Extended() {
        for text in ["1994-11-06T08:49:37Z", "1994-11-06T08:49:37.999Z", "1994-11-06t08:49:37+00:00"] {
            #expect(SigningTimestamp(iso8601: text)?.secondsSince1970 == 784_111_777, "\(text)")
        }
        for text in [
            "1994-11-06T08:49:37.Z", "1994-11-06T08:49:37+01:00", "0000-01-01T00:00:00Z", "1994-11-06T08:49:37",
        ] {
            #expect(SigningTimestamp(iso8601: text) == nil, "\(text)")
        }
        #expect(SigningTimestamp(secondsSince1970: 784_111_777).iso8601(milliseconds: 7) == "1994-11-06T08:49:37.007Z")
        #expect(SigningTimestamp(secondsSince1970: 784_111_777).iso8601WholeSeconds == "1994-11-06T08:49:37Z")
        #expect(SigningTimestamp(secondsSince1970: -1).iso8601WholeSeconds == "1969-12-31T23:59:59Z")
    }

    @Test("Fields are validated before any arithmetic")
    func validatedFields() {
        #expect(
            SigningTimestamp(year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0)?.secondsSince1970
                == -62_135_596_800
        )
        #expect(
            SigningTimestamp(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)?.secondsSince1970
                == 253_402_300_799
        )
        #expect(SigningTimestamp(year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0) == nil)
        #expect(SigningTimestamp(year: 10_000, month: 1, day: 1, hour: 0, minute: 0, second: 0) == nil)
        #expect(SigningTimestamp(year: 2023, month: 2, day: 29, hour: 0, minute: 0, second: 0) == nil)
        #expect(SigningTimestamp(year: .max, month: .max, day: .max, hour: .max, minute: .max, second: .max) == nil)
        #expect(SigningTimestamp(httpDate: "Sun, 06 Nov 99999999999999999 08:49:37 GMT") == nil)
        #expect(SigningTimestamp(httpDate: "Sun, 06 Nov 1994 99999999999999999:49:37 GMT") == nil)
    }

    @Test("Formatting is total: instants past either end are written as that end")
    func totalFormatting() {
        let first = SigningTimestamp(secondsSince1970: .min)
        #expect(first.httpDate == "Mon, 01 Jan 0001 00:00:00 GMT")
        #expect(first.iso8601Basic == "00010101T000000Z")
        #expect(first.dateStamp == "00010101")
        let last = SigningTimestamp(secondsSince1970: .max)
        #expect(last.httpDate == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(last.iso8601() == "9999-12-31T23:59:59.000Z")
        #expect(last.iso8601WholeSeconds == "9999-12-31T23:59:59Z")
        #expect(SigningTimestamp(Date(timeIntervalSince1970: 1e300)).secondsSince1970 == 253_402_300_799)
        #expect(SigningTimestamp(Date(timeIntervalSince1970: -1e300)).secondsSince1970 == -62_135_596_800)
        #expect(SigningTimestamp(Date(timeIntervalSince1970: .nan)).secondsSince1970 == 0)
    }
}
