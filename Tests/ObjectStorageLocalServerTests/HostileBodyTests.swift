//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageLocalServer
import Testing

/// Request bodies, ranges and list limits built to exhaust the server's stack or overflow its arithmetic, in
/// every dialect; each test then checks that the server still answers a normal request.
@Suite("Hostile bodies, ranges and limits")
struct HostileBodyTests {
    static let dialects: [(String, [(String, String)])] = [("s3", []), ("oss", ossDialect), ("obs", obsDialect)]

    /// `depth` nested elements named `name` inside `root`, `<root><name><name>…</name></name></root>`.
    static func nested(_ root: String, _ name: String, depth: Int) -> [UInt8] {
        let inner = depth - 1
        return Array(
            ("<\(root)>" + String(repeating: "<\(name)>", count: inner) + String(repeating: "</\(name)>", count: inner)
                + "</\(root)>").utf8
        )
    }

    /// The server still creates a bucket, stores an object and reads it back.
    static func expectServing(_ client: TestClient, _ dialect: [(String, String)]) async throws {
        #expect(try await client.send("PUT", "/alive", headers: dialect).status == 200)
        #expect(try await client.send("PUT", "/alive/k", headers: dialect, body: Array("ok".utf8)).status == 200)
        #expect(try await client.send("GET", "/alive/k", headers: dialect).text == "ok")
    }

    static func expectMalformedXML(_ response: TestResponse, _ context: String) {
        #expect(response.status == 400, "\(context): \(response.text)")
        #expect(response.element("Code") == "MalformedXML", "\(context)")
    }

    @Test("XML nested 60,000 deep is MalformedXML", arguments: dialects)
    func refusesDeeplyNestedXML(name: String, dialect: [(String, String)]) async throws {
        try await withServer { client, _ in
            let configuration = Self.nested("CreateBucketConfiguration", "LocationConstraint", depth: 60_000)
            #expect(configuration.count > 400_000)
            Self.expectMalformedXML(
                try await client.send("PUT", "/deep", headers: dialect, body: configuration),
                "\(name) CreateBucket"
            )
            #expect(try await client.send("PUT", "/bkt", headers: dialect).status == 200)
            Self.expectMalformedXML(
                try await client.send(
                    "POST",
                    "/bkt?delete",
                    headers: dialect,
                    body: Self.nested("Delete", "Object", depth: 60_000)
                ),
                "\(name) DeleteObjects"
            )
            let id = try await initiate(client, "/bkt/big", headers: dialect)
            let part = try await client.send("PUT", "/bkt/big?partNumber=1&uploadId=\(id)", headers: dialect, body: [1])
            #expect(part.status == 200)
            Self.expectMalformedXML(
                try await client.send(
                    "POST",
                    "/bkt/big?uploadId=\(id)",
                    headers: dialect,
                    body: Self.nested("CompleteMultipartUpload", "Part", depth: 60_000)
                ),
                "\(name) CompleteMultipartUpload"
            )
            try await Self.expectServing(client, dialect)
        }
    }

    @Test("XML is accepted up to 64 levels deep and refused at 65", arguments: dialects)
    func depthLimitBoundary(name: String, dialect: [(String, String)]) async throws {
        try await withServer { client, _ in
            let atLimit = Self.nested("CreateBucketConfiguration", "X", depth: 64)
            #expect(try await client.send("PUT", "/limit", headers: dialect, body: atLimit).status == 200)
            let pastLimit = Self.nested("CreateBucketConfiguration", "X", depth: 65)
            Self.expectMalformedXML(
                try await client.send("PUT", "/past", headers: dialect, body: pastLimit),
                "\(name) 65 deep"
            )
            try await Self.expectServing(client, dialect)
        }
    }

    @Test("An XML body over 4 MiB is MalformedXML", arguments: dialects)
    func refusesOversizedXML(name: String, dialect: [(String, String)]) async throws {
        try await withServer { client, _ in
            let padding = String(repeating: " ", count: 4 << 20)
            let body = Array("<CreateBucketConfiguration>\(padding)</CreateBucketConfiguration>".utf8)
            Self.expectMalformedXML(try await client.send("PUT", "/big", headers: dialect, body: body), name)
            try await Self.expectServing(client, dialect)
        }
    }

