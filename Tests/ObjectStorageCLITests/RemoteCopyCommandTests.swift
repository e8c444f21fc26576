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

/// `objstore cp URL URL` on one endpoint: a server-side copy, in UploadPartCopy parts when the source is larger
/// than one part.
@Suite("cp between objects")
struct RemoteCopyCommandTests {
    @Test(arguments: ObjectsDialect.all)
    func copiesAnObjectLargerThanOnePartInParts(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        let scratch = try ObjectsScratch()
        let payload = Data(generatedBytes(count: 12 << 20 + 12_345) { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) })
        let original = scratch.path("original.bin")
        try payload.write(to: URL(fileURLWithPath: original))
        let checkpoint = scratch.path("copy.ccp")

        try await cli.succeed(["mb", dialect.url("bkt")])
        try await cli.succeed(["cp", original, dialect.url("bkt/src.bin"), "--part-size", "5M"])
        let copied = try await cli.succeed([
            "cp", dialect.url("bkt/src.bin"), dialect.url("bkt/copies/"), "--part-size", "5M",
            "--checkpoint-file", checkpoint,
        ])
        #expect(
            reportedTransfer(copied)?.action
                == "copy: \(dialect.url("bkt/src.bin")) to \(dialect.url("bkt/copies/src.bin"))"
        )
        #expect(!FileManager.default.fileExists(atPath: checkpoint))
        let stat = try await cli.succeed(["stat", dialect.url("bkt/copies/src.bin"), "--json"])
        // Three parts of 5 MiB: a multipart object's ETag ends with its part count.
        #expect(stat.contains("-3\\\""))
        let back = scratch.path("back.bin")
        try await cli.succeed(["cp", dialect.url("bkt/copies/src.bin"), back])
        #expect(FileManager.default.contents(atPath: back) == payload)
    }
}
