//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageLocalServer
import Testing

@Suite("Listing")
struct ListingTests {
    static let keys = ["a/1", "a/2", "b", "c/x/1", "c/y", "d"]

    private func prepared(_ body: (TestClient) async throws -> Void) async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            for key in Self.keys { _ = try await client.send("PUT", "/bkt/\(key)", body: [1]) }
            try await body(client)
        }
    }

    @Test func v1PaginationWithDelimiter() async throws {
        try await prepared { client in
            let first = try await client.send("GET", "/bkt?delimiter=/&max-keys=2")
            #expect(first.elements("Prefix").filter { !$0.isEmpty } == ["a/"])
            #expect(first.elements("Key") == ["b"])
            #expect(first.element("IsTruncated") == "true")
            let marker = try #require(first.element("NextMarker"))
            #expect(marker == "b")
            let second = try await client.send("GET", "/bkt?delimiter=/&max-keys=2&marker=\(marker)")
            #expect(second.elements("Prefix").filter { !$0.isEmpty } == ["c/"])
            #expect(second.elements("Key") == ["d"])
            #expect(second.element("IsTruncated") == "false")
        }
    }

    @Test func v2PaginationWithPrefix() async throws {
        try await prepared { client in
            var keys: [String] = []
            var token: String?
            repeat {
                let suffix = token.map { "&continuation-token=\($0.addingPercentEncodingForQuery())" } ?? ""
                let page = try await client.send("GET", "/bkt?list-type=2&max-keys=2\(suffix)")
                keys += page.elements("Key")
                token = page.element("NextContinuationToken")
                #expect(page.element("KeyCount") == String(page.elements("Key").count))
            } while token != nil
            #expect(keys == Self.keys)
            let prefixed = try await client.send("GET", "/bkt?list-type=2&prefix=c/&start-after=c/x/1")
            #expect(prefixed.elements("Key") == ["c/y"])
        }
    }

    @Test("keys sort and match as UTF-8 bytes; a common prefix marker skips its keys; a page after a delete sees it")
    func byteOrderMarkersAndChanges() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            // "e\u{301}" and "\u{E9}" are canonically equivalent as Swift strings, but different keys.
            let keys = ["e\u{301}/1", "e\u{301}/2", "f", "\u{E9}"]
            for key in keys {
                _ = try await client.send("PUT", "/bkt/\(key.addingPercentEncodingForQuery())", body: [1])
            }
            let all = try await client.send("GET", "/bkt?list-type=2")
            #expect(all.elements("Key") == keys)
            let decomposed = "e\u{301}".addingPercentEncodingForQuery()
            let under = try await client.send("GET", "/bkt?list-type=2&prefix=\(decomposed)")
            #expect(under.elements("Key") == ["e\u{301}/1", "e\u{301}/2"])
            let skipping = try await client.send(
                "GET",
                "/bkt?delimiter=/&marker=\("e\u{301}/".addingPercentEncodingForQuery())"
            )
            #expect(skipping.elements("Key") == ["f", "\u{E9}"])
            _ = try await client.send("DELETE", "/bkt/f")
            let afterDelete = try await client.send("GET", "/bkt?delimiter=/")
            #expect(afterDelete.elements("Prefix").filter { !$0.isEmpty } == ["e\u{301}/"])
            #expect(afterDelete.elements("Key") == ["\u{E9}"])
        }
    }

    @Test func urlEncodingType() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            _ = try await client.send("PUT", "/bkt/a%20b", body: [1])
            let page = try await client.send("GET", "/bkt?encoding-type=url")
            #expect(page.elements("Key") == ["a%20b"])
        }
    }
}

extension String {
    func addingPercentEncodingForQuery() -> String {
        var result = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded()
            }
        }
        return result
    }

    private func leftPadded() -> String { count == 1 ? "0" + self : self }
}