    @Test("Ranges at the limits of Int64 never overflow", arguments: dialects)
    func answersExtremeRanges(name: String, dialect: [(String, String)]) async throws {
        try await withServer { client, _ in
            #expect(try await client.send("PUT", "/bkt", headers: dialect).status == 200)
            #expect(try await client.send("PUT", "/bkt/k", headers: dialect, body: Array("hello".utf8)).status == 200)
            func get(_ range: String) async throws -> TestResponse {
                try await client.send("GET", "/bkt/k", headers: dialect + [("Range", range)])
            }
            // Past Int64, signed or not a number: not a valid range, so the whole object.
            for ignored in ["bytes=0-99999999999999999999", "bytes=99999999999999999999-", "bytes=+1-2", "bytes=-+2"] {
                let response = try await get(ignored)
                #expect(response.status == 200, "\(name) \(ignored)")
                #expect(response.text == "hello")
            }
            // The largest suffix is the whole object (S3 and OBS) or ignored (OSS), a range past the end 416
            // (S3 and OBS) or ignored (OSS).
            let suffix = try await get("bytes=-9223372036854775807")
            #expect(suffix.text == "hello")
            let pastEnd = try await get("bytes=9223372036854775807-")
            if name == "oss" {
                #expect(pastEnd.status == 200)
            } else {
                #expect(pastEnd.status == 416)
                #expect(pastEnd.element("Code") == "InvalidRange")
            }
            let tail = try await get("bytes=1-9223372036854775807")
            #expect(tail.status == (name == "oss" ? 200 : 206))
            try await Self.expectServing(client, dialect)
        }
    }

    @Test(
        "List limits outside 0...2147483647 are InvalidArgument",
        arguments: ["max-parts", "part-number-marker", "max-uploads"],
        ["99999999999999999999", "-1", "2147483648", "1.5", ""]
    )
    func refusesOutOfRangeListLimits(parameter: String, value: String) async throws {
        try await withServer { client, _ in
            #expect(try await client.send("PUT", "/bkt").status == 200)
            let id = try await initiate(client, "/bkt/k")
            let path = parameter == "max-uploads" ? "/bkt?uploads&" : "/bkt/k?uploadId=\(id)&"
            let refused = try await client.send("GET", path + "\(parameter)=\(value)")
            #expect(refused.status == 400, "\(parameter)=\(value): \(refused.text)")
            #expect(refused.element("Code") == "InvalidArgument")
            #expect(refused.element("ArgumentName") == parameter)
            let accepted = try await client.send("GET", path + "\(parameter)=2147483647")
            #expect(accepted.status == 200, "\(accepted.text)")
            try await Self.expectServing(client, [])
        }
    }

    /// Values S3 refuses as `max-keys` or `partNumber`: a sign (`%2B` is `+`, since a bare `+` in a query is a
    /// space), a space, a fraction, empty, past `Int32`, past `Int64`.
    static let malformedCounts = ["%2B5", "%205", "-1", "1.5", "", "2147483648", "99999999999999999999"]

    @Test("max-keys that is not a plain count is InvalidArgument", arguments: dialects)
    func refusesMalformedMaxKeys(name: String, dialect: [(String, String)]) async throws {
        try await withServer { client, _ in
            #expect(try await client.send("PUT", "/bkt", headers: dialect).status == 200)
            #expect(try await client.send("PUT", "/bkt/k", headers: dialect, body: [1]).status == 200)
            for value in Self.malformedCounts {
                for listType in ["", "list-type=2&"] {
                    let refused = try await client.send("GET", "/bkt?\(listType)max-keys=\(value)", headers: dialect)
                    #expect(refused.status == 400, "\(name) \(listType)max-keys=\(value): \(refused.text)")
                    #expect(refused.element("Code") == "InvalidArgument", "\(name) max-keys=\(value)")
                    #expect(refused.element("ArgumentName") == "max-keys", "\(name) max-keys=\(value)")
                }
            }
            let accepted = try await client.send("GET", "/bkt?max-keys=2147483647", headers: dialect)
            #expect(accepted.status == 200, "\(name): \(accepted.text)")
            #expect(accepted.element("MaxKeys") == "1000")
            let one = try await client.send("GET", "/bkt?max-keys=05", headers: dialect)
            #expect(one.element("MaxKeys") == "5", "\(name): \(one.text)")
            try await Self.expectServing(client, dialect)
        }
    }

