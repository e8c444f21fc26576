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
    static let gzipped = gzippedText

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
