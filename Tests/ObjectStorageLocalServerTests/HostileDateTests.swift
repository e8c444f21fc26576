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

/// Dates and expiries that used to trap the server (integer overflow) before any signature was checked. Each
/// request carries only the access key id, as anyone who has seen a presigned URL could send; each test then
/// checks that the same server still answers a correctly signed request.
@Suite("Hostile dates and expiries")
struct HostileDateTests {
    static let keyID = LocalObjectServer.developmentCredentials.accessKeyID
    static let overflowingYear = "Sun, 06 Nov 99999999999999999 08:49:37 GMT"
    static let overflowingHour = "Sun, 06 Nov 1994 99999999999999999:49:37 GMT"
    static let int64Min = "-9223372036854775808"
    static let int64Max = "9223372036854775807"

    /// A server with credentials and a bucket `bkt` holding `k` = "hello".
    func withSignedServer(_ body: (TestClient, SignatureVerificationTests.Signed) async throws -> Void) async throws {
        try await withServer(.init(storage: .memory)) { client, server in
            let signed = SignatureVerificationTests.Signed(
                client: client,
                port: try #require(server.port),
                signer: RequestSigner(version: .sigV4, region: "us-east-1")
            )
            #expect(try await signed.send(try signed.request("PUT", bucket: "bkt")).status == 200)
            let put = try await signed.send(
                try signed.request("PUT", bucket: "bkt", key: "k"),
                body: Array("hello".utf8)
            )
            #expect(put.status == 200)
            try await body(client, signed)
            try await Self.expectServing(signed)
        }
    }

    /// The server still answers a correctly signed GET with the object.
    static func expectServing(_ signed: SignatureVerificationTests.Signed) async throws {
        let get = try await signed.send(try signed.request("GET", bucket: "bkt", key: "k"))
        #expect(get.status == 200, "\(get.text)")
        #expect(get.text == "hello")
    }

    static let now = SigningTimestamp(Date())

    // MARK: HMAC-SHA1 header schemes (OSS V1, OBS, AWS V2)

    @Test(
        "An out-of-range Date is refused as invalid",
        arguments: [("OSS", "x-oss-date"), ("OBS", "x-obs-date"), ("AWS", "x-amz-date")],
        [
            overflowingYear, overflowingHour, "Sun, 06 Nov 0000 08:49:37 GMT", "Sun, 31 Feb 2024 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:37 GMT", "Sun, 06 Nov -1994 08:49:37 GMT",
        ]
    )
    func refusesOutOfRangeDateHeaders(scheme: (String, String), date: String) async throws {
        try await withSignedServer { client, _ in
            for dateHeader in ["Date", scheme.1] {
                let response = try await client.send(
                    "GET",
                    "/bkt/k",
                    headers: [("Authorization", "\(scheme.0) \(Self.keyID):x"), (dateHeader, date)]
                )
                #expect(response.status == 403, "\(scheme.0) \(dateHeader): \(response.text)")
                #expect(response.element("Code") == "AccessDenied")
                #expect(response.element("Message")?.contains("valid Date") == true)
            }
        }
    }

    @Test(
        "A valid Date at either end of the calendar is too skewed, not a crash",
        arguments: ["OSS", "OBS", "AWS"],
        [
            ("Mon, 01 Jan 0001 00:00:00 GMT", "Mon, 01 Jan 0001 00:00:00 GMT"),
            ("Fri, 31 Dec 9999 23:59:59 GMT", "Fri, 31 Dec 9999 23:59:59 GMT"),
            ("Monday, 01-Jan-01 00:00:00 GMT", "Mon, 01 Jan 2001 00:00:00 GMT"),
            ("Fri Dec 31 23:59:59 9999", "Fri, 31 Dec 9999 23:59:59 GMT"),
        ]
    )
    func answersExtremeDatesWithRequestTimeTooSkewed(
        scheme: String,
        date: (sent: String, echoed: String)
    )
        async throws
    {
        try await withSignedServer { client, _ in
            let response = try await client.send(
                "GET",
                "/bkt/k",
                headers: [("Authorization", "\(scheme) \(Self.keyID):x"), ("Date", date.sent)]
            )
            #expect(response.status == 403, "\(response.text)")
            #expect(response.element("Code") == "RequestTimeTooSkewed")
            #expect(response.element("RequestTime") == date.echoed)
        }
    }