    @Test("A CompleteMultipartUpload PartNumber that is not a plain count is MalformedXML", arguments: dialects)
    func refusesMalformedCompletionPartNumbers(name: String, dialect: [(String, String)]) async throws {
        try await withServer { client, _ in
            #expect(try await client.send("PUT", "/bkt", headers: dialect).status == 200)
            let id = try await initiate(client, "/bkt/k", headers: dialect)
            let part = try await client.send("PUT", "/bkt/k?partNumber=1&uploadId=\(id)", headers: dialect, body: [1])
            let etag = try #require(part.header("ETag"))
            for number in ["+1", " 1x", "1.0", "-1", "99999999999999999999"] {
                Self.expectMalformedXML(
                    try await client.send(
                        "POST",
                        "/bkt/k?uploadId=\(id)",
                        headers: dialect,
                        body: completion([(0, etag)]).replacingPartNumber(with: number)
                    ),
                    "\(name) PartNumber \(number)"
                )
            }
            // The upload is intact: the same completion with a plain number succeeds.
            let completed = try await client.send(
                "POST",
                "/bkt/k?uploadId=\(id)",
                headers: dialect,
                body: completion([(1, etag)])
            )
            #expect(completed.status == 200, "\(name): \(completed.text)")
            #expect(try await client.send("GET", "/bkt/k", headers: dialect).body == [1])
        }
    }

    @Test("S3's GET and HEAD ?partNumber= that is not a plain count in 1...10000 is InvalidArgument")
    func refusesMalformedReadPartNumbers() async throws {
        try await withServer { client, _ in
            #expect(try await client.send("PUT", "/bkt").status == 200)
            #expect(try await client.send("PUT", "/bkt/k", body: Array("hello".utf8)).status == 200)
            for value in Self.malformedCounts + ["%2B1", "0", "10001"] {
                for method in ["GET", "HEAD"] {
                    let refused = try await client.send(method, "/bkt/k?partNumber=\(value)")
                    #expect(refused.status == 400, "\(method) partNumber=\(value): \(refused.text)")
                    if method == "GET" {
                        #expect(refused.element("Code") == "InvalidArgument", "partNumber=\(value)")
                        #expect(refused.element("ArgumentName") == "partNumber", "partNumber=\(value)")
                    }
                }
            }
            let first = try await client.send("GET", "/bkt/k?partNumber=1")
            #expect(first.status == 206, "\(first.text)")
            #expect(first.text == "hello")
        }
    }

    @Test("A part number that is not a plain count in 1...10000 is InvalidArgument", arguments: dialects)
    func refusesMalformedPartNumbers(name: String, dialect: [(String, String)]) async throws {
        try await withServer { client, _ in
            #expect(try await client.send("PUT", "/bkt", headers: dialect).status == 200)
            let id = try await initiate(client, "/bkt/k", headers: dialect)
            for value in Self.malformedCounts + ["0", "10001"] {
                let refused = try await client.send(
                    "PUT",
                    "/bkt/k?partNumber=\(value)&uploadId=\(id)",
                    headers: dialect,
                    body: [1]
                )
                #expect(refused.status == 400, "\(name) partNumber=\(value): \(refused.text)")
                #expect(refused.element("Code") == "InvalidArgument", "\(name) partNumber=\(value)")
                #expect(refused.element("ArgumentName") == "partNumber", "\(name) partNumber=\(value)")
            }
            let listed = try await client.send("GET", "/bkt/k?uploadId=\(id)", headers: dialect)
            #expect(listed.element("PartNumber") == nil, "\(name): a refused part was stored: \(listed.text)")
            for value in ["1", "10000"] {
                let accepted = try await client.send(
                    "PUT",
                    "/bkt/k?partNumber=\(value)&uploadId=\(id)",
                    headers: dialect,
                    body: [1]
                )
                #expect(accepted.status == 200, "\(name) partNumber=\(value): \(accepted.text)")
            }
            try await Self.expectServing(client, dialect)
        }
    }
}

extension [UInt8] {
    /// A completion body whose `<PartNumber>0</PartNumber>` says `number` instead.
    fileprivate func replacingPartNumber(with number: String) -> [UInt8] {
        Array(
            String(decoding: self, as: UTF8.self).replacingOccurrences(
                of: "<PartNumber>0<",
                with: "<PartNumber>\(number)<"
            ).utf8
        )
    }
}
