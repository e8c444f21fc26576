//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The server's date formats on the wire, over the SDK's one validated codec, ``SigningTimestamp``.
///
/// Times are whole seconds since 1970 (`Int64`); HTTP dates have one-second resolution. Parsing returns `nil`
/// for any field outside its calendar range (years 1...9999); formatting accepts every `Int64` and writes an
/// instant outside `SigningTimestamp.representableSeconds` as the nearest end of that range.
enum HTTPDate {
    /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 IMF-fixdate).
    static func imfFixdate(_ seconds: Int64) -> String {
        SigningTimestamp(secondsSince1970: seconds).httpDate
    }

    /// `1994-11-06T08:49:37.000Z` (the XML timestamp of S3, OSS and OBS).
    static func iso8601(_ seconds: Int64, milliseconds: Int64 = 0) -> String {
        SigningTimestamp(secondsSince1970: seconds).iso8601(milliseconds: milliseconds)
    }

    /// `19941106T084937Z` (the SigV4 and OSS V4 request time).
    static func basicISO8601(_ seconds: Int64) -> String {
        SigningTimestamp(secondsSince1970: seconds).iso8601Basic
    }

    /// Parses an IMF-fixdate, an RFC 850 date or an asctime date (RFC 9110 §5.6.7); `nil` if malformed or out
    /// of range.
    static func parseHTTPDate(_ text: String) -> Int64? {
        SigningTimestamp(httpDate: text)?.secondsSince1970
    }

    /// Parses `19941106T084937Z`; `nil` if malformed or out of range.
    static func parseBasicISO8601(_ text: String) -> Int64? {
        SigningTimestamp(iso8601Basic: text)?.secondsSince1970
    }
}