    // MARK: HMAC-SHA1 query schemes

    @Test(
        "An extreme Expires is expired or mismatched, not a crash",
        arguments: ["OSSAccessKeyId", "AccessKeyId", "AWSAccessKeyId"]
    )
    func answersExtremeV1Expiries(keyName: String) async throws {
        try await withSignedServer { client, _ in
            let expired = try await client.send(
                "GET",
                "/bkt/k?\(keyName)=\(Self.keyID)&Expires=\(Self.int64Min)&Signature=x"
            )
            #expect(expired.status == 403, "\(expired.text)")
            #expect(expired.element("Code") == "AccessDenied")
            #expect(expired.element("Message") == "Request has expired")
            // The expiry is reported at the calendar's first second rather than overflowing.
            #expect(expired.element("Expires") == "0001-01-01T00:00:00.000Z")
            let future = try await client.send(
                "GET",
                "/bkt/k?\(keyName)=\(Self.keyID)&Expires=\(Self.int64Max)&Signature=x"
            )
            #expect(future.status == 403, "\(future.text)")
            #expect(future.element("Code") == "SignatureDoesNotMatch")
            let unparsable = try await client.send(
                "GET",
                "/bkt/k?\(keyName)=\(Self.keyID)&Expires=99999999999999999999&Signature=x"
            )
            #expect(unparsable.status == 403)
            #expect(unparsable.element("Code") == "AccessDenied")
            #expect(
                unparsable.element("Message") == "Invalid date (should be seconds since epoch): 99999999999999999999"
            )
        }
    }

    // MARK: OSS V4

    static func ossV4Query(date: String, expires: String) -> String {
        let credential = "\(keyID)/\(now.dateStamp)/cn-hangzhou/oss/aliyun_v4_request"
            .replacingOccurrences(of: "/", with: "%2F")
        return "/bkt/k?x-oss-signature-version=OSS4-HMAC-SHA256&x-oss-credential=\(credential)"
            + "&x-oss-date=\(date)&x-oss-expires=\(expires)&x-oss-signature=x"
    }

    @Test("OSS V4: an extreme x-oss-expires or x-oss-date is refused, not a crash")
    func answersExtremeOSSV4Expiries() async throws {
        try await withSignedServer { client, _ in
            let farFuture = try await client.send(
                "GET",
                Self.ossV4Query(date: Self.now.iso8601Basic, expires: Self.int64Max)
            )
            // Outside OSS's 1...604800 seconds (PresignExpiryTests has the boundaries).
            #expect(farFuture.status == 403, "\(farFuture.text)")
            #expect(farFuture.element("EC") == "0002-00000232")
            let negative = try await client.send(
                "GET",
                Self.ossV4Query(date: Self.now.iso8601Basic, expires: Self.int64Min)
            )
            #expect(negative.status == 403, "\(negative.text)")
            #expect(negative.element("EC") == "0002-00000232")
            let firstDay = try await client.send(
                "GET",
                Self.ossV4Query(date: "00010101T000000Z", expires: "604800")
            )
            #expect(firstDay.status == 403, "\(firstDay.text)")
            #expect(firstDay.element("Message") == "Request has expired")
            let yearZero = try await client.send("GET", Self.ossV4Query(date: "00000101T000000Z", expires: "60"))
            #expect(yearZero.status == 403, "\(yearZero.text)")
            #expect(yearZero.element("Message") == "The request must contain a valid x-oss-date.")
            let header = try await client.send(
                "GET",
                "/bkt/k",
                headers: [
                    (
                        "Authorization",
                        "OSS4-HMAC-SHA256 Credential=\(Self.keyID)/\(Self.now.dateStamp)/cn-hangzhou/oss/"
                            + "aliyun_v4_request,Signature=x"
                    ),
                    ("x-oss-date", "99999999T999999Z"),
                ]
            )
            #expect(header.status == 403, "\(header.text)")
            #expect(header.element("Message") == "The request must contain a valid x-oss-date.")
        }
    }

    // MARK: SigV4

    static func sigV4Query(date: String, expires: String) -> String {
        let credential = "\(keyID)/\(now.dateStamp)/us-east-1/s3/aws4_request".replacingOccurrences(
            of: "/",
            with: "%2F"
        )
        return "/bkt/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=\(credential)&X-Amz-Date=\(date)"
            + "&X-Amz-Expires=\(expires)&X-Amz-SignedHeaders=host&X-Amz-Signature=x"
    }

    @Test("SigV4: an extreme X-Amz-Expires or X-Amz-Date is refused, not a crash")
    func answersExtremeSigV4Expiries() async throws {
        try await withSignedServer { client, _ in
            let yearZero = try await client.send(
                "GET",
                Self.sigV4Query(date: "00000101T000000Z", expires: Self.int64Min)
            )
            #expect(yearZero.status == 403, "\(yearZero.text)")
            #expect(yearZero.element("Message") == "The request must contain a valid x-amz-date.")
            let negative = try await client.send(
                "GET",
                Self.sigV4Query(date: Self.now.iso8601Basic, expires: Self.int64Min)
            )
            #expect(negative.status == 400, "\(negative.text)")
            #expect(negative.element("Code") == "AuthorizationQueryParametersError")
            #expect(negative.element("Message") == "X-Amz-Expires must be non-negative")
            let tooLong = try await client.send(
                "GET",
                Self.sigV4Query(date: "00010101T000000Z", expires: Self.int64Max)
            )
            #expect(tooLong.status == 400, "\(tooLong.text)")
            #expect(tooLong.element("Code") == "AuthorizationQueryParametersError")
            let firstDay = try await client.send("GET", Self.sigV4Query(date: "00010101T000000Z", expires: "604800"))
            #expect(firstDay.status == 403, "\(firstDay.text)")
            #expect(firstDay.element("Message") == "Request has expired")
            let lastSecond = try await client.send("GET", Self.sigV4Query(date: "99991231T235959Z", expires: "1"))
            #expect(lastSecond.status == 403, "\(lastSecond.text)")
            #expect(lastSecond.element("Message") == "Request is not valid yet")
            let header = try await client.send(
                "GET",
                "/bkt/k",
                headers: [
                    (
                        "Authorization",
                        "AWS4-HMAC-SHA256 Credential=\(Self.keyID)/\(Self.now.dateStamp)/us-east-1/s3/"
                            + "aws4_request,SignedHeaders=host,Signature=x"
                    ),
                    ("x-amz-date", "99991231T235959Z"),
                    ("x-amz-content-sha256", "UNSIGNED-PAYLOAD"),
                ]
            )
            #expect(header.status == 403, "\(header.text)")
            #expect(header.element("Code") == "RequestTimeTooSkewed")
            #expect(header.element("RequestTime") == "Fri, 31 Dec 9999 23:59:59 GMT")
        }
    }

    // MARK: Conditional headers (no signature needed on an anonymous server)

    @Test(
        "An out-of-range conditional date is ignored, in every dialect",
        arguments: [[], ossDialect, obsDialect],
        ["If-Modified-Since", "If-Unmodified-Since", "If-Range"]
    )
    func ignoresOutOfRangeConditionalDates(dialect: [(String, String)], header: String) async throws {
        try await withServer { client, _ in
            #expect(try await client.send("PUT", "/bkt", headers: dialect).status == 200)
            #expect(try await client.send("PUT", "/bkt/k", headers: dialect, body: Array("hello".utf8)).status == 200)
            for date in [Self.overflowingYear, Self.overflowingHour, "Sun, 06 Nov 0000 08:49:37 GMT"] {
                var headers = dialect + [(header, date)]
                if header == "If-Range" { headers.append(("Range", "bytes=0-1")) }
                let response = try await client.send("GET", "/bkt/k", headers: headers)
                #expect(response.status == 200, "\(header): \(date): \(response.text)")
                #expect(response.text == "hello")
            }
            // The last representable second still parses (and is later than the object).
            let notModified = try await client.send(
                "GET",
                "/bkt/k",
                headers: dialect + [("If-Modified-Since", "Fri, 31 Dec 9999 23:59:59 GMT")]
            )
            #expect(notModified.status == 304)
            #expect(try await client.send("GET", "/bkt/k", headers: dialect).text == "hello")
        }
    }
}
