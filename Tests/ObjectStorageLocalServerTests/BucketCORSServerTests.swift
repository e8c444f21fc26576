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

/// A bucket's CORS rules on the server, in the three dialects: kept as put, refused as the services refuse them,
/// evaluated for unsigned preflights and added to the answers of cross-origin requests.
@Suite("Bucket CORS on the server")
struct BucketCORSServerTests {
    static let dialects: [(String, [(String, String)])] = [("s3", []), ("oss", ossDialect), ("obs", obsDialect)]

    static let document = Array(
        """
        <CORSConfiguration><CORSRule><AllowedOrigin>https://*.example.com</AllowedOrigin>\
        <AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>content-*</AllowedHeader>\
        <ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule>\
        <CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>HEAD</AllowedMethod></CORSRule></CORSConfiguration>
        """.utf8
    )

    static func md5(_ body: [UInt8]) -> (String, String) {
        ("Content-MD5", ByteEncoding.base64(Hashing.MD5.hash(body)))
    }

    static func preflight(_ origin: String?, _ method: String?, headers: String? = nil) -> [(String, String)] {
        var result: [(String, String)] = []
        if let origin { result.append(("Origin", origin)) }
        if let method { result.append(("Access-Control-Request-Method", method)) }
        if let headers { result.append(("Access-Control-Request-Headers", headers)) }
        return result
    }

    @Test("rules are kept as put, answered by GET, removed by DELETE; a bucket without answers NoSuchCORSConfiguration")
    func keptAndRemoved() async throws {
        try await withServer { client, _ in
            for (name, dialect) in Self.dialects {
                let bucket = "cors-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                let none = try await client.send("GET", "/\(bucket)?cors", headers: dialect)
                #expect(none.status == 404 && none.element("Code") == "NoSuchCORSConfiguration", "\(name)")
                let put = try await client.send(
                    "PUT",
                    "/\(bucket)?cors",
                    headers: dialect + [Self.md5(Self.document)],
                    body: Self.document
                )
                #expect(put.status == 200, "\(name): \(put.text)")
                let got = try await client.send("GET", "/\(bucket)?cors", headers: dialect)
                #expect(got.status == 200 && got.body == Self.document, "\(name)")
                #expect(try await client.send("DELETE", "/\(bucket)?cors", headers: dialect).status == 204)
                #expect(try await client.send("GET", "/\(bucket)?cors", headers: dialect).status == 404)
                // An object's ?cors is no such thing.
                #expect(try await client.send("GET", "/\(bucket)/k?cors", headers: dialect).status == 501)
            }
        }
    }

    @Test("a document the service refuses is refused with its error, and nothing is kept")
    func refusals() async throws {
        try await withServer { client, _ in
            for (name, dialect) in Self.dialects {
                let bucket = "refusals-\(name)"
                _ = try await client.send("PUT", "/\(bucket)", headers: dialect)
                func put(_ text: String, md5: Bool = true) async throws -> TestResponse {
                    let body = Array(text.utf8)
                    return try await client.send(
                        "PUT",
                        "/\(bucket)?cors",
                        headers: dialect + (md5 ? [Self.md5(body)] : []),
                        body: body
                    )
                }
                let malformed = try await put("<CORSConfiguration><CORSRule>")
                #expect(malformed.status == 400 && malformed.element("Code") == "MalformedXML", "\(name)")
                let noOrigin = try await put(
                    "<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>"
                )
                #expect(noOrigin.element("Code") == "MalformedXML", "\(name)")
                let patch = try await put(
                    "<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PATCH</AllowedMethod>"
                        + "</CORSRule></CORSConfiguration>"
                )
                #expect(
                    patch.status == 400
                        && patch.element("Code") == (name == "s3" ? "InvalidRequest" : "InvalidArgument")
                )
                let rule = "<CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule>"
                let eleven = try await put(
                    "<CORSConfiguration>\(String(repeating: rule, count: 11))</CORSConfiguration>"
                )
                #expect((eleven.status == 400) == (name == "oss"), "\(name): \(eleven.status)")
                if name == "oss" { #expect(eleven.element("Code") == "CORSRuleBeyondLimit") }
                _ = try await client.send("DELETE", "/\(bucket)?cors", headers: dialect)
                // S3 and OBS need the document's Content-MD5 (S3: or a checksum); OSS does not.
                let unsummed = try await put("<CORSConfiguration>\(rule)</CORSConfiguration>", md5: false)
                #expect((unsummed.status == 400) == (name != "oss"), "\(name): \(unsummed.text)")
                _ = try await client.send("DELETE", "/\(bucket)?cors", headers: dialect)
                let body = Array("<CORSConfiguration>\(rule)</CORSConfiguration>".utf8)
                let wrong = try await client.send(
                    "PUT",
                    "/\(bucket)?cors",
                    headers: dialect + [Self.md5(Array("other".utf8))],
                    body: body
                )
                #expect(wrong.status == 400 && wrong.element("Code") == "BadDigest", "\(name)")
                if name == "s3" {
                    let crc = ByteEncoding.base64(withUnsafeBytes(of: UInt32(0).bigEndian) { Array($0) })
                    let badChecksum = try await client.send(
                        "PUT",
                        "/\(bucket)?cors",
                        headers: [("x-amz-checksum-crc32", crc)],
                        body: body
                    )
                    #expect(badChecksum.status == 400 && badChecksum.element("Code") == "BadDigest")
                }
                #expect(try await client.send("GET", "/\(bucket)?cors", headers: dialect).status == 404, "\(name)")
            }
        }
    }

