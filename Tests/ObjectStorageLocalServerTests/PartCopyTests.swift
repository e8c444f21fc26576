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

/// One dialect as a raw client speaks it: the headers that select it and its header prefix.
struct CopyDialect: Sendable, CustomTestStringConvertible {
    var name: String
    var headers: [(String, String)]
    var prefix: String
    var testDescription: String { name }

    static let all = [
        CopyDialect(name: "oss", headers: ossDialect, prefix: "x-oss-"),
        CopyDialect(name: "obs", headers: obsDialect, prefix: "x-obs-"),
        CopyDialect(name: "s3", headers: [], prefix: "x-amz-"),
    ]

    /// The dialect's headers plus `extra` headers named without their prefix (`copy-source` → `x-oss-copy-source`).
    func with(_ extra: [(String, String)]) -> [(String, String)] {
        headers + extra.map { (prefix + $0.0, $0.1) }
    }

    /// An ETag as the dialect sends it: quoted, uppercase for OSS.
    func etag(of bytes: [UInt8]) -> String {
        let hex = ByteEncoding.hex(Hashing.MD5.hash(bytes))
        return "\"\(name == "oss" ? hex.uppercased() : hex)\""
    }
}

@Suite("UploadPartCopy and the copy limits")
struct PartCopyTests {
    static let mebibyte = 1 << 20

