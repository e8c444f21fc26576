//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageLocalServer
import ObjectStorageSigning
import Testing

/// The V4 rules beyond the signature itself: the scope's service, `host` and the payload hash signed,
/// one authentication per request, no aws-chunked bodies, and the body bound to its declared SHA-256.
@Suite("V4 rules")
struct V4RulesTests {
    typealias Signed = SignatureVerificationTests.Signed

    static let sigV4 = RequestSigner(version: .sigV4, region: "us-east-1")
    static let hello = Array("hello".utf8)

    /// Runs `body` on a signed SigV4 server holding `bkt/k` = "hello", then checks it still serves it.
    func withObject(_ body: (Signed, HandSignedV4) async throws -> Void) async throws {
        try await SignatureVerificationTests().withSignedServer(Self.sigV4) { signed in
            let put = try await signed.send(try signed.request("PUT", bucket: "bkt", key: "k"), body: Self.hello)
            #expect(put.status == 200, "\(put.text)")
            try await body(signed, HandSignedV4(port: signed.port))
            let get = try await signed.send(try signed.request("GET", bucket: "bkt", key: "k"))
            #expect(get.status == 200, "\(get.text)")
            #expect(get.body == Self.hello)
        }
    }

    @Test
    func handSignedControlIsAccepted() async throws {
        try await withObject { signed, hand in
            let headers = hand.headers(
                "GET",
                "/bkt/k",
                payloadHash: "UNSIGNED-PAYLOAD",
                signed: ["host", "x-amz-content-sha256", "x-amz-date"]
            )
            #expect(try await signed.client.send("GET", "/bkt/k", headers: headers).status == 200)
            let url = hand.presigned("GET", "/bkt/k", signed: ["host"])
            let presigned = try await signed.client.send("GET", url)
            #expect(presigned.status == 200, "\(presigned.text)")
        }
    }

    @Test
    func scopeForAnotherServiceIsRefused() async throws {
        try await withObject { signed, _ in
            let ec2 = Signed(
                client: signed.client,
                port: signed.port,
                signer: RequestSigner(version: .sigV4, region: "us-east-1", service: "ec2")
            )
            let header = try await ec2.send(try ec2.request("GET", bucket: "bkt", key: "k"))
            #expect(header.status == 400)
            #expect(header.element("Code") == "AuthorizationHeaderMalformed")
            #expect(header.element("Message")?.contains("incorrect service") == true)
            let query = try await signed.client.send("GET", try ec2.presigned("GET", bucket: "bkt", key: "k"))
            #expect(query.status == 400)
            #expect(query.element("Code") == "AuthorizationQueryParametersError")
        }
    }

    @Test
    func ossV4ScopeForAnotherProductIsRefused() async throws {
        let signer = RequestSigner(version: .ossV4, region: "cn-hangzhou")
        try await SignatureVerificationTests().withSignedServer(signer) { signed in
            let ecs = Signed(
                client: signed.client,
                port: signed.port,
                signer: RequestSigner(version: .ossV4, region: "cn-hangzhou", service: "ecs")
            )
            let header = try await ecs.send(try ecs.request("GET", bucket: "bkt"))
            #expect(header.status == 403)
            #expect(header.element("Code") == "SignatureDoesNotMatch")
            #expect(header.element("Message")?.contains("incorrect product") == true, "\(header.text)")
            let query = try await signed.client.send("GET", try ecs.presigned("GET", bucket: "bkt", key: "k"))
            #expect(query.status == 403)
            #expect(query.element("Message")?.contains("incorrect product") == true, "\(query.text)")
            #expect(try await signed.send(try signed.request("GET", bucket: "bkt")).status == 200)
        }
    }

    @Test
    func hostMustBeSigned() async throws {
        try await withObject { signed, hand in
            let headers = hand.headers(
                "GET",
                "/bkt/k",
                payloadHash: "UNSIGNED-PAYLOAD",
                signed: ["x-amz-content-sha256", "x-amz-date"]
            )
            let header = try await signed.client.send("GET", "/bkt/k", headers: headers)
            #expect(header.status == 403)
            #expect(header.element("Code") == "AccessDenied")
            #expect(header.element("HeadersNotSigned") == "host")

            let query = try await signed.client.send("GET", hand.presigned("GET", "/bkt/k", signed: []))
            #expect(query.status == 403)
            #expect(query.element("HeadersNotSigned") == "host", "\(query.text)")
        }
    }

    @Test
    func authenticationMayAppearOnlyOnce() async throws {
        try await withObject { signed, _ in
            let request = try signed.request("GET", bucket: "bkt", key: "k")
            let authorization = try #require(request.headers.first { $0.name.lowercased() == "authorization" })
            var twice = request.headers.filter { $0.name.lowercased() != "host" }.map { ($0.name, $0.value) }
            twice.append(("Authorization", authorization.value + "0"))
            let duplicate = try await signed.client.send("GET", "/bkt/k", headers: twice)
            #expect(duplicate.status == 400)
            #expect(duplicate.element("Code") == "InvalidArgument")

            let url = try signed.presigned("GET", bucket: "bkt", key: "k")
            let both = try await signed.client.send("GET", url, headers: [("Authorization", authorization.value)])
            #expect(both.status == 400)
            #expect(both.element("Code") == "InvalidArgument")

            let repeated = try await signed.client.send("GET", url + "&X-Amz-Expires=604800")
            #expect(repeated.status == 400)
            #expect(repeated.element("ArgumentName") == "x-amz-expires")
        }
    }

