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

/// A header changes what a request does only if its signature covers it: a signed (or presigned) PUT of one
/// key plus an unsigned copy-source, metadata or storage-class header must not copy another object or store
/// attributes the signer never saw, in every scheme, header-signed and presigned.
@Suite("Signature coverage")
struct SignatureCoverageTests {
    struct Scheme: CustomTestStringConvertible, Sendable {
        var name: String
        var signer: RequestSigner
        /// The prefix the scheme's dialect acts on (and its signature covers).
        var ownPrefix: String
        /// The error code of a request carrying an added header of that prefix.
        var refusal: String

        var testDescription: String { name }
    }

    static let schemes = [
        Scheme(
            name: "oss-v1",
            signer: .init(version: .ossV1, region: nil),
            ownPrefix: "x-oss-",
            refusal: "SignatureDoesNotMatch"
        ),
        Scheme(
            name: "oss-v4",
            signer: .init(version: .ossV4, region: "cn-hangzhou"),
            ownPrefix: "x-oss-",
            refusal: "SignatureDoesNotMatch"
        ),
        Scheme(
            name: "obs",
            signer: .init(version: .obs, region: nil),
            ownPrefix: "x-obs-",
            refusal: "SignatureDoesNotMatch"
        ),
        Scheme(
            name: "aws-v2",
            signer: .init(version: .awsV2, region: nil),
            ownPrefix: "x-amz-",
            refusal: "SignatureDoesNotMatch"
        ),
        Scheme(
            name: "sigv4",
            signer: .init(version: .sigV4, region: "us-east-1"),
            ownPrefix: "x-amz-",
            refusal: "AccessDenied"
        ),
    ]

    static let secret = Array("top secret".utf8)
    static let mine = Array("mine".utf8)

    /// Sends a PUT of `bkt/slot.bin` signed for exactly that, plus `extra` unsigned headers.
    static func putSlot(
        _ signed: SignatureVerificationTests.Signed,
        presigned: Bool,
        extra: [(String, String)]
    ) async throws -> TestResponse {
        if presigned {
            let url = try signed.presigned("PUT", bucket: "bkt", key: "slot.bin")
            return try await signed.client.send("PUT", url, headers: extra, body: mine)
        }
        return try await signed.send(
            try signed.request("PUT", bucket: "bkt", key: "slot.bin"),
            body: mine,
            replacing: extra
        )
    }

    @Test(arguments: schemes, [false, true])
    func unsignedHeadersDoNotWidenARequest(scheme: Scheme, presigned: Bool) async throws {
        let label = "\(scheme.name) \(presigned ? "query" : "header")"
        try await SignatureVerificationTests().withSignedServer(scheme.signer) { signed in
            let stored = try await signed.send(
                try signed.request("PUT", bucket: "bkt", key: "secret.txt"),
                body: Self.secret
            )
            #expect(stored.status == 200, "\(label): \(stored.text)")

            for prefix in ["x-amz-", "x-oss-", "x-obs-"] {
                let copy = try await Self.putSlot(
                    signed,
                    presigned: presigned,
                    extra: [(prefix + "copy-source", "/bkt/secret.txt")]
                )
                let read = try await signed.send(try signed.request("GET", bucket: "bkt", key: "slot.bin"))
                #expect(read.body != Self.secret, "\(label) \(prefix)copy-source copied the secret")
                if prefix == scheme.ownPrefix {
                    #expect(copy.status == 403, "\(label) \(prefix): \(copy.text)")
                    #expect(copy.element("Code") == scheme.refusal, "\(label) \(prefix): \(copy.text)")
                    if scheme.refusal == "AccessDenied" {
                        #expect(copy.element("HeadersNotSigned") == "x-amz-copy-source")
                    }
                } else {
                    // Another dialect's header means nothing to this one: the request is the PUT it was signed as.
                    #expect(copy.status == 200, "\(label) \(prefix): \(copy.text)")
                    #expect(!copy.text.contains("CopyObjectResult"))
                    #expect(read.body == Self.mine, "\(label) \(prefix)")
                }
            }

            let attributes = [
                [(scheme.ownPrefix + "meta-owner", "mallory")], [(scheme.ownPrefix + "storage-class", "ARCHIVE")],
                [(scheme.ownPrefix + "acl", "public-read")],
            ]
            for extra in attributes {
                let put = try await Self.putSlot(signed, presigned: presigned, extra: extra)
                #expect(put.status == 403, "\(label) \(extra): \(put.text)")
                #expect(put.element("Code") == scheme.refusal, "\(label) \(extra): \(put.text)")
            }
            let head = try await signed.send(try signed.request("HEAD", bucket: "bkt", key: "slot.bin"))
            #expect(head.header(scheme.ownPrefix + "meta-owner") == nil)

            let secret = try await signed.send(try signed.request("GET", bucket: "bkt", key: "secret.txt"))
            #expect(secret.status == 200, "\(label): \(secret.text)")
            #expect(secret.body == Self.secret)
        }
    }

    /// The same headers, signed, do what they say: the refusals above are about coverage, not the feature.
    @Test(arguments: schemes)
    func signedCopyAndMetadataAreHonoured(scheme: Scheme) async throws {
        try await SignatureVerificationTests().withSignedServer(scheme.signer) { signed in
            let stored = try await signed.send(
                try signed.request("PUT", bucket: "bkt", key: "secret.txt"),
                body: Self.secret
            )
            #expect(stored.status == 200)
            let copy = try await signed.send(
                try signed.request(
                    "PUT",
                    bucket: "bkt",
                    key: "copy.txt",
                    headers: [HTTPHeader(name: scheme.ownPrefix + "copy-source", value: "/bkt/secret.txt")]
                )
            )
            #expect(copy.status == 200, "\(scheme.name): \(copy.text)")
            let read = try await signed.send(try signed.request("GET", bucket: "bkt", key: "copy.txt"))
            #expect(read.body == Self.secret)

            let url = try signed.presigned(
                "PUT",
                bucket: "bkt",
                key: "meta.txt",
                headers: [HTTPHeader(name: scheme.ownPrefix + "meta-owner", value: "alice")]
            )
            let put = try await signed.client.send(
                "PUT",
                url,
                headers: [(scheme.ownPrefix + "meta-owner", "alice")],
                body: Self.mine
            )
            #expect(put.status == 200, "\(scheme.name): \(put.text)")
            let head = try await signed.send(try signed.request("HEAD", bucket: "bkt", key: "meta.txt"))
            #expect(head.header(scheme.ownPrefix + "meta-owner") == "alice")
        }
    }
}