    @Test("preflights: the first rule that admits origin, method and headers answers; none, or no rules, is 403")
    func preflights() async throws {
        try await withServer { client, _ in
            for (name, dialect) in Self.dialects {
                let bucket = "preflight-\(name)"
                _ = try await client.send("PUT", "/\(bucket)", headers: dialect)
                let disabled = try await client.send(
                    "OPTIONS",
                    "/\(bucket)/k",
                    headers: Self.preflight("https://a.example.com", "PUT")
                )
                #expect(disabled.status == 403 && disabled.element("Code") == "AccessForbidden")
                #expect(disabled.element("Message")?.contains("CORS is not enabled for this bucket") == true)
                _ = try await client.send(
                    "PUT",
                    "/\(bucket)?cors",
                    headers: dialect + [Self.md5(Self.document)],
                    body: Self.document
                )
                let allowed = try await client.send(
                    "OPTIONS",
                    "/\(bucket)/photos/cat.jpg",
                    headers: Self.preflight("https://app.example.com", "PUT", headers: "Content-Type")
                )
                #expect(allowed.status == 200, "\(name): \(allowed.text)")
                #expect(allowed.header("Access-Control-Allow-Origin") == "https://app.example.com")
                #expect(allowed.header("Access-Control-Allow-Methods") == (name == "obs" ? "PUT,GET" : "PUT, GET"))
                #expect(allowed.header("Access-Control-Allow-Headers") == "Content-Type")
                #expect(allowed.header("Access-Control-Expose-Headers") == "ETag")
                #expect(allowed.header("Access-Control-Max-Age") == "600")
                let wildcard = try await client.send(
                    "OPTIONS",
                    "/\(bucket)",
                    headers: Self.preflight("http://other.test", "HEAD")
                )
                #expect(wildcard.status == 200)
                // S3 answers '*' for a rule whose origin is '*'; OSS and OBS echo the origin.
                #expect(wildcard.header("Access-Control-Allow-Origin") == (name == "s3" ? "*" : "http://other.test"))
                let header = try await client.send(
                    "OPTIONS",
                    "/\(bucket)/k",
                    headers: Self.preflight("https://app.example.com", "PUT", headers: "x-trace")
                )
                #expect(header.status == 403 && header.header("Access-Control-Allow-Origin") == nil)
                #expect(header.element("Message")?.contains("This CORS request is not allowed") == true)
                let origin = try await client.send(
                    "OPTIONS",
                    "/\(bucket)/k",
                    headers: Self.preflight("https://evil.test", "PUT")
                )
                #expect(origin.status == 403)
                let noOrigin = try await client.send("OPTIONS", "/\(bucket)/k", headers: Self.preflight(nil, "PUT"))
                #expect(
                    noOrigin.status == 400
                        && noOrigin.element("Message")?.contains("Origin request header needed") == true
                )
                let noMethod = try await client.send(
                    "OPTIONS",
                    "/\(bucket)/k",
                    headers: Self.preflight("https://a.example.com", nil)
                )
                #expect(noMethod.status == 400 && noMethod.element("Code") == "BadRequest")
                let unknown = try await client.send(
                    "OPTIONS",
                    "/nosuchbucket/k",
                    headers: Self.preflight("https://a.example.com", "GET")
                )
                #expect(unknown.status == 404 && unknown.element("Code") == "NoSuchBucket")
            }
        }
    }

    @Test("a cross-origin request's answer carries the rule's headers; one no rule admits goes on without them")
    func actualRequests() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/actual")
            _ = try await client.send("PUT", "/actual?cors", headers: [Self.md5(Self.document)], body: Self.document)
            _ = try await client.send("PUT", "/actual/k", body: [1, 2, 3])
            let admitted = try await client.send("GET", "/actual/k", headers: [("Origin", "https://app.example.com")])
            #expect(admitted.status == 200 && admitted.body == [1, 2, 3])
            #expect(admitted.header("Access-Control-Allow-Origin") == "https://app.example.com")
            #expect(admitted.header("Access-Control-Expose-Headers") == "ETag")
            let other = try await client.send("GET", "/actual/k", headers: [("Origin", "https://evil.test")])
            #expect(other.status == 200 && other.header("Access-Control-Allow-Origin") == nil)
            let plain = try await client.send("GET", "/actual/k")
            #expect(plain.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test("a data directory keeps the rules, and the dialect that set them, across a restart")
    func persisted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cors-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = LocalObjectServer.Configuration(storage: .directory(directory), authentication: .anonymous)
        try await withServer(configuration) { client, _ in
            _ = try await client.send("PUT", "/kept", headers: obsDialect)
            let put = try await client.send(
                "PUT",
                "/kept?cors",
                headers: obsDialect + [Self.md5(Self.document)],
                body: Self.document
            )
            #expect(put.status == 200)
        }
        try await withServer(configuration) { (client: TestClient, _: LocalObjectServer) async throws -> Void in
            #expect(try await client.send("GET", "/kept?cors", headers: obsDialect).body == Self.document)
            let allowed = try await client.send(
                "OPTIONS",
                "/kept/k",
                headers: Self.preflight("https://a.example.com", "GET")
            )
            #expect(allowed.header("Access-Control-Allow-Methods") == "PUT,GET")
            _ = try await client.send("DELETE", "/kept?cors", headers: obsDialect)
            #expect(try await client.send("DELETE", "/kept", headers: obsDialect).status == 204)
        }
    }
}
