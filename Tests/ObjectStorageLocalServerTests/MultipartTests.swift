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
import ObjectStorageTestSupport
import Testing

@Suite("Multipart uploads")
struct MultipartTests {
    @Test func happyPathWithReuploadedPart() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let id = try await initiate(client, "/bkt/big", headers: [("Content-Type", "video/mp4")])
            let part1 = testBytes(5 * 1024 * 1024, seed: 1)
            let part2 = testBytes(1000, seed: 2)
            _ = try await client.send(
                "PUT",
                "/bkt/big?partNumber=1&uploadId=\(id)",
                body: testBytes(5 * 1024 * 1024, seed: 9)
            )
            let etag1 = try #require(
                try await client.send("PUT", "/bkt/big?partNumber=1&uploadId=\(id)", body: part1).header("ETag")
            )
            let etag2 = try #require(
                try await client.send("PUT", "/bkt/big?partNumber=2&uploadId=\(id)", body: part2).header("ETag")
            )
            #expect(etag1 == "\"\(ByteEncoding.hex(Hashing.MD5.hash(part1)))\"")
            let listed = try await client.send("GET", "/bkt/big?uploadId=\(id)&max-parts=1")
            #expect(listed.elements("PartNumber") == ["1"])
            #expect(listed.element("IsTruncated") == "true")
            #expect(listed.element("NextPartNumberMarker") == "1")
            let next = try await client.send("GET", "/bkt/big?uploadId=\(id)&part-number-marker=1")
            #expect(next.elements("PartNumber") == ["2"])
            let uploads = try await client.send("GET", "/bkt?uploads")
            #expect(uploads.elements("UploadId") == [id])
            let complete = try await client.send(
                "POST",
                "/bkt/big?uploadId=\(id)",
                body: completion([(1, etag1), (2, etag2)])
            )
            #expect(complete.status == 200)
            let expected = ByteEncoding.hex(Hashing.MD5.hash(Hashing.MD5.hash(part1) + Hashing.MD5.hash(part2))) + "-2"
            #expect(complete.element("ETag") == "&quot;\(expected)&quot;")
            let get = try await client.send("GET", "/bkt/big")
            #expect(get.body == part1 + part2)
            #expect(get.header("ETag") == "\"\(expected)\"")
            #expect(get.header("Content-Type") == "video/mp4")
            #expect(try await client.send("GET", "/bkt/big?uploadId=\(id)").element("Code") == "NoSuchUpload")
        }
    }

    @Test func completionErrorsKeepTheUpload() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let id = try await initiate(client, "/bkt/o")
            let etag1 = try #require(
                try await client.send("PUT", "/bkt/o?partNumber=1&uploadId=\(id)", body: testBytes(1000)).header("ETag")
            )
            let etag2 = try #require(
                try await client.send("PUT", "/bkt/o?partNumber=2&uploadId=\(id)", body: testBytes(10)).header("ETag")
            )
            let wrongTag = try await client.send(
                "POST",
                "/bkt/o?uploadId=\(id)",
                body: completion([(1, "\"00\""), (2, etag2)])
            )
            #expect(wrongTag.status == 400)
            #expect(wrongTag.element("Code") == "InvalidPart")
            let missing = try await client.send(
                "POST",
                "/bkt/o?uploadId=\(id)",
                body: completion([(1, etag1), (3, etag2)])
            )
            #expect(missing.element("Code") == "InvalidPart")
            let order = try await client.send(
                "POST",
                "/bkt/o?uploadId=\(id)",
                body: completion([(2, etag2), (1, etag1)])
            )
            #expect(order.element("Code") == "InvalidPartOrder")
            let small = try await client.send(
                "POST",
                "/bkt/o?uploadId=\(id)",
                body: completion([(1, etag1), (2, etag2)])
            )
            #expect(small.element("Code") == "EntityTooSmall")
            let malformed = try await client.send("POST", "/bkt/o?uploadId=\(id)", body: Array("<Complete".utf8))
            #expect(malformed.element("Code") == "MalformedXML")
            #expect(try await client.send("GET", "/bkt/o?uploadId=\(id)").elements("PartNumber") == ["1", "2"])
            #expect(try await client.send("DELETE", "/bkt/o?uploadId=\(id)").status == 204)
            let aborted = try await client.send("PUT", "/bkt/o?partNumber=1&uploadId=\(id)", body: [1])
            #expect(aborted.status == 404)
            #expect(aborted.element("Code") == "NoSuchUpload")
            #expect(
                try await client.send("PUT", "/bkt/o?partNumber=0&uploadId=x", body: [1]).element("Code")
                    == "InvalidArgument"
            )
        }
    }

    @Test func ossAcceptsSmallPartsAndCombinesCRC() async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt", headers: ossDialect)
            let id = try await initiate(client, "/bkt/o", headers: ossDialect)
            let part1 = testBytes(100 * 1024, seed: 3)
            let part2 = testBytes(7, seed: 4)
            let etag1 = try #require(
                try await client.send("PUT", "/bkt/o?partNumber=1&uploadId=\(id)", headers: ossDialect, body: part1)
                    .header("ETag")
            )
            let etag2 = try #require(
                try await client.send("PUT", "/bkt/o?partNumber=2&uploadId=\(id)", headers: ossDialect, body: part2)
                    .header("ETag")
            )
            #expect(etag1 == etag1.uppercased())
            let complete = try await client.send(
                "POST",
                "/bkt/o?uploadId=\(id)",
                headers: ossDialect,
                body: completion([(1, etag1), (2, etag2)])
            )
            #expect(complete.status == 200)
            let head = try await client.send("HEAD", "/bkt/o", headers: ossDialect)
            #expect(head.header("x-oss-hash-crc64ecma") == String(CRC64.checksum(part1 + part2)))
            #expect(head.header("x-oss-object-type") == "Multipart")
        }
    }

    @Test func directoryStorageServesPartsInPlaceAcrossARestart() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("objstore-multipart-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = LocalObjectServer.Configuration(storage: .directory(directory), authentication: .anonymous)
        let parts = [testBytes(100 * 1024, seed: 3), testBytes(100 * 1024 + 7, seed: 4), testBytes(10, seed: 5)]
        let whole = parts.flatMap { $0 }
        try await withServer(configuration) { client, _ in
            _ = try await client.send("PUT", "/bkt", headers: ossDialect)
            let (_, complete) = try await uploadInParts(client, "/bkt/obj", parts, headers: ossDialect)
            #expect(complete.status == 200)
            #expect(try await client.send("GET", "/bkt/obj").body == whole)
            let across = try await client.send("GET", "/bkt/obj", headers: [("Range", "bytes=102000-204810")])
            #expect(across.status == 206)
            #expect(across.body == Array(whole[102_000...204_810]))
            let copy = try await client.send("PUT", "/bkt/copy", headers: [("x-amz-copy-source", "/bkt/obj")])
            #expect(copy.status == 200)
        }
        try await withServer(configuration) { client, _ in
            #expect(try await client.send("GET", "/bkt/obj").body == whole)
            #expect(try await client.send("GET", "/bkt/copy").body == whole)
            let tail = try await client.send("GET", "/bkt/obj", headers: [("Range", "bytes=-12")])
            #expect(tail.body == Array(whole.suffix(12)))
            _ = try await client.send("PUT", "/bkt/obj", body: [1, 2, 3])
            #expect(try await client.send("GET", "/bkt/obj").body == [1, 2, 3])
        }
        let dataFiles = try FileManager.default.contentsOfDirectory(atPath: directory + "/buckets/bkt/data")
        #expect(dataFiles.count == parts.count + 1)
    }

    @Test func s3PartNumberServesOnePartWithThePartCount() async throws {
        let parts = [testBytes(5 << 20, seed: 6), testBytes(5 << 20, seed: 7), testBytes(10, seed: 8)]
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt")
            let (_, complete) = try await uploadInParts(client, "/bkt/obj", parts, headers: [])
            #expect(complete.status == 200)
            let size = parts.reduce(0) { $0 + $1.count }
            let head = try await client.send("HEAD", "/bkt/obj?partNumber=1")
            #expect(head.status == 206)
            #expect(head.header("Content-Length") == String(5 << 20))
            #expect(head.header("Content-Range") == "bytes 0-\((5 << 20) - 1)/\(size)")
            #expect(head.header("x-amz-mp-parts-count") == "3")
            let last = try await client.send("GET", "/bkt/obj?partNumber=3")
            #expect(last.status == 206)
            #expect(last.body == parts[2])
            #expect(last.header("x-amz-mp-parts-count") == "3")
            #expect(try await client.send("GET", "/bkt/obj").header("x-amz-mp-parts-count") == nil)

            let beyond = try await client.send("GET", "/bkt/obj?partNumber=4")
            #expect(beyond.status == 416)
            #expect(beyond.element("Code") == "InvalidPartNumber")
            for invalid in ["0", "10001", "x", ""] {
                let response = try await client.send("GET", "/bkt/obj?partNumber=\(invalid)")
                #expect(response.status == 400, "partNumber=\(invalid)")
                #expect(response.element("Code") == "InvalidArgument")
            }
            let withRange = try await client.send("GET", "/bkt/obj?partNumber=1", headers: [("Range", "bytes=0-1")])
            #expect(withRange.status == 400)
            #expect(withRange.element("Code") == "InvalidRequest")

            // An object written by one PUT is one part: part 1 is all of it, without a part count.
            _ = try await client.send("PUT", "/bkt/single", body: [1, 2, 3])
            let single = try await client.send("GET", "/bkt/single?partNumber=1")
            #expect(single.status == 206)
            #expect(single.body == [1, 2, 3])
            #expect(single.header("x-amz-mp-parts-count") == nil)
            #expect(try await client.send("HEAD", "/bkt/single?partNumber=2").status == 416)
        }
    }

    @Test func contentReplacedOverAMultipartObjectIsOnePart() async throws {
        let faults = FaultInjector()
        faults.add(
            FaultRule(
                operations: [.headObject],
                key: "obj",
                trigger: .first(1),
                fault: .replaceContent(with: Array("new".utf8))
            )
        )
        let parts = [testBytes(5 << 20, seed: 9), testBytes(10, seed: 10)]
        try await withServer(faults: faults) { client, _ in
            _ = try await client.send("PUT", "/bkt")
            _ = try await uploadInParts(client, "/bkt/obj", parts, headers: [])
            // The fault replaces the object before this HEAD is answered: the new content is one part.
            let head = try await client.send("HEAD", "/bkt/obj?partNumber=1")
            #expect(head.status == 206)
            #expect(head.header("Content-Range") == "bytes 0-2/3")
            #expect(head.header("x-amz-mp-parts-count") == nil)
        }
    }
}
