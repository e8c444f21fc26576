//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageLocalServer
import ObjectStorageSigning
import Testing

/// The validity a presigned URL states, at its boundaries. Each URL is correctly signed (by hand where the SDK's
/// signer refuses the value), so a refusal is the rule under test and not a signature mismatch:
/// - SigV4's `X-Amz-Expires` and OSS V4's `x-oss-expires` are whole seconds in 1...604800;
/// - the absolute `Expires` of OSS V1, OBS and AWS V2 is a decimal time: digits, or a minus and digits (expired).
@Suite("Presigned expiries")
struct PresignExpiryTests {
    static let tooLong =
        "X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must be less than "
        + "604800 seconds"
    static let sigV4Refusals: [(expires: String, message: String)] = [
        ("0", "X-Amz-Expires must be at least 1 second"),
        ("-1", "X-Amz-Expires must be non-negative"),
        ("-99999999999999999999", "X-Amz-Expires must be non-negative"),
        ("604801", tooLong),
        ("99999999999999999999", tooLong),
        ("+300", "X-Amz-Expires should be a number"),
        (" 300", "X-Amz-Expires should be a number"),
        ("1.5", "X-Amz-Expires should be a number"),
        ("abc", "X-Amz-Expires should be a number"),
        ("", "X-Amz-Expires should be a number"),
    ]

    @Test("SigV4: X-Amz-Expires outside 1...604800 or not a number is AuthorizationQueryParametersError")
    func sigV4ValidityBounds() async throws {
        try await HostileDateTests().withSignedServer { client, signed in
            let hand = HandSignedV4(port: signed.port)
            for (expires, message) in Self.sigV4Refusals {
                let refused = try await client.send(
                    "GET",
                    hand.presigned("GET", "/bkt/k", signed: ["host"], expires: expires)
                )
                #expect(refused.status == 400, "X-Amz-Expires=\(expires): \(refused.text)")
                #expect(refused.element("Code") == "AuthorizationQueryParametersError", "X-Amz-Expires=\(expires)")
                #expect(refused.element("Message") == message, "X-Amz-Expires=\(expires)")
            }
            for expires in ["1", "604800"] {
                let accepted = try await client.send(
                    "GET",
                    hand.presigned("GET", "/bkt/k", signed: ["host"], expires: expires)
                )
                #expect(accepted.status == 200, "X-Amz-Expires=\(expires): \(accepted.text)")
                #expect(accepted.text == "hello")
            }
        }
    }

    @Test("OSS V4: x-oss-expires is required and within 1...604800")
    func ossV4ValidityBounds() async throws {
        try await HostileDateTests().withSignedServer { client, signed in
            let hand = HandSignedV4(port: signed.port)
            let missing = try await client.send("GET", hand.ossPresigned("GET", bucket: "bkt", key: "k", expires: nil))
            #expect(missing.status == 403, "\(missing.text)")
            #expect(missing.element("Code") == "AccessDenied")
            #expect(missing.element("EC") == "0002-00000215")
            for expires in ["0", "-1", "604801", "99999999999999999999", "+60", " 60", "abc", ""] {
                let refused = try await client.send(
                    "GET",
                    hand.ossPresigned("GET", bucket: "bkt", key: "k", expires: expires)
                )
                #expect(refused.status == 403, "x-oss-expires=\(expires): \(refused.text)")
                #expect(refused.element("Code") == "AccessDenied", "x-oss-expires=\(expires)")
                #expect(refused.element("EC") == "0002-00000232", "x-oss-expires=\(expires)")
                #expect(refused.header("x-oss-ec") == "0002-00000232", "x-oss-expires=\(expires)")
            }
            for expires in ["1", "604800"] {
                let accepted = try await client.send(
                    "GET",
                    hand.ossPresigned("GET", bucket: "bkt", key: "k", expires: expires)
                )
                #expect(accepted.status == 200, "x-oss-expires=\(expires): \(accepted.text)")
                #expect(accepted.text == "hello")
            }
        }
    }

    @Test(
        "OSS V1, OBS, AWS V2: an Expires with a plus sign or past Int64 is an invalid date",
        arguments: ["oss-v1", "obs", "aws-v2"]
    )
    func absoluteExpiryIsPlainDigits(name: String) async throws {
        let (_, signer) = try #require(SignatureVerificationTests.schemes.first { $0.0 == name })
        try await SignatureVerificationTests().withSignedServer(signer) { signed in
            let put = try await signed.send(try signed.request("PUT", bucket: "bkt", key: "k"), body: Array("hi".utf8))
            #expect(put.status == 200, "\(put.text)")
            let url = try signed.presigned("GET", bucket: "bkt", key: "k")
            let accepted = try await signed.client.send("GET", url)
            #expect(accepted.status == 200, "\(name): \(accepted.text)")

            // The same signed URL with its Expires written `+N` (Int64's parser reads the same N, so the signature
            // still matches) and with a value past Int64.
            let expires = try #require(url.firstMatch(of: /[?&]Expires=([0-9]+)/)?.output.1)
            for (written, echoed) in [
                ("%2B\(expires)", "+\(expires)"), ("99999999999999999999", "99999999999999999999"),
            ] {
                let refused = try await signed.client.send(
                    "GET",
                    url.replacingOccurrences(of: "Expires=\(expires)", with: "Expires=\(written)")
                )
                #expect(refused.status == 403, "\(name) Expires=\(written): \(refused.text)")
                #expect(refused.element("Code") == "AccessDenied")
                #expect(refused.element("Message") == "Invalid date (should be seconds since epoch): \(echoed)")
            }
        }
    }
}
