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

@Suite("Presigning and request shape")
struct PresignTests {
    static let credentials = Credentials(
        accessKeyID: "AKID",
        secretAccessKey: "TopSecretValue",
        securityToken: "tok+/="
    )
    static let date = Date(timeIntervalSince1970: 1_709_611_506)

    static func request(
        _ endpoint: Endpoint,
        method: String = "GET",
        query: [QueryParameter] = [],
        headers: [HTTPHeader] = []
    )
        -> SigningRequest
    {
        SigningRequest(
            method: method,
            endpoint: endpoint,
            bucket: "examplebucket",
            key: "a/b.txt",
            query: query,
            headers: headers
        )
    }

    @Test("OSS V4 refuses an expiry outside 1 s...7 days before signing", arguments: [0, 604_801, 31_536_000])
    func ossV4RefusesExpiryOutOfRange(_ seconds: Int) {
        let signer = RequestSigner(version: .ossV4, region: "cn-hangzhou")
        #expect(throws: SigningError.self) {
            try signer.presign(
                Self.request(.oss(region: "cn-hangzhou")),
                credentials: Self.credentials,
                expires: .seconds(seconds),
                at: Self.date
            )
        }
        do {
            _ = try signer.presign(
                Self.request(.oss(region: "cn-hangzhou")),
                credentials: Self.credentials,
                expires: .seconds(seconds),
                at: Self.date
            )
        } catch {
            #expect(error.code == .invalidExpiry)
            #expect(error.message.contains("\(seconds)"))
            #expect(!error.message.contains("TopSecretValue"))
            #expect(!error.message.contains("tok+/="))
        }
    }

    @Test("OSS V4 and SigV4 accept 1 s and 604800 s")
    func v4ExpiryBounds() throws {
        for version in [SignatureVersion.ossV4, .sigV4] {
            let signer = RequestSigner(version: version, region: "cn-hangzhou")
            for seconds in [1, 604_800] {
                let url = try signer.presign(
                    Self.request(.oss(region: "cn-hangzhou")),
                    credentials: Self.credentials,
                    expires: .seconds(seconds),
                    at: Self.date
                )
                #expect(url.expiration == Self.date.addingTimeInterval(TimeInterval(seconds)))
            }
            #expect(throws: SigningError.self) {
                try signer.presign(
                    Self.request(.oss(region: "cn-hangzhou")),
                    credentials: Self.credentials,
                    expires: .seconds(604_801),
                    at: Self.date
                )
            }
        }
    }

    @Test("Absolute-expiry schemes refuse 0 s and accept a year")
    func absoluteExpiry() throws {
        for version in [SignatureVersion.ossV1, .obs, .awsV2] {
            let signer = RequestSigner(version: version, region: nil)
            #expect(throws: SigningError.self) {
                try signer.presign(
                    Self.request(.obs(region: "cn-north-4")),
                    credentials: Self.credentials,
                    expires: .zero,
                    at: Self.date
                )
            }
            let url = try signer.presign(
                Self.request(.obs(region: "cn-north-4")),
                credentials: Self.credentials,
                expires: .seconds(31_536_000),
                at: Self.date
            )
            #expect(url.url.contains("Expires=1741147506"))
        }
    }

    @Test("V4 schemes need a region")
    func missingRegion() {
        for version in [SignatureVersion.ossV4, .sigV4] {
            let signer = RequestSigner(version: version, region: nil)
            do {
                _ = try signer.sign(
                    Self.request(.s3(region: "us-east-1")),
                    credentials: Self.credentials,
                    at: Self.date
                )
                Issue.record("expected missingRegion")
            } catch {
                #expect(error.code == .missingRegion)
            }
        }
    }

    @Test(
        "Presign carries the STS token in the scheme's query parameter",
        arguments: [
            (SignatureVersion.ossV1, "security-token"), (.ossV4, "x-oss-security-token"),
            (.obs, "x-obs-security-token"),
            (.awsV2, "x-amz-security-token"), (.sigV4, "X-Amz-Security-Token"),
        ]
    )
    func tokenInQuery(_ version: SignatureVersion, _ name: String) throws {
        let signer = RequestSigner(version: version, region: "cn-hangzhou")
        let presigned = try signer.presign(
            Self.request(.oss(region: "cn-hangzhou")),
            credentials: Self.credentials,
            expires: .seconds(60),
            at: Self.date
        )
        #expect(presigned.url.contains("\(name)=tok%2B%2F%3D"))
    }

    @Test(
        "Presign signs response-* overrides, versionId and uploadId/partNumber for any method",
        arguments: [SignatureVersion.ossV1, .ossV4, .obs, .awsV2, .sigV4]
    )
    func signsQueryParameters(_ version: SignatureVersion) throws {
        let signer = RequestSigner(version: version, region: "cn-hangzhou")
        let query = [
            QueryParameter(name: "response-content-disposition", value: "attachment; filename=\"a b.txt\""),
            QueryParameter(name: "versionId", value: "v1"),
            QueryParameter(name: "partNumber", value: "7"),
            QueryParameter(name: "uploadId", value: "u+/="),
        ]
        for method in ["GET", "HEAD", "PUT", "POST", "DELETE"] {
            let base = try signer.presign(
                Self.request(.oss(region: "cn-hangzhou"), method: method),
                credentials: Self.credentials,
                expires: .seconds(60),
                at: Self.date
            )
            let withQuery = try signer.presign(
                Self.request(.oss(region: "cn-hangzhou"), method: method, query: query),
                credentials: Self.credentials,
                expires: .seconds(60),
                at: Self.date
            )
            #expect(withQuery.stringToSign != base.stringToSign)
            #expect(withQuery.url.contains("response-content-disposition=attachment%3B%20filename%3D%22a%20b.txt%22"))
            #expect(withQuery.url.contains("uploadId=u%2B%2F%3D"))
            #expect(withQuery.canonicalRequest.contains("uploadId"))
            #expect(withQuery.canonicalRequest.contains(method))
        }
    }

    @Test(
        "Presign returns the headers the caller must send",
        arguments: [SignatureVersion.ossV1, .ossV4, .obs, .awsV2, .sigV4]
    )
    func signedHeaders(_ version: SignatureVersion) throws {
        let signer = RequestSigner(version: version, region: "cn-hangzhou")
        let headers = [
            HTTPHeader(name: "Content-Type", value: "text/plain"), HTTPHeader(name: "User-Agent", value: "x"),
        ]
        let presigned = try signer.presign(
            Self.request(.oss(region: "cn-hangzhou"), method: "PUT", headers: headers),
            credentials: Self.credentials,
            expires: .seconds(60),
            at: Self.date
        )
        #expect(presigned.signedHeaders == ["Content-Type": "text/plain"])
    }

    @Test("Header signing returns every header to send")
    func headerSigningHeaders() throws {
        let signer = RequestSigner(version: .ossV4, region: "cn-hangzhou", additionalHeaders: ["host"])
        let signed = try signer.sign(
            Self.request(.oss(region: "cn-hangzhou"), headers: [HTTPHeader(name: "host", value: "spoofed")]),
            credentials: Self.credentials,
            at: Self.date
        )
        let names = signed.headers.map { $0.name.lowercased() }
        #expect(
            Set(names) == [
                "host", "x-oss-date", "date", "x-oss-content-sha256", "x-oss-security-token", "authorization",
            ]
        )
        #expect(signed.headers.first(named: "host") == "examplebucket.oss-cn-hangzhou.aliyuncs.com")
        #expect(signed.headers.first(named: "authorization")?.contains("AdditionalHeaders=host,") == true)
        #expect(signed.url == "https://examplebucket.oss-cn-hangzhou.aliyuncs.com/a/b.txt")
    }

    @Test("Endpoints with ports default to path-style and sign the port in Host")
    func endpointWithPort() throws {
        let endpoint = try Endpoint(url: "http://127.0.0.1:9000")
        #expect(endpoint == Endpoint(scheme: "http", host: "127.0.0.1", port: 9000))
        #expect(endpoint.isIPAddressOrLocalhost)
        let request = Self.request(endpoint)
        #expect(request.addressing == .path)
        let signer = RequestSigner(version: .sigV4, region: "us-east-1")
        let presigned = try signer.presign(request, credentials: Self.credentials, expires: .seconds(60), at: Self.date)
        #expect(presigned.url.hasPrefix("http://127.0.0.1:9000/examplebucket/a/b.txt?"))
        #expect(presigned.canonicalRequest.contains("\nhost:127.0.0.1:9000\n"))
    }

    @Test(
        "Endpoint parsing rejects paths, queries, user info and bad ports",
        arguments: [
            "oss-cn-hangzhou.aliyuncs.com", "ftp://host", "https://host/path", "https://host?x=1", "https://u:p@host",
            "https://host:0", "https://host:70000", "https://host:12a", "https://", "https://host#f",
        ]
    )
    func endpointRejects(_ text: String) {
        #expect(throws: SigningError.self) { try Endpoint(url: text) }
    }

    @Test("Endpoint parsing accepts the documented forms")
    func endpointAccepts() throws {
        #expect(try Endpoint(url: "https://oss-cn-hangzhou.aliyuncs.com") == .oss(region: "cn-hangzhou"))
        #expect(try Endpoint(url: "https://obs.cn-north-4.myhuaweicloud.com/") == .obs(region: "cn-north-4"))
        #expect(try Endpoint(url: "HTTPS://s3.us-east-1.amazonaws.com") == .s3(region: "us-east-1"))
        #expect(try Endpoint(url: "http://[::1]:9000").isIPAddressOrLocalhost)
        #expect(try Endpoint(url: "http://localhost:9000").isIPAddressOrLocalhost)
        #expect(try !Endpoint(url: "https://oss-cn-hangzhou.aliyuncs.com").isIPAddressOrLocalhost)
        #expect(try Endpoint(url: "https://host:443").hostHeader(bucket: nil, addressing: .path) == "host")
    }

    @Test("Requests that cannot be signed are refused")
    func invalidRequests() {
        let signer = RequestSigner(version: .ossV1, region: nil)
        var keyWithoutBucket = Self.request(.oss(region: "cn-hangzhou"))
        keyWithoutBucket.bucket = nil
        var headerInjection = Self.request(.oss(region: "cn-hangzhou"))
        headerInjection.headers = [HTTPHeader(name: "x-oss-meta-a", value: "1\r\nx: y")]
        var badMethod = Self.request(.oss(region: "cn-hangzhou"))
        badMethod.method = "GE T"
        for request in [keyWithoutBucket, headerInjection, badMethod] {
            do {
                _ = try signer.sign(request, credentials: Self.credentials, at: Self.date)
                Issue.record("expected invalidRequest")
            } catch {
                #expect(error.code == .invalidRequest)
            }
        }
    }

    @Test("Signature versions and providers by CLI name")
    func names() {
        #expect(SignatureVersion(cliName: "v1") == .ossV1)
        #expect(SignatureVersion(cliName: "V4") == .ossV4)
        #expect(SignatureVersion(cliName: "obs") == .obs)
        #expect(SignatureVersion(cliName: "v2") == .awsV2)
        #expect(SignatureVersion(cliName: "sigv4") == .sigV4)
        #expect(SignatureVersion(cliName: "v3") == nil)
        #expect(StorageVendor(scheme: "oss")?.defaultSignatureVersion == .ossV4)
        #expect(StorageVendor(scheme: "obs")?.defaultSignatureVersion == .obs)
        #expect(StorageVendor(scheme: "s3")?.defaultSignatureVersion == .sigV4)
    }

    @Test("Presigning is deterministic")
    func deterministic() throws {
        let signer = RequestSigner(version: .ossV4, region: "cn-hangzhou")
        let first = try signer.presign(
            Self.request(.oss(region: "cn-hangzhou")),
            credentials: Self.credentials,
            expires: .seconds(60),
            at: Self.date
        )
        let second = try signer.presign(
            Self.request(.oss(region: "cn-hangzhou")),
            credentials: Self.credentials,
            expires: .seconds(60),
            at: Self.date
        )
        #expect(first.url == second.url)
    }
}
