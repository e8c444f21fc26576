//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

@Suite("ByteRange from a Range header value")
struct ByteRangeHeaderTests {
    @Test(
        "the three single-range forms",
        arguments: [
            ("bytes=0-99", ByteRange.bytes(0...99)),
            ("bytes=100-", .from(100)),
            ("bytes=-500", .suffix(500)),
            ("  BYTES=5-5\t", .bytes(5...5)),
            ("bytes=0-9223372036854775807", .bytes(0...Int64.max)),
        ]
    )
    func parsesSingleRanges(_ value: String, _ expected: ByteRange) {
        #expect(ByteRange(httpRangeHeader: value) == expected)
        #expect(ByteRange(httpRangeHeader: expected.description) == expected)
    }

    @Test(
        "anything else is refused without trapping",
        arguments: [
            "", "bytes=", "bytes=-", "bytes=--5", "bytes=5", "bytes=0-1,5-6", "bytes=9-3", "bytes=-0",
            "bytes=+1-2", "bytes=1-+2", "bytes= 1-2", "bytes=0x10-", "items=0-1", "bytes 0-1", "bytes=1-2-3",
            "bytes=99999999999999999999-", "bytes=0-9223372036854775808", "bytes=-99999999999999999999",
            "bytes=١-٢",
        ]
    )
    func refusesMalformed(_ value: String) {
        #expect(ByteRange(httpRangeHeader: value) == nil)
    }

    @Test("a parsed range reads those bytes from the local server")
    func parsedRangeReadsTheBytes() async throws {
        try await LocalObjectServer.withRunning(vendor: .oss, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "ranges")
            let content = testBytes(1000)
            try await client.putObject(PutObjectRequest(bucket: "ranges", key: "k", body: .bytes(content)))
            for (header, slice) in [("bytes=10-19", 10..<20), ("bytes=990-", 990..<1000), ("bytes=-7", 993..<1000)] {
                var get = GetObjectRequest(bucket: "ranges", key: "k")
                get.range = ByteRange(httpRangeHeader: header)
                let body = try await client.getObject(get).body
                #expect(try await body.collect(upTo: 1 << 20).bytes == Array(content[slice]))
            }
        }
    }
}
