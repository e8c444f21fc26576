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

/// One object key of the canonicalization matrix, with its hand-derived RFC 3986 encoding (`/` kept).
struct KeyCase: Sendable, CustomTestStringConvertible {
    var name: String
    var key: String
    var encoded: String

    var testDescription: String { self.name }

    static let all: [KeyCase] = [
        KeyCase(name: "plain", key: "a/b/c.txt", encoded: "a/b/c.txt"),
        KeyCase(name: "plus", key: "a+b+c.txt", encoded: "a%2Bb%2Bc.txt"),
        KeyCase(name: "space", key: "folder/hello world.txt", encoded: "folder/hello%20world.txt"),
        KeyCase(name: "percent", key: "100%/%2F%25.txt", encoded: "100%25/%252F%2525.txt"),
        KeyCase(name: "tilde", key: "~user/file~1.txt", encoded: "~user/file~1.txt"),
        KeyCase(name: "leading slash", key: "/leading", encoded: "/leading"),
        KeyCase(name: "double slash", key: "a//b///c", encoded: "a//b///c"),
        KeyCase(name: "trailing slash", key: "dir/", encoded: "dir/"),
        KeyCase(name: "dot segments", key: "a/./b/../c.txt", encoded: "a/./b/../c.txt"),
        KeyCase(name: "NFC", key: "caf\u{E9}", encoded: "caf%C3%A9"),
        KeyCase(name: "NFD", key: "cafe\u{301}", encoded: "cafe%CC%81"),
        KeyCase(name: "query chars", key: "q?a=1&b#frag", encoded: "q%3Fa%3D1%26b%23frag"),
        KeyCase(name: "sub-delims", key: "!$'()*,;:@[]", encoded: "%21%24%27%28%29%2A%2C%3B%3A%40%5B%5D"),
        KeyCase(name: "unsafe ASCII", key: "\"<>\\^`{|} ", encoded: "%22%3C%3E%5C%5E%60%7B%7C%7D%20"),
        KeyCase(name: "chinese", key: "中文/文件.txt", encoded: "%E4%B8%AD%E6%96%87/%E6%96%87%E4%BB%B6.txt"),
        KeyCase(name: "emoji", key: "😀.png", encoded: "%F0%9F%98%80.png"),
        KeyCase(
            name: "1 KB",
            key: String(repeating: "seg-0123/", count: 113) + "end",
            encoded: String(repeating: "seg-0123/", count: 113) + "end"
        ),
    ]
}

@Suite("Canonicalization")
struct CanonicalizationTests {
    static let credentials = Credentials(accessKeyID: "AKID", secretAccessKey: "secret")
    static let date = Date(timeIntervalSince1970: 1_709_611_506)

    static func request(
        _ key: String,
        endpoint: Endpoint = .oss(region: "cn-hangzhou"),
        method: String = "GET"
    )
        -> SigningRequest
    {
        SigningRequest(
            method: method,
            endpoint: endpoint,
            addressing: .virtualHosted,
            bucket: "examplebucket",
            key: key
        )
    }

    static func urlPath(_ url: String) -> String {
        let afterScheme = url[url.range(of: "://")!.upperBound...]
        let path = afterScheme[afterScheme.firstIndex(of: "/")!...]
        return String(path.prefix { $0 != "?" })
    }

    @Test("Percent-encoding keeps only unreserved characters (and / in paths)", arguments: KeyCase.all)
    func percentEncoding(_ keyCase: KeyCase) {
        #expect(PercentEncoding.encode(keyCase.key, style: .path) == keyCase.encoded)
        #expect(PercentEncoding.decode(keyCase.encoded) == keyCase.key)
        let component = PercentEncoding.encode(keyCase.key, style: .component)
        #expect(component == keyCase.encoded.replacingOccurrences(of: "/", with: "%2F"))
    }

