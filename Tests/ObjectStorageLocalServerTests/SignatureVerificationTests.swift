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

@Suite("Signature verification")
struct SignatureVerificationTests {
    static let good = LocalObjectServer.developmentCredentials
    static let wrongSecret = Credentials(accessKeyID: good.accessKeyID, secretAccessKey: "not-the-secret")
    static let unknownKey = Credentials(accessKeyID: "UNKNOWNKEY", secretAccessKey: good.secretAccessKey)

    static let schemes: [(String, RequestSigner)] = [
        ("oss-v1", RequestSigner(version: .ossV1, region: nil)),
        ("oss-v4", RequestSigner(version: .ossV4, region: "cn-hangzhou")),
        ("obs", RequestSigner(version: .obs, region: nil)),
        ("aws-v2", RequestSigner(version: .awsV2, region: nil)),
        ("sigv4", RequestSigner(version: .sigV4, region: "us-east-1")),
    ]

    struct Signed {
        var client: TestClient
        var port: Int
        var signer: RequestSigner

        func request(
            _ method: String,
            bucket: String?,
            key: String? = nil,
            query: [QueryParameter] = [],
            headers: [HTTPHeader] = [],
            credentials: Credentials = good,
            at date: Date = Date()
        ) throws -> SignedRequest {
            let request = SigningRequest(
                method: method,
                endpoint: Endpoint(scheme: "http", host: "127.0.0.1", port: port),
                addressing: .path,
                bucket: bucket,
                key: key,
                query: query,
                headers: headers
            )
            let payload: PayloadHash = signer.version == .sigV4 ? .unsigned : .unsigned
            return try signer.sign(request, credentials: credentials, at: date, payload: payload)
        }

        func send(
            _ signed: SignedRequest,
            method: String? = nil,
            path: String? = nil,
            body: [UInt8] = [],
            replacing: [(String, String)] = []
        ) async throws -> TestResponse {
            var headers = signed.headers.filter { $0.name.lowercased() != "host" }.map { ($0.name, $0.value) }
            for (name, value) in replacing {
                headers.removeAll { $0.0.lowercased() == name.lowercased() }
                headers.append((name, value))
            }
            let url = path ?? String(signed.url.dropFirst("http://127.0.0.1:\(port)".count))
            return try await client.send(method ?? signed.method, url, headers: headers, body: body)
        }

        func presigned(
            _ method: String,
            bucket: String,
            key: String,
            query: [QueryParameter] = [],
            headers: [HTTPHeader] = [],
            credentials: Credentials = good,
            expires: Duration = .seconds(300),
            at date: Date = Date()
        )
            throws -> String
        {
            let request = SigningRequest(
                method: method,
                endpoint: Endpoint(scheme: "http", host: "127.0.0.1", port: port),
                addressing: .path,
                bucket: bucket,
                key: key,
                query: query,
                headers: headers
            )
            let url = try signer.presign(request, credentials: credentials, expires: expires, at: date).url
            return String(url.dropFirst("http://127.0.0.1:\(port)".count))
        }
    }

