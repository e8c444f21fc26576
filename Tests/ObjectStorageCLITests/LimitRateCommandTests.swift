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

/// `--limit-rate` caps the whole command, every object and part together, not each object.
struct LimitRateCommandTests {
    /// 8 files of 192 KiB: 1.5 MiB, which takes at least 3 s at 512 KiB/s (less the limiter's tenth of a second of
    /// burst) when the limit is the job's, and under half a second when each of the 16 objects at once had its own.
    static let files: [(String, Data)] = (0..<8).map { index in
        (
            "d\(index % 2)/f\(index).bin",
            Data(generatedBytes(count: 192 << 10) { UInt8(truncatingIfNeeded: $0 &+ index) })
        )
    }

    @Test("cp -r with --limit-rate moves the whole tree within one limit, both ways, every byte intact")
    func oneLimitForTheWholeJob() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        let scratch = try ObjectsScratch()
        let source = scratch.path("source")
        try DirectoryCommandTests.write(Self.files, under: source)
        try await cli.succeed(["mb", ObjectsDialect.s3.url("bkt")])
        let clock = ContinuousClock()

        let uploadStart = clock.now
        try await cli.succeed(["cp", "-r", source, ObjectsDialect.s3.url("bkt/up/"), "--limit-rate", "512K"])
        let upload = clock.now - uploadStart

        let destination = scratch.path("destination")
        let downloadStart = clock.now
        try await cli.succeed(["cp", "-r", ObjectsDialect.s3.url("bkt/up/"), destination, "--limit-rate", "512K"])
        let download = clock.now - downloadStart

        // A lower bound only: a loaded machine makes the command slower, never faster than its limit allows.
        #expect(upload >= .milliseconds(2_500), "the upload took \(upload)")
        #expect(download >= .milliseconds(2_500), "the download took \(download)")
        for (name, bytes) in Self.files {
            #expect(FileManager.default.contents(atPath: destination + "/" + name) == bytes, "\(name)")
        }
    }
}
