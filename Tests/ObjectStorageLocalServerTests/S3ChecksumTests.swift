//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

@Suite("S3 checksums: x-amz-checksum-crc64nvme is kept, checked and reported as S3 does")
struct S3ChecksumTests {
    static let header = "x-amz-checksum-crc64nvme"
    static let askForIt = [("x-amz-checksum-mode", "ENABLED")]
    /// CRC-64/NVME of "123456789" (the catalogue's check value 0xAE8B14860A799888), base64 of its big-endian bytes.
    static let checkValue = "rosUhgp5mIg="

    @Test("a PUT reports it; a whole-object GET or HEAD only when asked; a range never")
    func reportedWhenAsked() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let put = try await client.send("PUT", "/bkt/nine", body: Array("123456789".utf8))
            #expect(put.status == 200)
            #expect(put.header(Self.header) == Self.checkValue)
            #expect(put.header("x-amz-checksum-type") == "FULL_OBJECT")

            let head = try await client.send("HEAD", "/bkt/nine", headers: Self.askForIt)
            #expect(head.header(Self.header) == Self.checkValue)
            #expect(head.header("x-amz-checksum-type") == "FULL_OBJECT")
            let get = try await client.send("GET", "/bkt/nine", headers: Self.askForIt)
            #expect(get.header(Self.header) == Self.checkValue)
            #expect(get.body == Array("123456789".utf8))

            #expect(try await client.send("HEAD", "/bkt/nine").header(Self.header) == nil)
            let range = try await client.send("GET", "/bkt/nine", headers: Self.askForIt + [("Range", "bytes=0-3")])
            #expect(range.status == 206)
            #expect(range.header(Self.header) == nil)
        }
    }

    @Test("a PUT whose checksum does not match its bytes is refused and stores nothing")
    func putChecked() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let body = Array("123456789".utf8)
            let good = try await client.send("PUT", "/bkt/good", headers: [(Self.header, Self.checkValue)], body: body)
            #expect(good.status == 200)

            let wrong = try await client.send("PUT", "/bkt/wrong", headers: [(Self.header, "AAAAAAAAAAE=")], body: body)
            #expect(wrong.status == 400)
            #expect(wrong.element("Code") == "BadDigest")
            #expect(wrong.element("Message") == "The CRC64NVME you specified did not match the calculated checksum.")
            #expect(try await client.send("HEAD", "/bkt/wrong").status == 404)

            let malformed = try await client.send("PUT", "/bkt/bad", headers: [(Self.header, "abc")], body: body)
            #expect(malformed.status == 400)
            #expect(malformed.element("Code") == "InvalidRequest")
            #expect(try await client.send("HEAD", "/bkt/bad").status == 404)
        }
    }

    @Test("a multipart object's is combined from its parts'; a Complete that disagrees fails and keeps the upload")
    func multipartCombined() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let part1 = testBytes(5 * 1024 * 1024, seed: 61)
            let part2 = testBytes(1000, seed: 62)
            let whole = CRC64.base64(CRC64.checksum(part1 + part2, polynomial: .nvme))
            let id = try await initiate(client, "/bkt/mp")
            let partCRC = CRC64.base64(CRC64.checksum(part1, polynomial: .nvme))
            let first = try await client.send(
                "PUT",
                "/bkt/mp?partNumber=1&uploadId=\(id)",
                headers: [(Self.header, partCRC)],
                body: part1
            )
            #expect(first.header(Self.header) == partCRC)
            let refusedPart = try await client.send(
                "PUT",
                "/bkt/mp?partNumber=2&uploadId=\(id)",
                headers: [(Self.header, partCRC)],
                body: part2
            )
            #expect(refusedPart.element("Code") == "BadDigest")
            let second = try await client.send("PUT", "/bkt/mp?partNumber=2&uploadId=\(id)", body: part2)
            #expect(second.header(Self.header) == nil)
            let parts = [(1, try #require(first.header("ETag"))), (2, try #require(second.header("ETag")))]

            let refused = try await client.send(
                "POST",
                "/bkt/mp?uploadId=\(id)",
                headers: [(Self.header, partCRC)],
                body: completion(parts)
            )
            #expect(refused.status == 400)
            #expect(refused.element("Code") == "BadDigest")
            #expect(try await client.send("GET", "/bkt/mp?uploadId=\(id)").elements("PartNumber") == ["1", "2"])

            let completed = try await client.send(
                "POST",
                "/bkt/mp?uploadId=\(id)",
                headers: [(Self.header, whole)],
                body: completion(parts)
            )
            #expect(completed.status == 200)
            #expect(completed.element("ChecksumCRC64NVME") == whole)
            #expect(completed.element("ChecksumType") == "FULL_OBJECT")
            let head = try await client.send("HEAD", "/bkt/mp", headers: Self.askForIt)
            #expect(head.header(Self.header) == whole)
            #expect(head.header("x-amz-checksum-type") == "FULL_OBJECT")
        }
    }

    @Test("OSS and OBS requests neither see nor check it")
    func otherDialects() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            for dialect in [ossDialect, obsDialect] {
                let put = try await client.send(
                    "PUT",
                    "/bkt/k",
                    headers: dialect + [(Self.header, "AAAAAAAAAAE=")],
                    body: Array("123456789".utf8)
                )
                #expect(put.status == 200)
                #expect(put.header(Self.header) == nil)
                let head = try await client.send("HEAD", "/bkt/k", headers: dialect + Self.askForIt)
                #expect(head.header(Self.header) == nil)
            }
        }
    }

    @Test("a server told to play one without S3's checksums ignores the headers")
    func turnedOff() async throws {
        var configuration = LocalObjectServer.Configuration(storage: .memory, authentication: .anonymous)
        configuration.keepsS3Checksums = false
        try await withServer(configuration) { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let put = try await client.send(
                "PUT",
                "/bkt/k",
                headers: [(Self.header, "AAAAAAAAAAE=")],
                body: Array("123456789".utf8)
            )
            #expect(put.status == 200)
            #expect(put.header(Self.header) == nil)
            #expect(try await client.send("HEAD", "/bkt/k", headers: Self.askForIt).header(Self.header) == nil)
        }
    }
}