    func withSignedServer(_ signer: RequestSigner, _ body: (Signed) async throws -> Void) async throws {
        try await withServer(.init(storage: .memory)) { client, server in
            let signed = Signed(client: client, port: try #require(server.port), signer: signer)
            let create = try await signed.send(try signed.request("PUT", bucket: "bkt"))
            #expect(create.status == 200, "\(create.text)")
            try await body(signed)
        }
    }

    @Test(arguments: schemes)
    func acceptsCorrectlySignedRequests(name: String, signer: RequestSigner) async throws {
        try await withSignedServer(signer) { signed in
            let put = try await signed.send(
                try signed.request(
                    "PUT",
                    bucket: "bkt",
                    key: "dir/a b+c.txt",
                    headers: [HTTPHeader(name: "Content-Type", value: "text/plain")]
                ),
                body: Array("hello".utf8)
            )
            #expect(put.status == 200, "\(name): \(put.text)")
            let get = try await signed.send(try signed.request("GET", bucket: "bkt", key: "dir/a b+c.txt"))
            #expect(get.status == 200, "\(name): \(get.text)")
            #expect(get.text == "hello")
            let list = try await signed.send(
                try signed.request("GET", bucket: "bkt", query: [QueryParameter(name: "prefix", value: "dir/")])
            )
            #expect(list.status == 200, "\(name): \(list.text)")
            let presigned = try await signed.client.send(
                "GET",
                try signed.presigned("GET", bucket: "bkt", key: "dir/a b+c.txt")
            )
            #expect(presigned.status == 200, "\(name): \(presigned.text)")
            #expect(presigned.text == "hello")
            let head = try await signed.client.send(
                "HEAD",
                try signed.presigned("HEAD", bucket: "bkt", key: "dir/a b+c.txt")
            )
            #expect(head.status == 200)
        }
    }

    @Test(arguments: schemes)
    func rejectsWrongSecretWithTheExpectedStringToSign(name: String, signer: RequestSigner) async throws {
        try await withSignedServer(signer) { signed in
            let request = try signed.request("GET", bucket: "bkt", key: "k", credentials: Self.wrongSecret)
            let response = try await signed.send(request)
            #expect(response.status == 403)
            #expect(response.element("Code") == "SignatureDoesNotMatch")
            let stringToSign = try #require(response.element("StringToSign"))
            #expect(stringToSign.replacingOccurrences(of: "&amp;", with: "&") == request.stringToSign)
        }
    }

    @Test(arguments: schemes)
    func rejectsUnknownKeyAndTampering(name: String, signer: RequestSigner) async throws {
        try await withSignedServer(signer) { signed in
            let unknown = try await signed.send(
                try signed.request("GET", bucket: "bkt", key: "k", credentials: Self.unknownKey)
            )
            #expect(unknown.status == 403)
            #expect(unknown.element("Code") == "InvalidAccessKeyId")
            let tamperedPath = try await signed.send(
                try signed.request("GET", bucket: "bkt", key: "k"),
                path: "/bkt/other"
            )
            #expect(tamperedPath.element("Code") == "SignatureDoesNotMatch")
            let tamperedQuery = try await signed.send(
                try signed.request(
                    "GET",
                    bucket: "bkt",
                    key: "k",
                    query: [QueryParameter(name: "uploadId", value: "A")]
                ),
                path: "/bkt/k?uploadId=B"
            )
            #expect(tamperedQuery.element("Code") == "SignatureDoesNotMatch")
            let metaName = name.hasPrefix("oss") ? "x-oss-meta-a" : name == "obs" ? "x-obs-meta-a" : "x-amz-meta-a"
            let tamperedHeader = try await signed.send(
                try signed.request("PUT", bucket: "bkt", key: "k", headers: [HTTPHeader(name: metaName, value: "1")]),
                replacing: [(metaName, "2")]
            )
            #expect(tamperedHeader.element("Code") == "SignatureDoesNotMatch")
            let wrongMethod = try await signed.client.send(
                "DELETE",
                try signed.presigned("GET", bucket: "bkt", key: "k")
            )
            #expect(wrongMethod.status == 403)
            #expect(wrongMethod.element("Code") == "SignatureDoesNotMatch")
        }
    }

    @Test(arguments: schemes)
    func rejectsExpiredURLsAndSkewedClocks(name: String, signer: RequestSigner) async throws {
        try await withSignedServer(signer) { signed in
            let past = Date().addingTimeInterval(-3600)
            let expired = try await signed.client.send(
                "GET",
                try signed.presigned("GET", bucket: "bkt", key: "k", expires: .seconds(60), at: past)
            )
            #expect(expired.status == 403)
            #expect(expired.element("Code") == "AccessDenied")
            #expect(expired.element("Message") == "Request has expired")
            let skewed = try await signed.send(try signed.request("GET", bucket: "bkt", key: "k", at: past))
            #expect(skewed.status == 403)
            #expect(skewed.element("Code") == "RequestTimeTooSkewed")
        }
    }

    static let otherRegions: [(String, RequestSigner, String, String)] = [
        (
            "oss-v4", RequestSigner(version: .ossV4, region: "cn-beijing"), "SignatureDoesNotMatch",
            "SignatureDoesNotMatch"
        ),
        (
            "sigv4", RequestSigner(version: .sigV4, region: "eu-west-1"), "AuthorizationHeaderMalformed",
            "AuthorizationQueryParametersError"
        ),
    ]

    @Test(arguments: otherRegions)
    func rejectsAScopeForAnotherRegion(
        name: String,
        signer: RequestSigner,
        headerCode: String,
        queryCode: String
    )
        async throws
    {
        try await withServer(.init(storage: .memory)) { client, server in
            let signed = Signed(client: client, port: try #require(server.port), signer: signer)
            let header = try await signed.send(try signed.request("GET", bucket: "bkt", key: "k"))
            #expect(header.element("Code") == headerCode)
            let expected = name == "oss-v4" ? "cn-hangzhou" : "us-east-1"
            #expect(header.element("Region") == expected)
            #expect(header.element("Message")?.contains("expecting &apos;\(expected)&apos;") == true)
            let query = try await client.send("GET", try signed.presigned("GET", bucket: "bkt", key: "k"))
            #expect(query.element("Code") == queryCode)
        }
    }

    @Test(arguments: schemes.filter { $0.0 == "oss-v4" || $0.0 == "sigv4" })
    func rejectsPresignedURLsDatedInTheFuture(name: String, signer: RequestSigner) async throws {
        try await withSignedServer(signer) { signed in
            let future = Date().addingTimeInterval(3600)
            let early = try await signed.client.send(
                "GET",
                try signed.presigned("GET", bucket: "bkt", key: "k", expires: .seconds(7200), at: future)
            )
            #expect(early.status == 403)
            #expect(early.element("Code") == "AccessDenied")
            #expect(early.element("Message") == "Request is not valid yet")
        }
    }
}
