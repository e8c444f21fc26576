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

/// Bodies of 1 MiB and more on directory storage, which the server writes and reads with direct I/O where the
/// file system allows it (whole aligned pages): sizes and ranges that are not page multiples, part boundaries
/// inside a page, digests, rejection and restart.
@Suite("Large bodies on disk")
struct LargeBodyTests {
    private static let mebibyte = 1 << 20

    private func withDirectory(
        _ body: (LocalObjectServer.Configuration, _ directory: String) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("objstore-large-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = LocalObjectServer.Configuration(storage: .directory(directory), authentication: .anonymous)
        try await body(configuration, directory)
    }

    private func expectRanges(_ client: TestClient, _ path: String, _ whole: [UInt8]) async throws {
        let last = whole.count - 1
        let ranges: [(String, ClosedRange<Int>)] = [
            ("bytes=4097-1048600", 4097...1_048_600),
            ("bytes=1048570-1048590", 1_048_570...1_048_590),
            ("bytes=1-\(last - 1)", 1...(last - 1)),
            ("bytes=\(last)-", last...last),
            ("bytes=-4099", (whole.count - 4099)...last),
        ]
        for (header, expected) in ranges {
            let response = try await client.send("GET", path, headers: [("Range", header)])
            #expect(response.status == 206, "\(header)")
            #expect(response.body == Array(whole[expected]), "\(header)")
        }
    }

    @Test func unalignedObjectRoundTripsAndSurvivesARestart() async throws {
        let body = testBytes(3 * Self.mebibyte + 1234, seed: 11)
        let md5 = Hashing.MD5.hash(body)
        try await withDirectory { configuration, _ in
            try await withServer(configuration) { client, _ in
                _ = try await client.send("PUT", "/bkt")
                let put = try await client.send(
                    "PUT",
                    "/bkt/large",
                    headers: [("Content-MD5", ByteEncoding.base64(md5))],
                    body: body
                )
                #expect(put.status == 200)
                #expect(put.header("ETag") == "\"\(ByteEncoding.hex(md5))\"")
                let get = try await client.send("GET", "/bkt/large")
                #expect(get.body == body)
                #expect(get.header("Content-Length") == String(body.count))
                try await expectRanges(client, "/bkt/large", body)
            }
            try await withServer(configuration) { client, _ in
                #expect(try await client.send("GET", "/bkt/large").body == body)
                try await expectRanges(client, "/bkt/large", body)
                let replacement = testBytes(Self.mebibyte + 1, seed: 12)
                #expect(try await client.send("PUT", "/bkt/large", body: replacement).status == 200)
                #expect(try await client.send("GET", "/bkt/large").body == replacement)
            }
        }
    }

    @Test func largePartsWithUnalignedSizesAreServedInPlace() async throws {
        let parts = [
            testBytes(Self.mebibyte + 4097, seed: 21),
            testBytes(2 * Self.mebibyte - 1, seed: 22),
            testBytes(Self.mebibyte + 1, seed: 23),
            testBytes(10, seed: 24),
        ]
        let whole = parts.flatMap { $0 }
        try await withDirectory { configuration, _ in
            try await withServer(configuration) { client, _ in
                _ = try await client.send("PUT", "/bkt", headers: ossDialect)
                let (etags, complete) = try await uploadInParts(client, "/bkt/obj", parts, headers: ossDialect)
                #expect(etags == parts.map { "\"\(ByteEncoding.hex(Hashing.MD5.hash($0)).uppercased())\"" })
                #expect(complete.status == 200)
                var crc = CRC64()
                crc.update(whole)
                #expect(complete.header("x-oss-hash-crc64ecma") == String(crc.value))
                #expect(try await client.send("GET", "/bkt/obj").body == whole)
                try await expectRanges(client, "/bkt/obj", whole)
                // Across the first part boundary (inside a page on both sides) and across every part.
                let boundary = parts[0].count
                for (start, end) in [(boundary - 5, boundary + 5), (boundary - 4100, whole.count - 3)] {
                    let range = [("Range", "bytes=\(start)-\(end)")]
                    let response = try await client.send("GET", "/bkt/obj", headers: range)
                    #expect(response.body == Array(whole[start...end]))
                }
            }
        }
    }

    @Test func wrongDigestOnALargeBodyLeavesNothingBehind() async throws {
        let body = testBytes(2 * Self.mebibyte + 3, seed: 31)
        try await withDirectory { configuration, directory in
            try await withServer(configuration) { client, _ in
                _ = try await client.send("PUT", "/bkt")
                let wrong = ByteEncoding.base64(Hashing.MD5.hash(Array(body.dropLast())))
                let put = try await client.send("PUT", "/bkt/large", headers: [("Content-MD5", wrong)], body: body)
                #expect(put.status == 400)
                #expect(put.element("Code") == "BadDigest")
                #expect(try await client.send("GET", "/bkt/large").element("Code") == "NoSuchKey")
                let sha256 = try await client.send(
                    "PUT",
                    "/bkt/large",
                    headers: [("x-amz-content-sha256", ByteEncoding.hex(Hashing.SHA256.hash(Array(body.dropLast()))))],
                    body: body
                )
                #expect(sha256.status == 400)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/tmp").isEmpty)
        }
    }

    /// More parts than a reader opens at once: completing keeps the part files (no file of the whole object is
    /// written), and the object reads back whole, in a range across part boundaries, and after a restart.
    @Test func objectOfMorePartsThanOpenFilesIsServedWithoutACopy() async throws {
        let count = 300  // more than the 256 files a reader opens at once
        let parts = (0..<count).map { testBytes(102_400 + $0, seed: UInt8(truncatingIfNeeded: $0)) }
        let whole = parts.flatMap { $0 }
        let boundary = parts[0..<150].reduce(0) { $0 + $1.count }
        try await withDirectory { configuration, directory in
            try await withServer(configuration) { client, _ in
                _ = try await client.send("PUT", "/bkt", headers: ossDialect)
                let (_, completed) = try await uploadInParts(client, "/bkt/many", parts, headers: ossDialect)
                #expect(completed.status == 200)
                #expect(try await client.send("GET", "/bkt/many", headers: ossDialect).body == whole)
                let range = try await client.send(
                    "GET",
                    "/bkt/many",
                    headers: ossDialect + [("Range", "bytes=\(boundary - 10)-\(boundary + 204_800)")]
                )
                #expect(range.status == 206)
                #expect(range.body == Array(whole[(boundary - 10)...(boundary + 204_800)]))
            }
            let stored = FileManager.default.enumerator(atPath: directory)?.compactMap { entry -> Int? in
                let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + "\(entry)")
                guard attributes?[.type] as? FileAttributeType == .typeRegular else { return nil }
                return (attributes?[.size] as? NSNumber)?.intValue
            }
            #expect((stored ?? []).reduce(0, +) >= whole.count)
            #expect((stored ?? []).max() ?? 0 < 1 << 20, "the parts were concatenated into one file on completion")
            try await withServer(configuration) { client, _ in
                let afterRestart = try await client.send("GET", "/bkt/many", headers: ossDialect)
                #expect(afterRestart.body == whole)
            }
        }
    }
}