    @Test("OSS V1 signs the raw key; the URL carries it encoded", arguments: KeyCase.all)
    func ossV1(_ keyCase: KeyCase) throws {
        let signer = RequestSigner(version: .ossV1, region: nil)
        let presigned = try signer.presign(
            Self.request(keyCase.key),
            credentials: Self.credentials,
            expires: .seconds(60),
            at: Self.date
        )
        #expect(presigned.stringToSign == "GET\n\n\n1709611566\n/examplebucket/\(keyCase.key)")
        #expect(Self.urlPath(presigned.url) == "/\(keyCase.encoded)")
        let signed = try signer.sign(Self.request(keyCase.key), credentials: Self.credentials, at: Self.date)
        #expect(signed.stringToSign == "GET\n\n\nTue, 05 Mar 2024 04:05:06 GMT\n/examplebucket/\(keyCase.key)")
    }

    @Test("OBS and AWS V2 sign the encoded key", arguments: KeyCase.all)
    func obs(_ keyCase: KeyCase) throws {
        for version in [SignatureVersion.obs, .awsV2] {
            let signer = RequestSigner(version: version, region: nil)
            let presigned = try signer.presign(
                Self.request(keyCase.key, endpoint: .obs(region: "cn-north-4")),
                credentials: Self.credentials,
                expires: .seconds(60),
                at: Self.date
            )
            #expect(presigned.stringToSign == "GET\n\n\n1709611566\n/examplebucket/\(keyCase.encoded)")
            #expect(Self.urlPath(presigned.url) == "/\(keyCase.encoded)")
        }
    }

