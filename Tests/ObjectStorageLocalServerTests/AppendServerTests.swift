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

/// Appends (OSS, OBS) and OSS symlinks on the server, as raw requests: what the services answer, and what they
/// refuse with their codes.
@Suite("Appends and symlinks on the server")
struct AppendServerTests {
    static let dialects: [(String, [(String, String)], prefix: String)] = [
        ("oss", ossDialect, "x-oss-"), ("obs", obsDialect, "x-obs-"),
    ]

    @Test("appends make an appendable object; the answer and HEAD name the next position; a PUT makes it normal")
    func appendsAndType() async throws {
        try await withServer { client, _ in
            for (name, dialect, prefix) in Self.dialects {
                let bucket = "append-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                let first = try await client.send(
                    "POST",
                    "/\(bucket)/log?append&position=0",
                    headers: dialect + [("Content-Type", "text/plain")],
                    body: Array("hello ".utf8)
                )
                #expect(first.status == 200, "\(name): \(first.text)")
                #expect(first.header(prefix + "next-append-position") == "6", "\(name)")
                let second = try await client.send(
                    "POST",
                    "/\(bucket)/log?append&position=6",
                    headers: dialect,
                    body: Array("world".utf8)
                )
                #expect(second.status == 200 && second.header(prefix + "next-append-position") == "11", "\(name)")
                if name == "oss" {
                    // OSS reports the CRC-64 of the whole object, not of the appended bytes.
                    let whole = CRC64.checksum(Array("hello world".utf8))
                    #expect(second.header("x-oss-hash-crc64ecma") == String(whole))
                }
                let got = try await client.send("GET", "/\(bucket)/log", headers: dialect)
                #expect(got.text == "hello world" && got.header("Content-Type") == "text/plain", "\(name)")
                #expect(got.header(prefix + "object-type") == "Appendable", "\(name)")
                #expect(got.header(prefix + "next-append-position") == "11", "\(name)")
                let md5 = ByteEncoding.hex(Hashing.MD5.hash(Array("hello world".utf8)))
                #expect(got.header("ETag")?.lowercased().contains(md5) == true, "\(name)")

                #expect(try await client.send("PUT", "/\(bucket)/log", headers: dialect, body: [1]).status == 200)
                let head = try await client.send("HEAD", "/\(bucket)/log", headers: dialect)
                #expect(head.header(prefix + "next-append-position") == nil, "\(name)")
                #expect(head.header(prefix + "object-type") == (name == "oss" ? "Normal" : nil), "\(name)")
            }
        }
    }

    @Test("the refusals: a wrong position with the one expected, a normal object, a missing or malformed position")
    func refusals() async throws {
        try await withServer { client, _ in
            for (name, dialect, prefix) in Self.dialects {
                let bucket = "refuse-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                let path = "/\(bucket)/log"
                #expect(
                    try await client.send("POST", "\(path)?append&position=0", headers: dialect, body: [1, 2, 3])
                        .status == 200
                )
                for wrong in ["0", "2", "4"] {
                    let refused = try await client.send(
                        "POST",
                        "\(path)?append&position=\(wrong)",
                        headers: dialect,
                        body: [9]
                    )
                    #expect(refused.status == 409 && refused.element("Code") == "PositionNotEqualToLength", "\(name)")
                    #expect(refused.header(prefix + "next-append-position") == "3", "\(name) \(wrong)")
                }
                let missing = try await client.send(
                    "POST",
                    "/\(bucket)/absent?append&position=5",
                    headers: dialect,
                    body: [9]
                )
                #expect(missing.status == 409 && missing.header(prefix + "next-append-position") == "0", "\(name)")
                #expect(try await client.send("GET", "/\(bucket)/absent", headers: dialect).status == 404)

                #expect(try await client.send("PUT", "/\(bucket)/normal", headers: dialect, body: [1]).status == 200)
                for position in ["0", "1"] {
                    let normal = try await client.send(
                        "POST",
                        "/\(bucket)/normal?append&position=\(position)",
                        headers: dialect,
                        body: [9]
                    )
                    #expect(normal.status == 409 && normal.element("Code") == "ObjectNotAppendable", "\(name)")
                }
                for query in ["append", "append&position=", "append&position=-1", "append&position=1x"] {
                    let bad = try await client.send("POST", "\(path)?\(query)", headers: dialect, body: [9])
                    #expect(bad.status == 400 && bad.element("Code") == "InvalidArgument", "\(name) \(query)")
                }
                #expect(try await client.send("GET", path, headers: dialect).body == [1, 2, 3], "\(name)")
            }
        }
    }

    @Test("an append that would make the object larger than 5 GiB is refused before its body is read")
    func pastTheLimit() async throws {
        try await withServer { client, server in
            let port = try #require(server.port)
            for (name, dialect, _) in Self.dialects {
                let bucket = "limit-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                let path = "/\(bucket)/log"
                #expect(
                    try await client.send("POST", "\(path)?append&position=0", headers: dialect, body: [1, 2, 3]).status
                        == 200
                )
                // 5 GiB less one byte fits alone, not after the object's 3 bytes.
                let connection = try await RawConnection.connect(port: port)
                var head = "POST \(path)?append&position=3 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                head += "Content-Length: \((Int64(5) << 30) - 1)\r\n"
                for (header, value) in dialect { head += "\(header): \(value)\r\n" }
                try await connection.write(head + "\r\n0123456789")
                let outcome = try await connection.readUntilClosed(limit: .seconds(30))
                #expect(outcome.text.hasPrefix("HTTP/1.1 400 "), "\(name): \(outcome.text)")
                #expect(outcome.text.contains("<Code>EntityTooLarge</Code>"), "\(name): \(outcome.text)")
                #expect(try await client.send("GET", path, headers: dialect).body == [1, 2, 3], "\(name)")
            }
        }
    }

    @Test("a data directory keeps appendable objects and symlinks; appends to a versioned bucket make no versions")
    func persistedAndVersioned() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("appends-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = LocalObjectServer.Configuration(storage: .directory(directory), authentication: .anonymous)
        let versioning = Array(
            "<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>".utf8
        )
        try await withServer(configuration) { client, _ in
            #expect(try await client.send("PUT", "/kept", headers: ossDialect).status == 200)
            #expect(
                try await client.send("PUT", "/kept?versioning", headers: ossDialect, body: versioning).status == 200
            )
            for (position, byte) in [(0, UInt8(1)), (1, 2), (2, 3)] {
                let append = try await client.send(
                    "POST",
                    "/kept/log?append&position=\(position)",
                    headers: ossDialect,
                    body: [byte]
                )
                #expect(append.status == 200, "\(append.text)")
            }
            #expect(
                try await client.send("GET", "/kept?versions", headers: ossDialect).elements("VersionId").count == 1
            )
            let link = try await client.send(
                "PUT",
                "/kept/link?symlink",
                headers: ossDialect + [("x-oss-symlink-target", "log")]
            )
            #expect(link.status == 200)
        }
        try await withServer(configuration) { (client: TestClient, _: LocalObjectServer) async throws -> Void in
            let head = try await client.send("HEAD", "/kept/log", headers: ossDialect)
            #expect(
                head.header("x-oss-object-type") == "Appendable" && head.header("x-oss-next-append-position") == "3"
            )
            #expect(
                try await client.send("POST", "/kept/log?append&position=3", headers: ossDialect, body: [4]).status
                    == 200
            )
            #expect(try await client.send("GET", "/kept/link", headers: ossDialect).body == [1, 2, 3, 4])
            #expect(
                try await client.send("GET", "/kept/link?symlink", headers: ossDialect).header("x-oss-symlink-target")
                    == "log"
            )
        }
    }

    @Test("S3 has no append: POST ?append stays a POST without a form, refused, and nothing is stored")
    func s3HasNone() async throws {
        try await withServer { client, _ in
            #expect(try await client.send("PUT", "/s3-bucket").status == 200)
            let refused = try await client.send("POST", "/s3-bucket/log?append&position=0", body: [1])
            #expect(refused.status == 400 && refused.element("Code") == "MalformedPOSTRequest", "\(refused.text)")
            #expect(try await client.send("GET", "/s3-bucket/log").status == 404)
        }
    }

    @Test("an append's response dropped by a fault: the bytes are in place, and the client saw no answer")
    func droppedResponse() async throws {
        let faults = FaultInjector()
        faults.add(FaultRule(operations: ["AppendObject"], trigger: .nth(1), fault: .dropResponse))
        try await withServer(faults: faults) { client, _ in
            #expect(try await client.send("PUT", "/drop", headers: ossDialect).status == 200)
            await #expect(throws: (any Error).self) {
                try await client.send("POST", "/drop/log?append&position=0", headers: ossDialect, body: [1, 2])
            }
            let got = try await client.send("GET", "/drop/log", headers: ossDialect)
            #expect(got.body == [1, 2] && got.header("x-oss-next-append-position") == "2")
        }
    }

    @Test("OSS symlinks: PutSymlink, GetSymlink, a GET serves the target; dangling and not-a-symlink refused")
    func symlinks() async throws {
        try await withServer { client, _ in
            #expect(try await client.send("PUT", "/links", headers: ossDialect).status == 200)
            let put = try await client.send(
                "PUT",
                "/links/latest?symlink",
                headers: ossDialect + [("x-oss-symlink-target", "dir/a%20b.txt")]
            )
            #expect(put.status == 200, "\(put.text)")
            let read = try await client.send("GET", "/links/latest?symlink", headers: ossDialect)
            #expect(read.status == 200 && read.header("x-oss-symlink-target") == "dir%2Fa%20b.txt")
            let dangling = try await client.send("GET", "/links/latest", headers: ossDialect)
            #expect(dangling.status == 404 && dangling.element("Code") == "SymlinkTargetNotExist", "\(dangling.text)")

            #expect(
                try await client.send("PUT", "/links/dir/a%20b.txt", headers: ossDialect, body: [4, 5, 6]).status
                    == 200
            )
            let followed = try await client.send("GET", "/links/latest", headers: ossDialect)
            #expect(followed.body == [4, 5, 6] && followed.header("x-oss-object-type") == "Symlink")
            let head = try await client.send("HEAD", "/links/latest", headers: ossDialect)
            #expect(head.header("Content-Length") == "3")

            let notLink = try await client.send("GET", "/links/dir/a%20b.txt?symlink", headers: ossDialect)
            #expect(notLink.status == 400 && notLink.element("Code") == "NotSymlink", "\(notLink.text)")
            let missing = try await client.send("PUT", "/links/other?symlink", headers: ossDialect)
            #expect(missing.status == 400 && missing.element("Code") == "InvalidArgument", "\(missing.text)")
        }
    }
}