    @Test(arguments: CopyDialect.all)
    func copiesRangesIntoAMultipartObject(_ dialect: CopyDialect) async throws {
        let source = testBytes(11 * Self.mebibyte, seed: 7)
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/src", headers: dialect.headers)
            _ = try await client.send("PUT", "/dst", headers: dialect.headers)
            #expect(try await client.send("PUT", "/src/big", headers: dialect.headers, body: source).status == 200)
            let id = try await initiate(client, "/dst/copy", headers: dialect.with([("meta-kind", "copied")]))
            let ranges = [
                0..<(5 * Self.mebibyte), (5 * Self.mebibyte)..<(10 * Self.mebibyte),
                (10 * Self.mebibyte)..<source.count,
            ]
            var etags: [(Int, String)] = []
            for (index, range) in ranges.enumerated() {
                let part = try await client.send(
                    "PUT",
                    "/dst/copy?partNumber=\(index + 1)&uploadId=\(id)",
                    headers: dialect.with([
                        ("copy-source", "/src/big"),
                        ("copy-source-range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)"),
                    ])
                )
                #expect(part.status == 200)
                let expected = dialect.etag(of: Array(source[range]))
                #expect(part.body.starts(with: Array("<?xml".utf8)))
                #expect(part.element("ETag") == expected.replacingOccurrences(of: "\"", with: "&quot;"))
                #expect(part.element("LastModified") != nil)
                etags.append((index + 1, expected))
            }
            let listed = try await client.send("GET", "/dst/copy?uploadId=\(id)", headers: dialect.headers)
            #expect(listed.elements("Size") == ranges.map { String($0.count) })
            let complete = try await client.send(
                "POST",
                "/dst/copy?uploadId=\(id)",
                headers: dialect.headers,
                body: completion(etags)
            )
            #expect(complete.status == 200)
            let copy = try await client.send("GET", "/dst/copy", headers: dialect.headers)
            #expect(copy.body == source)
            #expect(copy.header(dialect.prefix + "meta-kind") == "copied")
        }
    }

    @Test(arguments: CopyDialect.all)
    func withoutARangeTheWholeSourceIsThePart(_ dialect: CopyDialect) async throws {
        let source = testBytes(300_000, seed: 2)
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt", headers: dialect.headers)
            _ = try await client.send("PUT", "/bkt/src", headers: dialect.headers, body: source)
            let id = try await initiate(client, "/bkt/dst", headers: dialect.headers)
            let part = try await client.send(
                "PUT",
                "/bkt/dst?partNumber=1&uploadId=\(id)",
                headers: dialect.with([("copy-source", "/bkt/src")])
            )
            #expect(part.status == 200)
            let complete = try await client.send(
                "POST",
                "/bkt/dst?uploadId=\(id)",
                headers: dialect.headers,
                body: completion([(1, dialect.etag(of: source))])
            )
            #expect(complete.status == 200)
            #expect(try await client.send("GET", "/bkt/dst", headers: dialect.headers).body == source)
        }
    }

    @Test(arguments: CopyDialect.all)
    func copySourceConditionsFailWith412(_ dialect: CopyDialect) async throws {
        let source = testBytes(1000, seed: 3)
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt", headers: dialect.headers)
            _ = try await client.send("PUT", "/bkt/src", headers: dialect.headers, body: source)
            let id = try await initiate(client, "/bkt/dst", headers: dialect.headers)
            let current = dialect.etag(of: source)
            let past = "Tue, 01 Jan 2019 00:00:00 GMT"
            let future = "Fri, 01 Jan 2100 00:00:00 GMT"
            let failing: [(String, String)] = [
                ("copy-source-if-match", "\"0123456789abcdef0123456789abcdef\""),
                ("copy-source-if-none-match", current),
                ("copy-source-if-modified-since", future),
                ("copy-source-if-unmodified-since", past),
            ]
            for condition in failing {
                let part = try await client.send(
                    "PUT",
                    "/bkt/dst?partNumber=1&uploadId=\(id)",
                    headers: dialect.with([("copy-source", "/bkt/src"), condition])
                )
                #expect(part.status == 412, "\(condition.0)")
                #expect(part.element("Code") == "PreconditionFailed", "\(condition.0)")
                let copy = try await client.send(
                    "PUT",
                    "/bkt/whole",
                    headers: dialect.with([("copy-source", "/bkt/src"), condition])
                )
                #expect(copy.status == 412, "CopyObject \(condition.0)")
            }
            #expect(
                try await client.send("GET", "/bkt/dst?uploadId=\(id)", headers: dialect.headers).elements("Size") == []
            )
            // If-Match outranks If-Unmodified-Since, as in S3; conditions that hold copy.
            let holding: [[(String, String)]] = [
                [("copy-source-if-match", current), ("copy-source-if-unmodified-since", past)],
                [("copy-source-if-none-match", "\"0123456789abcdef0123456789abcdef\"")],
                [("copy-source-if-modified-since", past), ("copy-source-if-unmodified-since", future)],
            ]
            for conditions in holding {
                let part = try await client.send(
                    "PUT",
                    "/bkt/dst?partNumber=1&uploadId=\(id)",
                    headers: dialect.with([("copy-source", "/bkt/src")] + conditions)
                )
                #expect(part.status == 200, "\(conditions.map(\.0))")
            }
        }
    }

    @Test(arguments: CopyDialect.all)
    func badRangesAndMissingThingsAreRefused(_ dialect: CopyDialect) async throws {
        try await withServer { client, _ in
            _ = try await client.send("PUT", "/bkt", headers: dialect.headers)
            _ = try await client.send("PUT", "/bkt/src", headers: dialect.headers, body: testBytes(100))
            let id = try await initiate(client, "/bkt/dst", headers: dialect.headers)
            for range in ["bytes=0-", "bytes=-10", "bytes=5-2", "0-10", "bytes=a-b", "bytes=0-1,3-4"] {
                let part = try await client.send(
                    "PUT",
                    "/bkt/dst?partNumber=1&uploadId=\(id)",
                    headers: dialect.with([("copy-source", "/bkt/src"), ("copy-source-range", range)])
                )
                #expect(part.status == 400, "\(range)")
                #expect(part.element("Code") == "InvalidArgument", "\(range)")
                #expect(part.element("ArgumentName") == dialect.prefix + "copy-source-range", "\(range)")
            }
            let past = try await client.send(
                "PUT",
                "/bkt/dst?partNumber=1&uploadId=\(id)",
                headers: dialect.with([("copy-source", "/bkt/src"), ("copy-source-range", "bytes=50-100")])
            )
            #expect(past.status == 400)
            #expect(past.element("Message") == "Range specified is not valid for source object of size: 100")
            let missingSource = try await client.send(
                "PUT",
                "/bkt/dst?partNumber=1&uploadId=\(id)",
                headers: dialect.with([("copy-source", "/bkt/none")])
            )
            #expect(missingSource.status == 404)
            #expect(missingSource.element("Code") == "NoSuchKey")
            let missingUpload = try await client.send(
                "PUT",
                "/bkt/dst?partNumber=1&uploadId=0000",
                headers: dialect.with([("copy-source", "/bkt/src")])
            )
            #expect(missingUpload.status == 404)
            #expect(missingUpload.element("Code") == "NoSuchUpload")
        }
    }

    @Test(arguments: CopyDialect.all)
    func copyObjectRefusesASourceOverTheLimitAndPartCopyTakesIt(_ dialect: CopyDialect) async throws {
        var configuration = LocalObjectServer.Configuration(storage: .memory, authentication: .anonymous)
        configuration.maximumCopyObjectSourceSize = 150_000
        let small = testBytes(150_000, seed: 4)
        let large = testBytes(150_001, seed: 5)
        try await withServer(configuration) { client, _ in
            _ = try await client.send("PUT", "/bkt", headers: dialect.headers)
            _ = try await client.send("PUT", "/bkt/small", headers: dialect.headers, body: small)
            _ = try await client.send("PUT", "/bkt/large", headers: dialect.headers, body: large)
            let fits = try await client.send("PUT", "/bkt/c1", headers: dialect.with([("copy-source", "/bkt/small")]))
            #expect(fits.status == 200)
            let refused = try await client.send(
                "PUT",
                "/bkt/c2",
                headers: dialect.with([("copy-source", "/bkt/large")])
            )
            #expect(refused.status == 400)
            if dialect.name == "oss" {
                #expect(refused.element("Code") == "EntityTooLarge")
                #expect(refused.element("Message") == "Source object Length exceeds the maximum allowed size.")
            } else {
                #expect(refused.element("Code") == "InvalidRequest")
                #expect(
                    refused.element("Message")
                        == "The specified copy source is larger than the maximum allowable size for a copy source: 150000"
                )
            }
            #expect(try await client.send("HEAD", "/bkt/c2", headers: dialect.headers).status == 404)
            let id = try await initiate(client, "/bkt/c2", headers: dialect.headers)
            let part = try await client.send(
                "PUT",
                "/bkt/c2?partNumber=1&uploadId=\(id)",
                headers: dialect.with([("copy-source", "/bkt/large")])
            )
            #expect(part.status == 200)
            let complete = try await client.send(
                "POST",
                "/bkt/c2?uploadId=\(id)",
                headers: dialect.headers,
                body: completion([(1, dialect.etag(of: large))])
            )
            #expect(complete.status == 200)
            #expect(try await client.send("GET", "/bkt/c2", headers: dialect.headers).body == large)
        }
    }

    @Test func directoryStorageCopiesARangeAcrossTheSourcesParts() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("objstore-part-copy-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = LocalObjectServer.Configuration(storage: .directory(directory), authentication: .anonymous)
        let parts = [testBytes(2 * Self.mebibyte, seed: 3), testBytes(100 * 1024 + 7, seed: 4)]
        let whole = parts.flatMap { $0 }
        try await withServer(configuration) { client, _ in
            _ = try await client.send("PUT", "/bkt", headers: ossDialect)
            _ = try await uploadInParts(client, "/bkt/obj", parts, headers: ossDialect)
            let id = try await initiate(client, "/bkt/copy", headers: ossDialect)
            let range = (Self.mebibyte + 5)...(whole.count - 3)
            let part = try await client.send(
                "PUT",
                "/bkt/copy?partNumber=1&uploadId=\(id)",
                headers: ossDialect + [
                    ("x-oss-copy-source", "/bkt/obj"),
                    ("x-oss-copy-source-range", "bytes=\(range.lowerBound)-\(range.upperBound)"),
                ]
            )
            #expect(part.status == 200)
            #expect(part.header("x-oss-hash-crc64ecma") == String(CRC64.checksum(Array(whole[range]))))
            let complete = try await client.send(
                "POST",
                "/bkt/copy?uploadId=\(id)",
                headers: ossDialect,
                body: completion([(1, CopyDialect.all[0].etag(of: Array(whole[range])))])
            )
            #expect(complete.status == 200)
        }
        let restarted = try await withServer(configuration) { client, _ in try await client.send("GET", "/bkt/copy") }
        #expect(restarted.body == Array(whole[(Self.mebibyte + 5)...(whole.count - 3)]))
    }
}