    @Test("OSS V4 canonical URI is /bucket/encoded-key whatever the addressing", arguments: KeyCase.all)
    func ossV4(_ keyCase: KeyCase) throws {
        let signer = RequestSigner(version: .ossV4, region: "cn-hangzhou")
        for addressing in [AddressingStyle.virtualHosted, .path] {
            var request = Self.request(keyCase.key)
            request.addressing = addressing
            let signed = try signer.sign(request, credentials: Self.credentials, at: Self.date)
            let lines = signed.canonicalRequest.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines[1] == "/examplebucket/\(keyCase.encoded)")
            let expectedPath = addressing == .path ? "/examplebucket/\(keyCase.encoded)" : "/\(keyCase.encoded)"
            #expect(Self.urlPath(signed.url) == expectedPath)
        }
    }

    @Test("SigV4 canonical URI is the URL path, encoded once", arguments: KeyCase.all)
    func sigV4(_ keyCase: KeyCase) throws {
        let signer = RequestSigner(version: .sigV4, region: "us-east-1")
        for addressing in [AddressingStyle.virtualHosted, .path] {
            var request = Self.request(keyCase.key, endpoint: .s3(region: "us-east-1"))
            request.addressing = addressing
            let presigned = try signer.presign(
                request,
                credentials: Self.credentials,
                expires: .seconds(60),
                at: Self.date
            )
            let lines = presigned.canonicalRequest.split(separator: "\n", omittingEmptySubsequences: false)
            let expectedPath = addressing == .path ? "/examplebucket/\(keyCase.encoded)" : "/\(keyCase.encoded)"
            #expect(lines[1] == expectedPath)
            #expect(Self.urlPath(presigned.url) == expectedPath)
        }
    }

    @Test("NFC and NFD spellings are different keys with different signatures")
    func unicodeIsNotNormalized() throws {
        for version in [SignatureVersion.ossV1, .ossV4, .obs, .awsV2, .sigV4] {
            let signer = RequestSigner(version: version, region: "cn-hangzhou")
            let nfc = try signer.presign(
                Self.request("caf\u{E9}"),
                credentials: Self.credentials,
                expires: .seconds(60),
                at: Self.date
            )
            let nfd = try signer.presign(
                Self.request("cafe\u{301}"),
                credentials: Self.credentials,
                expires: .seconds(60),
                at: Self.date
            )
            #expect(nfc.url != nfd.url, "\(version)")
        }
    }

    @Test("Bucket-level and service-level resources")
    func bucketLevel() {
        #expect(
            OSSV1Signature.canonicalizedResource(
                bucket: "b",
                key: nil,
                query: [QueryParameter(name: "acl", value: nil)]
            ) == "/b/?acl"
        )
        #expect(OSSV1Signature.canonicalizedResource(bucket: nil, key: nil, query: []) == "/")
        #expect(V4Signature.ossV4.canonicalURI(path: "/", bucket: "b", key: nil) == "/b/")
        #expect(V4Signature.ossV4.canonicalURI(path: "/", bucket: nil, key: nil) == "/")
        #expect(OBSSignature.canonicalizedResource(flavor: .obs, bucket: "b", key: nil, query: []) == "/b/")
    }

    @Test("OSS V1 sub-resources: whitelisted, sorted, RAW values; others ignored")
    func ossV1Subresources() {
        let query = [
            QueryParameter(name: "versionId", value: "v+1/="),
            QueryParameter(name: "response-content-disposition", value: "attachment; filename=\"报告 a+b&c=d%20.txt\""),
            QueryParameter(name: "foo", value: "bar"),
            QueryParameter(name: "acl", value: nil),
            QueryParameter(name: "uploads", value: ""),
        ]
        #expect(
            OSSV1Signature.canonicalizedResource(bucket: "b", key: "k", query: query)
                == "/b/k?acl&response-content-disposition=attachment; filename=\"报告 a+b&c=d%20.txt\"&uploads&versionId=v+1/="
        )
    }

    @Test("Decision: OSS V1 signs x-oss-process (oss2), unlike alibabacloud-oss-v2 1.4.1")
    func ossV1SignsXOSSProcess() {
        let query = [QueryParameter(name: "x-oss-process", value: "image/resize,w_100")]
        #expect(
            OSSV1Signature.canonicalizedResource(bucket: "b", key: "k.jpg", query: query)
                == "/b/k.jpg?x-oss-process=image/resize,w_100"
        )
    }

    @Test("OBS sub-resources: names compared lowercased, x-obs-* accepted, empty value keeps '='")
    func obsSubresources() {
        let query = [
            QueryParameter(name: "uploadId", value: "a+/="),
            QueryParameter(name: "partNumber", value: "7"),
            QueryParameter(name: "x-obs-security-token", value: "t+/="),
            QueryParameter(name: "x-amz-security-token", value: "ignored"),
            QueryParameter(name: "foo", value: "bar"),
        ]
        #expect(
            OBSSignature.canonicalizedResource(flavor: .obs, bucket: "b", key: "k", query: query)
                == "/b/k?partNumber=7&uploadId=a+/=&x-obs-security-token=t+/="
        )
        #expect(
            OBSSignature.canonicalizedResource(flavor: .awsV2, bucket: "b", key: "k", query: query)
                == "/b/k?partNumber=7&uploadId=a+/=&x-amz-security-token=ignored"
        )
    }

    @Test("OSS V4 canonical query: every parameter, byte-wise order, bare name when empty")
    func ossV4Query() {
        let query = [
            QueryParameter(name: "alpha", value: ""),
            QueryParameter(name: "Zeta", value: "z z"),
            QueryParameter(name: "+param", value: "a/b"),
            QueryParameter(name: "acl", value: nil),
        ]
        #expect(V4Signature.ossV4.canonicalQuery(query) == "%2Bparam=a%2Fb&Zeta=z%20z&acl&alpha")
    }

    @Test("SigV4 canonical query: every parameter, byte-wise order, 'name=' when empty")
    func sigV4Query() {
        let query = [
            QueryParameter(name: "uploads", value: nil),
            QueryParameter(name: "Zeta", value: "z z"),
            QueryParameter(name: "alpha", value: ""),
        ]
        #expect(V4Signature.sigV4.canonicalQuery(query) == "Zeta=z%20z&alpha=&uploads=")
    }

    @Test("Decision: OSS V4 additional headers are lowercased, filtered and fully sorted")
    func ossV4AdditionalHeadersFullySorted() {
        let headers = [
            HTTPHeader(name: "Zeta", value: "1"), HTTPHeader(name: "Host", value: "h"),
            HTTPHeader(name: "Hat", value: "2"), HTTPHeader(name: "Alpha", value: "3"),
            HTTPHeader(name: "Content-Type", value: "text/plain"), HTTPHeader(name: "x-oss-meta-a", value: "4"),
        ]
        let requested = ["zeta", "HOST", "hat", "alpha", "content-type", "x-oss-meta-a", "absent"]
        #expect(
            V4Signature.ossV4.listedHeaders(for: headers, additional: requested) == ["alpha", "hat", "host", "zeta"]
        )
    }

    @Test("Header values: OSS keeps inner whitespace, SigV4 squeezes it")
    func headerWhitespace() throws {
        let headers = [HTTPHeader(name: "x-oss-meta-author", value: "  Alice  Smith ")]
        let v1 = OSSV1Signature.stringToSign(method: "PUT", headers: headers, bucket: "b", key: "k", query: [])
        #expect(v1.contains("x-oss-meta-author:Alice  Smith\n"))
        let v4 = V4Signature.sigV4.canonicalRequest(
            method: "PUT",
            path: "/k",
            bucket: nil,
            key: nil,
            query: [],
            headers: [HTTPHeader(name: "X-Amz-Meta-Author", value: "  Alice  Smith ")],
            listedHeaders: ["x-amz-meta-author"],
            payloadHash: "UNSIGNED-PAYLOAD"
        )
        #expect(v4 == "PUT\n/k\n\nx-amz-meta-author:Alice Smith\n\nx-amz-meta-author\nUNSIGNED-PAYLOAD")
    }

    @Test("OSS V1 takes the date line from x-oss-date when present")
    func ossV1XOSSDate() {
        let headers = [
            HTTPHeader(name: "Date", value: "Tue, 05 Mar 2024 04:05:06 GMT"),
            HTTPHeader(name: "x-oss-date", value: "Wed, 28 Dec 2022 10:27:41 GMT"),
        ]
        let text = OSSV1Signature.stringToSign(method: "GET", headers: headers, bucket: "b", key: "k", query: [])
        #expect(text == "GET\n\n\nWed, 28 Dec 2022 10:27:41 GMT\nx-oss-date:Wed, 28 Dec 2022 10:27:41 GMT\n/b/k")
    }

    @Test("OBS leaves the date line empty when x-obs-date is present")
    func obsDateHeader() {
        let headers = [
            HTTPHeader(name: "Date", value: "Tue, 05 Mar 2024 04:05:06 GMT"),
            HTTPHeader(name: "x-obs-date", value: "Tue, 05 Mar 2024 04:05:06 GMT"),
        ]
        let text = OBSSignature.stringToSign(
            flavor: .obs,
            method: "GET",
            headers: headers,
            bucket: "b",
            key: "k",
            query: []
        )
        #expect(text == "GET\n\n\n\nx-obs-date:Tue, 05 Mar 2024 04:05:06 GMT\n/b/k")
    }

    @Test(
        "Dates are formatted by hand",
        arguments: [
            (Int64(1_709_611_506), "20240305T040506Z", "20240305", "Tue, 05 Mar 2024 04:05:06 GMT"),
            (1_704_067_199, "20231231T235959Z", "20231231", "Sun, 31 Dec 2023 23:59:59 GMT"),
            (1_709_208_000, "20240229T120000Z", "20240229", "Thu, 29 Feb 2024 12:00:00 GMT"),
            (0, "19700101T000000Z", "19700101", "Thu, 01 Jan 1970 00:00:00 GMT"),
            (951_782_400, "20000229T000000Z", "20000229", "Tue, 29 Feb 2000 00:00:00 GMT"),
        ]
    )
    func dates(_ seconds: Int64, _ iso: String, _ stamp: String, _ http: String) {
        let timestamp = SigningTimestamp(secondsSince1970: seconds)
        #expect(timestamp.iso8601Basic == iso)
        #expect(timestamp.dateStamp == stamp)
        #expect(timestamp.httpDate == http)
        #expect(SigningTimestamp(iso8601Basic: iso) == timestamp)
        #expect(SigningTimestamp(httpDate: http) == timestamp)
    }

    @Test("Malformed dates and escapes are rejected")
    func malformed() {
        #expect(SigningTimestamp(iso8601Basic: "20240230T000000Z") == nil)
        #expect(SigningTimestamp(iso8601Basic: "2024-03-05T04:05:06Z") == nil)
        #expect(SigningTimestamp(httpDate: "Tue, 05 Foo 2024 04:05:06 GMT") == nil)
        #expect(PercentEncoding.decode("%2") == nil)
        #expect(PercentEncoding.decode("%zz") == nil)
        #expect(PercentEncoding.decode("%FF") == nil)
        #expect(PercentEncoding.decode("a+b%2b") == "a+b+")
    }
}
