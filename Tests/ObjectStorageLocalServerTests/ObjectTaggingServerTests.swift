//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageLocalServer
import Testing

/// The server keeps object tags and refuses, as each service does, what the services refuse: the client checks
/// the same limits first, so these requests are raw.
@Suite("Object tags on the server")
struct ObjectTaggingServerTests {
    static let dialects: [(String, [(String, String)], prefix: String)] = [
        ("s3", [], "x-amz-"), ("oss", ossDialect, "x-oss-"), ("obs", obsDialect, "x-obs-"),
    ]

    static func document(_ tags: [(String, String)]) -> [UInt8] {
        let body = tags.map { "<Tag><Key>\($0.0)</Key><Value>\($0.1)</Value></Tag>" }.joined()
        return Array("<Tagging><TagSet>\(body)</TagSet></Tagging>".utf8)
    }

    @Test("tags from the header, the document and a copy's directive are kept, counted and read back")
    func kept() async throws {
        try await withServer { client, _ in
            for (name, dialect, prefix) in Self.dialects {
                let bucket = "tags-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                let put = try await client.send(
                    "PUT",
                    "/\(bucket)/k",
                    headers: dialect + [(prefix + "tagging", "a=1&b%20c=two+words")],
                    body: [1]
                )
                #expect(put.status == 200, "\(name): \(put.text)")
                let head = try await client.send("HEAD", "/\(bucket)/k", headers: dialect)
                #expect(head.header(prefix + "tagging-count") == "2", "\(name)")
                let read = try await client.send("GET", "/\(bucket)/k?tagging", headers: dialect)
                #expect(
                    read.elements("Key") == ["a", "b c"] && read.elements("Value") == ["1", "two words"],
                    "\(name)"
                )

                let copy = try await client.send(
                    "PUT",
                    "/\(bucket)/copy",
                    headers: dialect + [
                        (prefix + "copy-source", "/\(bucket)/k"), (prefix + "tagging-directive", "REPLACE"),
                        (prefix + "tagging", "c=3"),
                    ]
                )
                #expect(copy.status == 200, "\(name): \(copy.text)")
                #expect(
                    try await client.send("GET", "/\(bucket)/copy?tagging", headers: dialect).elements("Key") == ["c"]
                )

                let replaced = try await client.send(
                    "PUT",
                    "/\(bucket)/k?tagging",
                    headers: dialect,
                    body: Self.document([("x", "y")])
                )
                #expect(replaced.status == 200, "\(name): \(replaced.text)")
                #expect(try await client.send("GET", "/\(bucket)/k?tagging", headers: dialect).elements("Key") == ["x"])
                #expect(try await client.send("DELETE", "/\(bucket)/k?tagging", headers: dialect).status == 204)
                let none = try await client.send("GET", "/\(bucket)/k?tagging", headers: dialect)
                #expect(none.status == 200 && none.elements("Tag").isEmpty, "\(name): \(none.text)")
                #expect(
                    try await client.send("HEAD", "/\(bucket)/k", headers: dialect).header(prefix + "tagging-count")
                        == nil
                )
                let absent = try await client.send(
                    "PUT",
                    "/\(bucket)/absent?tagging",
                    headers: dialect,
                    body: Self.document([])
                )
                #expect(absent.status == 404 && absent.element("Code") == "NoSuchKey", "\(name)")
            }
        }
    }

    @Test("tags beyond the limits are refused with the service's error, and nothing is stored or changed")
    func refused() async throws {
        try await withServer { client, _ in
            for (name, dialect, prefix) in Self.dialects {
                let bucket = "limits-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                #expect(
                    try await client.send(
                        "PUT",
                        "/\(bucket)/k",
                        headers: dialect + [(prefix + "tagging", "keep=1")],
                        body: [1]
                    ).status == 200
                )
                let eleven = (1...11).map { ("k\($0)", "v") }
                let cases: [([(String, String)], String)] = [
                    (eleven, name == "s3" ? "BadRequest" : "InvalidTag"),
                    ([(String(repeating: "k", count: 129), "v")], "InvalidTag"),
                    ([("k", String(repeating: "v", count: name == "obs" ? 256 : 257))], "InvalidTag"),
                    ([("k", "1"), ("k", "2")], "InvalidTag"),
                    ([("", "v")], "InvalidTag"),
                    ([("a|b", "v")], "InvalidTag"),
                ]
                for (tags, code) in cases {
                    let document = try await client.send(
                        "PUT",
                        "/\(bucket)/k?tagging",
                        headers: dialect,
                        body: Self.document(tags)
                    )
                    #expect(
                        document.status == 400 && document.element("Code") == code,
                        "\(name) \(tags.count): \(document.text)"
                    )
                    let header = tags.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
                    let put = try await client.send(
                        "PUT",
                        "/\(bucket)/new",
                        headers: dialect + [(prefix + "tagging", header)],
                        body: [1]
                    )
                    #expect(put.status == 400 && put.element("Code") == code, "\(name) \(tags.count): \(put.text)")
                }
                let malformed = try await client.send(
                    "PUT",
                    "/\(bucket)/new",
                    headers: dialect + [(prefix + "tagging", "a=b=c")],
                    body: [1]
                )
                #expect(malformed.status == 400 && malformed.element("Code") == "InvalidArgument", "\(name)")
                #expect(try await client.send("GET", "/\(bucket)/new", headers: dialect).status == 404, "\(name)")
                #expect(
                    try await client.send("GET", "/\(bucket)/k?tagging", headers: dialect).elements("Key") == ["keep"]
                )
                #expect(try await client.send("POST", "/\(bucket)/k?tagging", headers: dialect).status == 501)
                #expect(try await client.send("GET", "/\(bucket)?tagging", headers: dialect).status == 501)
            }
        }
    }
}
