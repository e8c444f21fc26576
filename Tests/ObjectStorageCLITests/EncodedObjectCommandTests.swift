//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageTestSupport
import Testing

/// `cat` and `cp` return an object stored with `Content-Encoding: gzip` byte for byte, never inflated.
struct EncodedObjectCommandTests {
    /// 1,120 bytes of text, gzip-compressed to 84 bytes (Python's gzip, mtime 0).
    static let gzipped: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff, 0xcb, 0x4f, 0xca, 0x4a, 0x4d, 0x2e, 0x51, 0x28,
        0x2e, 0xc9, 0x2f, 0x4a, 0x4c, 0x4f, 0x55, 0x28, 0x4a, 0x2d, 0x29, 0x2d, 0xca, 0x2b, 0x56, 0x28, 0xc9, 0x48,
        0x05, 0x8b, 0xa5, 0xa6, 0x28, 0x24, 0x55, 0x96, 0xa4, 0x16, 0xeb, 0x28, 0xe4, 0xa5, 0x96, 0xa5, 0x16, 0x29,
        0x64, 0xe6, 0xa5, 0xe5, 0x24, 0x96, 0xa4, 0xa6, 0x70, 0xe5, 0x8f, 0xea, 0x1b, 0xd5, 0x37, 0xaa, 0x6f, 0x54,
        0x1f, 0x01, 0x7d, 0x00, 0x68, 0xe1, 0xef, 0xb0, 0x60, 0x04, 0x00, 0x00,
    ]

    @Test func catAndCpWriteTheStoredBytesOfAGzipEncodedObject() async throws {
        // Unsigned requests are accepted, so the test can store the object with a hand-built PUT carrying the header.
        let server = try await ObjectsLocalServer.start(arguments: ["--log-level", "warning", "--anonymous"])
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        try await cli.succeed(["mb", "s3://enc"])
        let answer = try await RawHTTPExchange.send(
            RawHTTPExchange.request("PUT", "/enc/log.gz", headers: [("Content-Encoding", "gzip")], body: Self.gzipped),
            port: server.port
        )
        #expect(String(decoding: answer.prefix(12), as: UTF8.self) == "HTTP/1.1 200")

        let cat = try await cli.run(["cat", "s3://enc/log.gz"])
        #expect(cat.status == 0, "\(cat.standardError)")
        #expect(cat.standardOutputBytes == Self.gzipped)

        let scratch = try ObjectsScratch()
        let file = scratch.path("log.gz")
        try await cli.succeed(["cp", "s3://enc/log.gz", file])
        #expect(FileManager.default.contents(atPath: file).map(Array.init) == Self.gzipped)
    }
}