    @Test(arguments: ["oss-v1", "obs", "aws-v2", "oss-v4"])
    func presignedParametersMayAppearOnlyOnceInEveryScheme(name: String) async throws {
        let (_, signer) = try #require(SignatureVerificationTests.schemes.first { $0.0 == name })
        let parameter = name == "oss-v4" ? "x-oss-expires" : "Expires"
        try await SignatureVerificationTests().withSignedServer(signer) { signed in
            let url = try signed.presigned("GET", bucket: "bkt", key: "k")
            let repeated = try await signed.client.send("GET", url + "&\(parameter)=9999999999")
            #expect(repeated.status == 400, "\(name): \(repeated.text)")
            #expect(repeated.element("ArgumentName") == parameter.lowercased())
            #expect(try await signed.send(try signed.request("GET", bucket: "bkt")).status == 200)
        }
    }

    @Test(arguments: ["STREAMING-AWS4-HMAC-SHA256-PAYLOAD", "STREAMING-UNSIGNED-PAYLOAD-TRAILER"])
    func awsChunkedBodiesAreNotImplemented(payloadHash: String) async throws {
        try await withObject { signed, hand in
            let framed = Array(
                "5;chunk-signature=\(String(repeating: "0", count: 64))\r\nhello\r\n0;chunk-signature=\(String(repeating: "0", count: 64))\r\n\r\n"
                    .utf8
            )
            let headers = hand.headers(
                "PUT",
                "/bkt/chunked",
                extra: [
                    HTTPHeader(name: "content-encoding", value: "aws-chunked"),
                    HTTPHeader(name: "x-amz-decoded-content-length", value: "5"),
                ],
                payloadHash: payloadHash,
                signed: [
                    "content-encoding", "host", "x-amz-content-sha256", "x-amz-date", "x-amz-decoded-content-length",
                ]
            )
            let put = try await signed.client.send("PUT", "/bkt/chunked", headers: headers, body: framed)
            #expect(put.status == 501, "\(put.text)")
            #expect(put.element("Code") == "NotImplemented")
            #expect(put.element("Header") == "x-amz-content-sha256")
            let get = try await signed.send(try signed.request("GET", bucket: "bkt", key: "chunked"))
            #expect(get.status == 404)
        }
    }

    @Test
    func payloadHashHeaderIsRequiredAndWellFormed() async throws {
        try await withObject { signed, hand in
            let missing = hand.headers("PUT", "/bkt/other", payloadHash: nil, signed: ["host", "x-amz-date"])
            let withoutHash = try await signed.client.send("PUT", "/bkt/other", headers: missing, body: Self.hello)
            #expect(withoutHash.status == 400)
            #expect(withoutHash.element("Code") == "InvalidRequest")
            #expect(withoutHash.element("Message") == "Missing required header for this request: x-amz-content-sha256")

            let malformed = hand.headers(
                "PUT",
                "/bkt/other",
                payloadHash: "not-a-hash",
                signed: ["host", "x-amz-content-sha256", "x-amz-date"]
            )
            let badHash = try await signed.client.send("PUT", "/bkt/other", headers: malformed, body: Self.hello)
            #expect(badHash.status == 400)
            #expect(badHash.element("Code") == "InvalidArgument")
            #expect(badHash.element("ArgumentName") == "x-amz-content-sha256")
            #expect(try await signed.send(try signed.request("GET", bucket: "bkt", key: "other")).status == 404)
        }
    }

    @Test
    func bodiesMustMatchTheirSignedHash() async throws {
        try await withObject { signed, hand in
            let helloHash = PayloadHash.sha256(of: Self.hello).value
            let signedFor = ["host", "x-amz-content-sha256", "x-amz-date"]
            let put = try await signed.client.send(
                "PUT",
                "/bkt/k",
                headers: hand.headers("PUT", "/bkt/k", payloadHash: helloHash, signed: signedFor),
                body: Array("HELLO".utf8)
            )
            #expect(put.status == 400)
            #expect(put.element("Code") == "XAmzContentSHA256Mismatch")

            // A DeleteObjects signed for a document naming another key cannot delete `k`.
            let signedDocument = Array("<Delete><Object><Key>nothing</Key></Object></Delete>".utf8)
            let swapped = Array("<Delete><Object><Key>k</Key></Object></Delete>".utf8)
            let delete = try await signed.client.send(
                "POST",
                "/bkt?delete=",
                headers: hand.headers(
                    "POST",
                    "/bkt",
                    query: [QueryParameter(name: "delete", value: "")],
                    payloadHash: PayloadHash.sha256(of: signedDocument).value,
                    signed: signedFor
                ),
                body: swapped
            )
            #expect(delete.status == 400, "\(delete.text)")
            #expect(delete.element("Code") == "XAmzContentSHA256Mismatch")
        }
    }
}
