//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTestSupport
import Synchronization
import Testing

/// A directory download checks each small object against what its listing and its answer promise, and keeps no
/// file of one whose bytes contradict them; keys whose paths no system could hold are skipped, and `--delete`
/// still runs.
@Suite("Directory downloads verify small objects", .timeLimit(.minutes(2)))
struct DirectoryDownloadVerificationTests {
    static let good = Array("hello".utf8)

    /// A server that lists four 5-byte objects and serves: `good` as listed; `bad-md5` with other bytes than its
    /// MD5 ETag; `huge-length` with a `Content-Length` of 40 MiB; `huge-chunked` with 1 MiB of chunked body.
    static func lyingServer() async throws -> RawHTTPServer {
        try await RawHTTPServer.start { request in
            let md5 = ByteEncoding.hex(Self.good.withUnsafeBytes { Hashing.MD5.hash(bufferPointer: $0) })
            let headers = [("ETag", "\"\(md5)\""), ("Last-Modified", "Wed, 01 Jan 2025 00:00:00 GMT")]
            let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
            switch path {
            case "/b", "/b/":
                let contents = ["bad-md5", "good", "huge-chunked", "huge-length"].map { key in
                    "<Contents><Key>\(key)</Key><Size>5</Size><ETag>&quot;\(md5)&quot;</ETag>"
                        + "<LastModified>2025-01-01T00:00:00.000Z</LastModified></Contents>"
                }
                let xml =
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult><Name>b</Name><Prefix></Prefix>"
                    + "<KeyCount>4</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>"
                    + contents.joined() + "</ListBucketResult>"
                return .response("200 OK", headers: [("Content-Type", "application/xml")], body: Array(xml.utf8))
            case "/b/good":
                return .response("200 OK", headers: headers, body: Self.good)
            case "/b/bad-md5":
                return .response("200 OK", headers: headers, body: Array("jello".utf8))
            case "/b/huge-length":
                return .response("200 OK", headers: headers, body: [UInt8](repeating: 0x78, count: 40 << 20))
            case "/b/huge-chunked":
                var bytes = RawReply.head(
                    "200 OK",
                    headers: headers + [("Transfer-Encoding", "chunked")],
                    contentLength: nil
                )
                let chunk = [UInt8](repeating: 0x79, count: 64 << 10)
                for _ in 0..<16 {
                    bytes += Array("\(String(chunk.count, radix: 16))\r\n".utf8) + chunk + Array("\r\n".utf8)
                }
                bytes += Array("0\r\n\r\n".utf8)
                return .bytes(bytes)
            default:
                return .response("404 Not Found")
            }
        }
    }

    static func client(_ server: RawHTTPServer) throws -> ObjectStorageClient {
        var configuration = ObjectStorageClient.Configuration(
            vendor: .s3,
            endpoint: try Endpoint(url: server.url("")),
            region: "us-east-1",
            credentials: .static(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
        )
        configuration.retry = .exponentialJitter(maxAttempts: 1)
        return ObjectStorageClient(configuration: configuration, logger: .scanning)
    }

    @Test("an object whose bytes contradict its listing or its ETag fails, and no file of it is kept")
    func contradictingObjectsFail() async throws {
        let server = try await Self.lyingServer()
        defer { Task { try? await server.stop() } }
        let scratch = try Scratch()
        let directory = scratch.file("out")
        let failures = FailureLog()
        let summary = try await Self.client(server).downloadDirectory(
            bucket: "b",
            to: directory,
            events: { event in
                if case .transferFailed(let name, let error) = event { failures.record(name, "\(error)") }
            }
        )
        #expect(summary.transferred == 1)
        #expect(summary.failed == 3)
        #expect(scratch.listing() == ["existing.bin", "out", "out/good"])
        #expect(FileManager.default.contents(atPath: directory + "/good") == Data(Self.good))
        let reasons = failures.reasons
        #expect(reasons["bad-md5"]?.contains("MD5") == true, "\(reasons)")
        #expect(
            reasons["huge-length"]?.contains("41943040 bytes for an object listed at 5 bytes") == true,
            "\(reasons)"
        )
        #expect(reasons["huge-chunked"]?.contains("more than the 5 bytes") == true, "\(reasons)")
    }

    @Test("getObject(toFile:) checks the MD5 of a plain ETag and keeps no file when it differs")
    func singleFileChecksTheETag() async throws {
        let server = try await Self.lyingServer()
        defer { Task { try? await server.stop() } }
        let scratch = try Scratch()
        let client = try Self.client(server)
        await #expect(
            performing: {
                try await client.getObject(GetObjectRequest(bucket: "b", key: "bad-md5"), toFile: scratch.file("f"))
            },
            throws: { ($0 as? ObjectStorageError)?.code == .integrityMismatch }
        )
        #expect(scratch.listing() == ["existing.bin"])
        try await client.getObject(GetObjectRequest(bucket: "b", key: "good"), toFile: scratch.file("f"))
        #expect(FileManager.default.contents(atPath: scratch.file("f")) == Data(Self.good))
    }
}

extension DirectoryDownloadVerificationTests {
    @Test("a key whose local path would pass PATH_MAX is skipped before any directory is made, and --delete runs")
    func overlongPathIsSkipped() async throws {
        let fixture = try await ServerFixture.start()
        do {
            let client = try fixture.client(.s3)
            let longKey =
                "mirror/" + Array(repeating: String(repeating: "k", count: 240), count: 4).joined(separator: "/")
            try await client.putObject(PutObjectRequest(bucket: "bkt", key: longKey, body: .bytes([7])))
            try await client.putObject(PutObjectRequest(bucket: "bkt", key: "mirror/kept", body: .bytes([1, 2])))
            let scratch = try Scratch()
            // A deep local directory: with the key's 963 bytes its path passes 4,095.
            let directory = scratch.file(
                Array(repeating: String(repeating: "d", count: 250), count: 13).joined(separator: "/")
            )
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data("stale".utf8).write(to: URL(fileURLWithPath: directory + "/stale"))
            var options = DirectoryTransferOptions()
            options.comparison = .sizeAndModificationTime
            options.deletesExtraneous = true
            let skipped = FailureLog()
            let summary = try await client.downloadDirectory(
                bucket: "bkt",
                prefix: "mirror/",
                to: directory,
                options: options,
                events: { event in
                    if case .skipped(let name, let reason) = event { skipped.record(name, reason) }
                }
            )
            #expect(summary.transferred == 1)
            #expect(summary.skipped == 1)
            #expect(summary.deleted == 1, "a skipped name withholds no deletion")
            #expect(summary.failed == 0)
            #expect(skipped.reasons.values.first?.contains("PATH_MAX") == true, "\(skipped.reasons)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["kept"])
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }
}

/// The failures a job reported, by name.
final class FailureLog: Sendable {
    private let storage = Mutex<[String: String]>([:])

    func record(_ name: String, _ reason: String) {
        self.storage.withLock { $0[name] = reason }
    }

    var reasons: [String: String] { self.storage.withLock { $0 } }
}
