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

/// `cp - URL` (standard input, unknown length) and `cp URL -` (ordered parallel ranged GETs to standard output),
/// run as processes against `objstore serve` in the OSS dialect (minimum part 100 KiB).
struct StandardStreamCopyTests {
    /// 1 MiB + 54,321 bytes: with 128 KiB parts and 3 at a time, 9 parts, three times the window.
    static let payload = Data(
        generatedBytes(count: 1_048_576 + 54_321) { UInt8(truncatingIfNeeded: $0 &* 167 &+ $0 >> 11) }
    )

    @Test
    func standardInputToObjectAndObjectToStandardOutput() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .oss)
        let scratch = try ObjectsScratch()
        let source = scratch.path("piped.bin")
        try Self.payload.write(to: URL(fileURLWithPath: source))
        try await cli.succeed(["mb", "oss://bkt"])

        let parts = ["--part-size", "128K", "--concurrency", "3"]
        let upload = try await cli.run(["cp", "-", "oss://bkt/piped.bin"] + parts, standardInput: source)
        #expect(upload.status == 0, "\(upload.standardError)")
        let uploaded = try #require(reportedTransfer(upload.standardOutput), "\(upload.standardOutput)")
        #expect(uploaded.action == "upload: - to oss://bkt/piped.bin")
        #expect(uploaded.figures.hasPrefix("1.1 MiB, 1102897 bytes in "), "\(uploaded.figures)")
        let incomplete = try await cli.succeed(["ls", "--incomplete", "oss://bkt"])
        #expect(incomplete.isEmpty, "\(incomplete)")

        let download = try await cli.run(["cp", "oss://bkt/piped.bin", "-"] + parts)
        #expect(download.status == 0, "\(download.standardError)")
        #expect(download.standardOutputBytes == Array(Self.payload))
        #expect(download.standardError.isEmpty, "\(download.standardError)")

        let small = try await cli.run(["cp", "oss://bkt/piped.bin", "-", "--part-size", "8M"])
        #expect(small.status == 0, "\(small.standardError)")
        #expect(small.standardOutputBytes == Array(Self.payload))

        let empty = try await cli.run(["cp", "-", "oss://bkt/empty"], standardInput: "/dev/null")
        #expect(empty.status == 0, "\(empty.standardError)")
        #expect(
            reportedTransfer(empty.standardOutput)?.figures.hasPrefix("0 bytes in ") == true,
            "\(empty.standardOutput)"
        )
        let emptyDownload = try await cli.run(["cp", "oss://bkt/empty", "-"])
        #expect(emptyDownload.status == 0, "\(emptyDownload.standardError)")
        #expect(emptyDownload.standardOutputBytes.isEmpty)
    }

    /// Parts larger than the 4 MiB a waiting part may hold: the parts after the one being written pause their GETs
    /// and resume when their turn comes.
    @Test
    func partsLargerThanTheReadAheadArriveWhole() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        let scratch = try ObjectsScratch()
        let source = scratch.path("large.bin")
        let payload = generatedBytes(count: 3 * 6_291_456 + 4_097) { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 13) }
        try Data(payload).write(to: URL(fileURLWithPath: source))
        try await cli.succeed(["mb", "s3://bkt"])
        try await cli.succeed(["cp", source, "s3://bkt/large.bin", "--no-checkpoint"])

        let download = try await cli.run(["cp", "s3://bkt/large.bin", "-", "--part-size", "6M", "--concurrency", "3"])
        #expect(download.status == 0, "\(download.standardError)")
        #expect(download.standardOutputBytes == payload)
    }

    /// A connection lost in the middle of a part (here the server closes it; a part waiting for its turn longer
    /// than the read-idle timeout loses it the same way) is picked up where it stopped.
    @Test
    func aPartCutShortIsPickedUpWhereItStopped() async throws {
        let server = try await ObjectsLocalServer.start(arguments: [
            "--log-level", "warning", "--fault", "op=GetObject,key=cut.bin,when=nth:3,close-after=70000",
        ])
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .oss)
        let scratch = try ObjectsScratch()
        let source = scratch.path("cut.bin")
        try Self.payload.write(to: URL(fileURLWithPath: source))
        try await cli.succeed(["mb", "oss://bkt"])
        try await cli.succeed(["cp", source, "oss://bkt/cut.bin", "--no-checkpoint"])

        let download = try await cli.run(["cp", "oss://bkt/cut.bin", "-", "--part-size", "128K", "--concurrency", "2"])
        #expect(download.status == 0, "\(download.standardError)")
        #expect(download.standardOutputBytes == Array(Self.payload))
    }

    @Test
    func objectReplacedWhileReadFails() async throws {
        // The third GetObject finds the object replaced (a new ETag), as another writer would.
        let server = try await ObjectsLocalServer.start(arguments: [
            "--log-level", "warning", "--fault", "op=GetObject,key=moving.bin,when=nth:3,replace=random:1200000",
        ])
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .oss)
        let scratch = try ObjectsScratch()
        let source = scratch.path("moving.bin")
        try Self.payload.write(to: URL(fileURLWithPath: source))
        try await cli.succeed(["mb", "oss://bkt"])
        try await cli.succeed(["cp", source, "oss://bkt/moving.bin", "--no-checkpoint"])

        let download = try await cli.run([
            "cp", "oss://bkt/moving.bin", "-", "--part-size", "128K", "--concurrency", "2",
        ])
        #expect(download.status != 0)
        #expect(download.standardError.contains("was replaced while it was being read"), "\(download.standardError)")
        #expect(download.standardOutputBytes.count < Self.payload.count)
    }

    @Test
    func dashNeedsARemoteObject() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .oss)
        for arguments in [["cp", "-", "-"], ["cp", "-", "/tmp/x"], ["cp", "-", "oss://bkt/"]] {
            let result = try await cli.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("'-' goes with a remote URL"), "\(result.standardError)")
        }
    }
}
