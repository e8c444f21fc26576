//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning

/// What `cors check` finds wrong with a presigned URL itself: the failures a browser reports as "CORS" because an
/// answer that refuses a request carries no CORS headers, though CORS is not their cause.
struct PresignedURLCheck {
    let url: String
    let now: Date

    /// When the URL stops working, from its signature's parameters: `X-Amz-Date` and `X-Amz-Expires` (SigV4),
    /// `x-oss-date` and `x-oss-expires` (OSS V4), or `Expires` in seconds since 1970 (OSS V1, OBS, AWS V2).
    var expiry: Date? {
        guard let items = URLComponents(string: self.url)?.queryItems else { return nil }
        func value(_ name: String) -> String? {
            items.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        for (dateName, expiresName) in [("X-Amz-Date", "X-Amz-Expires"), ("x-oss-date", "x-oss-expires")] {
            if let start = value(dateName).flatMap(Self.basicTimestamp),
                let seconds = value(expiresName).flatMap(Int.init),
                (0...(7 * 86_400)).contains(seconds)
            {
                return start.addingTimeInterval(TimeInterval(seconds))
            }
        }
        if let epoch = value("Expires").flatMap(Int64.init), (0...(1 << 40)).contains(epoch) {
            return Date(timeIntervalSince1970: TimeInterval(epoch))
        }
        return nil
    }

    /// `20261129T052700Z` as an instant.
    static func basicTimestamp(_ text: String) -> Date? {
        let digits = Array(text.utf8)
        guard digits.count == 16, digits[8] == UInt8(ascii: "T"), digits[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? { Int64(String(decoding: digits[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), let hour = number(9..<11),
            let minute = number(11..<13), let second = number(13..<15)
        else { return nil }
        return SigningTimestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second)?.date
    }

    /// The sentences of what is wrong with the URL, given the answer to a GET of its first byte (`replay`), which
    /// the service refuses for its signature (signed for another method) only after it has checked the rest.
    func findings(replay: PlainHTTP.Reply?) -> [String] {
        var findings: [String] = []
        if let expiry, expiry < self.now {
            findings.append(
                "the URL expired at \(expiry.formatted(.iso8601)): the service refuses it with no CORS headers, "
                    + "which a browser reports as a CORS error; presign a new one"
            )
        }
        if let replay, let code = replay.errorCode, !Self.signatureCodes.contains(code), findings.isEmpty {
            let message = replay.errorMessage.map { ": \($0)" } ?? ""
            findings.append(
                "the URL fails before its signature is checked (\(replay.status) \(code)\(message)); a browser "
                    + "reports such a refusal as a CORS error, but the URL itself is wrong"
            )
        }
        return findings
    }

    /// The error codes of a signature that does not match (expected: the replay uses another method than the
    /// URL's), after which nothing more can be learnt.
    static let signatureCodes: Set<String> = ["SignatureDoesNotMatch", "AccessDenied", "InvalidAccessKeyId"]
}
