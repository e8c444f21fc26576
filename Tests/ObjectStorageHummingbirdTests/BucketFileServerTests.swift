//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import ObjectStorage
import ObjectStorageHummingbird
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

/// `BucketFileServer` in a live Hummingbird app on 127.0.0.1, backed by the local server speaking S3 (which answers
/// ranges as RFC 9110 does) and OSS (which by default answers a range past the end with the whole object), driven
/// with real HTTP by `curl`.
@Suite("Serving files from a bucket", .enabled(if: Curl.isAvailable, "needs curl"))
struct BucketFileServerTests {
    /// 1000 bytes, `i % 251` at offset `i`: any slice is easy to check.
    static let content = (0..<1000).map { UInt8($0 % 251) }

    @Test("GET serves the whole object with its headers; HEAD the same headers without a body", arguments: vendors)
    func wholeObject(vendor: StorageVendor) async throws {
        try await Self.withFileServer(vendor: vendor) { base, _ in
            let whole = try await Curl.run(base + "/files/dir/data.bin")
            #expect(whole.status == 200)
            #expect(whole.body == Self.content)
            #expect(whole[header: "Content-Length"] == "1000")
            #expect(whole[header: "Content-Type"] == "application/x-test")
            #expect(whole[header: "Accept-Ranges"] == "bytes")
            #expect(whole[header: "ETag"]?.hasPrefix("\"") == true)
            #expect(whole[header: "Last-Modified"]?.hasSuffix(" GMT") == true)
            #expect(whole[header: "Content-Range"] == nil)

            let head = try await Curl.run(base + "/files/dir/data.bin", method: "HEAD")
            #expect(head.status == 200)
            #expect(head[header: "Content-Length"] == "1000")
            #expect(head[header: "Content-Type"] == "application/x-test")
            #expect(head[header: "Accept-Ranges"] == "bytes")
            #expect(head[header: "ETag"] == whole[header: "ETag"])
            #expect(head[header: "Last-Modified"] == whole[header: "Last-Modified"])
        }
    }

    @Test("A single range is 206 with its bytes and Content-Range", arguments: vendors)
    func singleRanges(vendor: StorageVendor) async throws {
        try await Self.withFileServer(vendor: vendor) { base, _ in
            let cases: [(range: String, first: Int, last: Int)] = [
                ("bytes=10-19", 10, 19), ("bytes=-5", 995, 999), ("bytes=100-", 100, 999),
                // A last byte past the end is clamped (OSS answers it with the whole object: a second, pinned GET).
                ("bytes=990-5000", 990, 999), ("bytes=0-", 0, 999), ("bytes=-5000", 0, 999),
            ]
            for (range, first, last) in cases {
                let response = try await Curl.run(base + "/files/dir/data.bin", headers: ["Range: \(range)"])
                #expect(response.status == 206, "\(range)")
                #expect(response.body == Array(Self.content[first...last]), "\(range)")
                #expect(response[header: "Content-Range"] == "bytes \(first)-\(last)/1000", "\(range)")
                #expect(response[header: "Content-Length"] == "\(last - first + 1)", "\(range)")
                #expect(response[header: "Accept-Ranges"] == "bytes", "\(range)")
            }
        }
    }

    @Test("Several ranges and malformed ranges are ignored: 200, the whole object", arguments: vendors)
    func ignoredRanges(vendor: StorageVendor) async throws {
        try await Self.withFileServer(vendor: vendor) { base, _ in
            for range in ["bytes=0-1,5-6", "bytes=abc", "bytes=5-2", "items=0-5", "bytes=-", "bytes=1-2-3"] {
                let response = try await Curl.run(base + "/files/dir/data.bin", headers: ["Range: \(range)"])
                #expect(response.status == 200, "\(range)")
                #expect(response.body == Self.content, "\(range)")
                #expect(response[header: "Content-Range"] == nil, "\(range)")
            }
        }
    }

    @Test("A range outside the object is 416 with Content-Range: bytes */SIZE", arguments: vendors)
    func unsatisfiableRanges(vendor: StorageVendor) async throws {
        try await Self.withFileServer(vendor: vendor) { base, _ in
            for range in ["bytes=1000-", "bytes=5000-6000"] {
                let response = try await Curl.run(base + "/files/dir/data.bin", headers: ["Range: \(range)"])
                #expect(response.status == 416, "\(range)")
                #expect(response[header: "Content-Range"] == "bytes */1000", "\(range)")
            }
        }
    }

