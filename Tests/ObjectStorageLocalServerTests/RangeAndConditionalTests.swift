//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageLocalServer
import Testing

@Suite("Ranges and conditional requests")
struct RangeAndConditionalTests {
    static let content = Array("0123456789".utf8)

    private func prepared(_ body: (TestClient) async throws -> Void) async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            _ = try await client.send("PUT", "/bkt/k", body: Self.content)
            try await body(client)
        }
    }

    @Test(
        arguments: [
            ("bytes=0-3", 206, "0123", "bytes 0-3/10"),
            ("bytes=7-", 206, "789", "bytes 7-9/10"),
            ("bytes=-2", 206, "89", "bytes 8-9/10"),
            ("bytes=5-100", 206, "56789", "bytes 5-9/10"),
            ("bytes=-100", 206, "0123456789", "bytes 0-9/10"),
            ("bytes=5-2", 200, "0123456789", nil),
            ("items=0-1", 200, "0123456789", nil),
        ] as [(String, Int, String, String?)]
    )
    func s3Ranges(range: String, status: Int, body: String, contentRange: String?) async throws {
        try await prepared { client in
            let response = try await client.send("GET", "/bkt/k", headers: [("Range", range)])
            #expect(response.status == status)
            #expect(response.text == body)
            #expect(response.header("Content-Range") == contentRange)
        }
    }

    @Test func unsatisfiableRangeIs416() async throws {
        try await prepared { client in
            let response = try await client.send("GET", "/bkt/k", headers: [("Range", "bytes=10-20")])
            #expect(response.status == 416)
            #expect(response.element("Code") == "InvalidRange")
            #expect(response.header("Content-Range") == "bytes */10")
        }
    }

    @Test func ossIgnoresAnInvalidRangeUnlessStandardBehaviourIsAsked() async throws {
        try await prepared { client in
            let lenient = try await client.send("GET", "/bkt/k", headers: ossDialect + [("Range", "bytes=10-20")])
            #expect(lenient.status == 200)
            #expect(lenient.text == "0123456789")
            let endBeyond = try await client.send("GET", "/bkt/k", headers: ossDialect + [("Range", "bytes=5-20")])
            #expect(endBeyond.status == 200)
            let standard = ossDialect + [("x-oss-range-behavior", "standard")]
            let strict = try await client.send("GET", "/bkt/k", headers: standard + [("Range", "bytes=10-20")])
            #expect(strict.status == 416)
            #expect(strict.element("Code") == "InvalidRange")
            let clamped = try await client.send("GET", "/bkt/k", headers: standard + [("Range", "bytes=5-20")])
            #expect(clamped.status == 206)
            #expect(clamped.text == "56789")
        }
    }

    @Test func conditionalRequests() async throws {
        try await prepared { client in
            let etag = try #require(try await client.send("HEAD", "/bkt/k").header("ETag"))
            let lastModified = try #require(try await client.send("HEAD", "/bkt/k").header("Last-Modified"))
            #expect(try await client.send("GET", "/bkt/k", headers: [("If-Match", etag)]).status == 200)
            let failed = try await client.send("GET", "/bkt/k", headers: [("If-Match", "\"other\"")])
            #expect(failed.status == 412)
            #expect(failed.element("Code") == "PreconditionFailed")
            #expect(try await client.send("HEAD", "/bkt/k", headers: [("If-Match", "\"other\"")]).status == 412)
            #expect(try await client.send("GET", "/bkt/k", headers: [("If-None-Match", etag)]).status == 304)
            #expect(try await client.send("HEAD", "/bkt/k", headers: [("If-None-Match", "*")]).status == 304)
            #expect(try await client.send("GET", "/bkt/k", headers: [("If-None-Match", "\"x\"")]).status == 200)
            #expect(
                try await client.send("GET", "/bkt/k", headers: [("If-Modified-Since", lastModified)]).status == 304
            )
            let past = "Mon, 01 Jan 2001 00:00:00 GMT"
            #expect(try await client.send("GET", "/bkt/k", headers: [("If-Modified-Since", past)]).status == 200)
            #expect(try await client.send("GET", "/bkt/k", headers: [("If-Unmodified-Since", past)]).status == 412)
            #expect(
                try await client.send("GET", "/bkt/k", headers: [("If-Unmodified-Since", lastModified)]).status == 200
            )
            let matchingRange = try await client.send(
                "GET",
                "/bkt/k",
                headers: [("Range", "bytes=0-1"), ("If-Range", etag)]
            )
            #expect(matchingRange.status == 206)
            let staleRange = try await client.send(
                "GET",
                "/bkt/k",
                headers: [("Range", "bytes=0-1"), ("If-Range", "\"old\"")]
            )
            #expect(staleRange.status == 200)
            #expect(staleRange.text == "0123456789")
        }
    }
}