    @Test("If-None-Match and If-Modified-Since answer 304; If-Range keeps or voids the range", arguments: vendors)
    func conditions(vendor: StorageVendor) async throws {
        try await Self.withFileServer(vendor: vendor) { base, _ in
            let url = base + "/files/dir/data.bin"
            let whole = try await Curl.run(url)
            let etag = try #require(whole[header: "ETag"])
            let lastModified = try #require(whole[header: "Last-Modified"])

            let notModified = try await Curl.run(url, headers: ["If-None-Match: \(etag)"])
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(notModified[header: "ETag"] == etag)
            let changed = try await Curl.run(url, headers: ["If-None-Match: \"another\""])
            #expect(changed.status == 200)
            #expect(changed.body == Self.content)
            let notModifiedSince = try await Curl.run(url, headers: ["If-Modified-Since: \(lastModified)"])
            #expect(notModifiedSince.status == 304)
            #expect(notModifiedSince[header: "ETag"] == etag)
            let modifiedSince = try await Curl.run(url, headers: ["If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT"])
            #expect(modifiedSince.status == 200)
            let headNotModified = try await Curl.run(url, method: "HEAD", headers: ["If-None-Match: \(etag)"])
            #expect(headNotModified.status == 304)
            let headSince = try await Curl.run(url, method: "HEAD", headers: ["If-Modified-Since: \(lastModified)"])
            #expect(headSince.status == 304)

            let ranged = ["Range: bytes=10-19"]
            for validator in [etag, lastModified] {
                let matching = try await Curl.run(url, headers: ranged + ["If-Range: \(validator)"])
                #expect(matching.status == 206, "\(validator)")
                #expect(matching.body == Array(Self.content[10...19]), "\(validator)")
                #expect(matching[header: "Content-Range"] == "bytes 10-19/1000", "\(validator)")
            }
            for validator in ["\"another\"", "W/\(etag)", "Sun, 06 Nov 1994 08:49:37 GMT", "nonsense"] {
                let other = try await Curl.run(url, headers: ranged + ["If-Range: \(validator)"])
                #expect(other.status == 200, "\(validator)")
                #expect(other.body == Self.content, "\(validator)")
                #expect(other[header: "Content-Range"] == nil, "\(validator)")
            }
            // An unsatisfiable range with a stale If-Range is void too: the whole object.
            let staleOutside = try await Curl.run(url, headers: ["Range: bytes=5000-", "If-Range: \"another\""])
            #expect(staleOutside.status == 200)
            #expect(staleOutside.body == Self.content)
        }
    }

    @Test("A key that could leave the prefix is 400 and never reaches the bucket; a missing key is 404")
    func keys() async throws {
        try await Self.withFileServer(vendor: .s3) { base, _ in
            // The object outside the prefix exists: only the refusal keeps it from being served.
            for path in [
                "/files/../secret.txt", "/files/dir/../../secret.txt", "/files/%2E%2E/secret.txt",
                "/files/dir/%2e%2e/%2e%2e/secret.txt", "/files/dir/%01data.bin", "/files/dir/data.bin%7F",
                "/files/dir//data.bin", "/files/%2Fsecret.txt", "/files/./dir/data.bin", "/files/dir/", "/files/%zz",
            ] {
                let response = try await Curl.run(base + path)
                #expect(response.status == 400, "\(path)")
                #expect(response.body != Array("outside the prefix".utf8), "\(path)")
            }
            #expect(try await Curl.run(base + "/files/missing.bin").status == 404)
            #expect(try await Curl.run(base + "/files/missing.bin", method: "HEAD").status == 404)
            // Percent-escapes are decoded: a key with a space.
            let spaced = try await Curl.run(base + "/files/dir/a%20b.txt")
            #expect(spaced.status == 200)
            #expect(spaced.body == Array("spaced".utf8))
        }
    }

    static let vendors: [StorageVendor] = [.s3, .oss]

    /// Runs `body` with the base URL of a live app serving `/files/KEY` from bucket `files`, prefix `site/`, which
    /// holds `site/dir/data.bin` (``content``), `site/dir/a b.txt` and, outside the prefix,
    /// `secret.txt`.
    @Test("A client that disconnects mid-body cancels the bucket GET: the server stops sending")
    func disconnectCancelsTheBucketGET() async throws {
        var logHandler = InMemoryLogHandler()
        logHandler.logLevel = .info
        let handler = logHandler
        let serverLogger = Logger(label: "files-server") { _ in handler }
        let faults = FaultInjector()
        let size = 8 << 20
        try await Self.withFileServer(vendor: .s3, faults: faults, serverLogger: serverLogger) { base, client in
            let big = PutObjectRequest(
                bucket: "files",
                key: "site/big.bin",
                body: .bytes(ByteBuffer(repeating: 7, count: size))
            )
            try await client.putObject(big)
            faults.add(FaultRule(operations: [.getObject], fault: .bandwidthLimit(bytesPerSecond: 1 << 20)))
            // curl gives up after a second, closing the connection with most of the 8 s body still to come.
            await #expect(throws: CurlError.self) { _ = try await Curl.run(base + "/files/big.bin", maxTime: 1) }
            // The server logs the GET when it ends: cut short, or complete after the 8 s the whole object takes.
            let lines = try await ServerRequestLog.waitForGetObjectToEnd(in: handler, size: size)
            let cut = lines.first { $0.outcome != "complete" }
            #expect(cut != nil, "server lines: \(lines)")
            #expect((cut?.sent ?? size) < size)
        }
    }

    static func withFileServer(
        vendor: StorageVendor,
        faults: FaultInjector = FaultInjector(),
        serverLogger: Logger? = nil,
        _ body: @Sendable @escaping (_ base: String, _ client: ObjectStorageClient) async throws -> Void
    ) async throws {
        try await LocalObjectServer.withRunning(vendor: vendor, faults: faults, logger: serverLogger) { client, _ in
            try await client.createBucket(bucket: "files")
            var data = PutObjectRequest(
                bucket: "files",
                key: "site/dir/data.bin",
                body: .bytes(ByteBuffer(bytes: content))
            )
            data.attributes.contentType = "application/x-test"
            try await client.putObject(data)
            for (key, text) in [("site/dir/a b.txt", "spaced"), ("secret.txt", "outside the prefix")] {
                try await client.putObject(
                    PutObjectRequest(bucket: "files", key: key, body: .bytes(ByteBuffer(string: text)))
                )
            }
            let files = BucketFileServer(client: client, bucket: "files", keyPrefix: "site/")
            let router = Router()
            for method in [HTTPRequest.Method.get, .head] {
                router.on("files/**", method: method) { request, _ in
                    try await files.response(to: request, pathPrefix: "/files/")
                }
            }
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { http in
                let port = try #require(http.port)
                try await body("http://127.0.0.1:\(port)", client)
            }
        }
    }
}
