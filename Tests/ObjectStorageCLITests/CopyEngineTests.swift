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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `cp` through the resumable engines (`uploadFile`, `resumableDownload`), run as processes against
/// `objstore serve` in the OSS dialect (whose minimum part is 100 KiB, so 1 MiB parts are multipart).
struct CopyEngineTests {
    /// 3 MiB + 12,345 bytes that are not text: four 1 MiB parts, the last one short.
    static let payload = Data(
        generatedBytes(count: 3 * 1_048_576 + 12_345) { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
    )

    @Test
    func uploadsAndDownloadsInPartsAndLeavesNoCheckpoint() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .oss)
        let scratch = try ObjectsScratch()
        let source = scratch.path("big.bin")
        try Self.payload.write(to: URL(fileURLWithPath: source))
        try await cli.succeed(["mb", "oss://bkt"])

        let upload = try await cli.run([
            "cp", source, "oss://bkt/big.bin", "--part-size", "1M", "--concurrency", "3",
            "--meta", "origin=test", "--content-type", "application/x-test", "--md5",
        ])
        #expect(upload.status == 0, "\(upload.standardError)")
        let uploaded = try #require(reportedTransfer(upload.standardOutput), "\(upload.standardOutput)")
        #expect(uploaded.action == "upload: \(source) to oss://bkt/big.bin")
        #expect(uploaded.figures.hasPrefix("3.0 MiB, 3158073 bytes in "), "\(uploaded.figures)")
        #expect(!uploaded.figures.contains("resumed"), "a fresh upload reuses nothing: \(uploaded.figures)")
        #expect(uploaded.figures.hasSuffix("; verified: CRC-64"), "\(uploaded.figures)")

        let stat = try await cli.succeed(["stat", "oss://bkt/big.bin", "--json"])
        #expect(stat.contains("\"size\":3158073") || stat.contains("\"size\" : 3158073"), "\(stat)")
        #expect(stat.contains("application/x-test"), "\(stat)")

        let downloads = scratch.path("down")
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
        let target = downloads + "/big.bin"
        for _ in 0..<2 {
            let download = try await cli.run(["cp", "oss://bkt/big.bin", target, "--part-size", "1M"])
            #expect(download.status == 0, "\(download.standardError)")
            let downloaded = try #require(reportedTransfer(download.standardOutput), "\(download.standardOutput)")
            #expect(downloaded.action == "download: oss://bkt/big.bin to \(target)")
            #expect(downloaded.figures.hasPrefix("3.0 MiB, 3158073 bytes in "), "\(downloaded.figures)")
            #expect(downloaded.figures.hasSuffix("; verified: CRC-64"), "\(downloaded.figures)")
            #expect(FileManager.default.contents(atPath: target) == Self.payload)
            #expect(try FileManager.default.contentsOfDirectory(atPath: downloads) == ["big.bin"])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["big.bin", "down"])
    }

    @Test("an S3 multipart object's download says that its CRC-64/NVME matched the service's")
    func s3DownloadSaysHowItWasVerified() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        let scratch = try ObjectsScratch()
        let source = scratch.path("mp.bin")
        let payload = Data(generatedBytes(count: 10 * 1_048_576 + 7) { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        try payload.write(to: URL(fileURLWithPath: source))
        try await cli.succeed(["mb", "s3://bkt"])
        try await cli.succeed(["cp", source, "s3://bkt/mp.bin", "--part-size", "5M"])

        let target = scratch.path("down.bin")
        let download = try await cli.run(["cp", "s3://bkt/mp.bin", target])
        #expect(download.status == 0, "\(download.standardError)")
        #expect(
            reportedTransfer(download.standardOutput)?.figures.hasSuffix("; verified: CRC-64/NVME") == true,
            "\(download.standardOutput)"
        )
        #expect(FileManager.default.contents(atPath: target) == payload)
    }

    @Test("--checksum-mode off skips the CRC-64 check, and the summary says so; full (the default) checks it")
    func checksumModeIsChosenAndReported() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .oss)
        let scratch = try ObjectsScratch()
        let source = scratch.path("c.bin")
        try Self.payload.write(to: URL(fileURLWithPath: source))
        try await cli.succeed(["mb", "oss://bkt"])
        let expectations = [("off", "; not verified: verification is turned off"), ("full", "; verified: CRC-64")]
        for (mode, summary) in expectations {
            let upload = try await cli.run(["cp", source, "oss://bkt/c-\(mode).bin", "--checksum-mode", mode])
            #expect(upload.status == 0, "\(upload.standardError)")
            let target = scratch.path("down-\(mode).bin")
            let download = try await cli.run([
                "cp", "oss://bkt/c-\(mode).bin", target, "--part-size", "1M", "--checksum-mode", mode,
            ])
            #expect(download.status == 0, "\(download.standardError)")
            let figures = reportedTransfer(download.standardOutput)?.figures ?? download.standardOutput
            #expect(figures.hasSuffix(summary), "\(mode): \(figures)")
            #expect(FileManager.default.contents(atPath: target) == Self.payload)
        }
    }

    @Test(arguments: [
        ["--part-size", "banana"], ["--part-size", "0"], ["--part-size", "12Q"], ["--concurrency", "0"],
        ["--checksum-mode", "md5"],
    ])
    func rejectsInvalidTransferOptions(_ options: [String]) async throws {
        let scratch = try ObjectsScratch()
        let source = scratch.path("small.bin")
        try Data("x".utf8).write(to: URL(fileURLWithPath: source))
        let result = try await CLIProcess.run(
            ["cp", source, "oss://bkt/small.bin", "--endpoint", "http://127.0.0.1:9"] + options,
            environment: CLIProcess.isolatedEnvironment()
        )
        #expect(result.status == 64, "\(result.standardError)")
    }

    @Test
    func rejectsUploadOptionsOnDownload() async throws {
        let scratch = try ObjectsScratch()
        let result = try await CLIProcess.run(
            ["cp", "oss://bkt/a.bin", scratch.path("a.bin"), "--acl", "private", "--endpoint", "http://127.0.0.1:9"],
            environment: CLIProcess.isolatedEnvironment([
                "OSS_ACCESS_KEY_ID": ObjectsLocalServer.accessKeyID,
                "OSS_ACCESS_KEY_SECRET": ObjectsLocalServer.secret,
            ])
        )
        #expect(result.status == 64)
        #expect(result.standardError.contains("--acl applies to uploads only"))
    }

    @Test
    func ctrlCPausesWithStatus130AndARerunResumes() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .oss)
        let scratch = try ObjectsScratch()
        let source = scratch.path("large.bin")
        let payload = Data(generatedBytes(count: 48 << 20) { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 13) })
        try payload.write(to: URL(fileURLWithPath: source))
        try await cli.succeed(["mb", "oss://bkt"])
        let slow = ["--part-size", "256K", "--concurrency", "1"]

        let upload = ["cp", source, "oss://bkt/large.bin"]
        let paused = try await cli.interrupt(upload + slow, once: source + ".ucp")
        #expect(paused.status == 130, "\(paused.standardError)")
        #expect(FileManager.default.fileExists(atPath: source + ".ucp"))
        let resumed = try await cli.run(upload)
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: source + ".ucp"))

        let target = scratch.path("copy.bin")
        let download = ["cp", "oss://bkt/large.bin", target]
        let pausedDownload = try await cli.interrupt(download + slow, once: target + ".dcp")
        #expect(pausedDownload.status == 130, "\(pausedDownload.standardError)")
        #expect(FileManager.default.fileExists(atPath: target + ".dcp"))
        #expect(!FileManager.default.fileExists(atPath: target))
        let resumedDownload = try await cli.run(download)
        #expect(resumedDownload.status == 0, "\(resumedDownload.standardError)")
        let kept = try #require(reportedTransfer(resumedDownload.standardOutput), "\(resumedDownload.standardOutput)")
        #expect(kept.action == "download: oss://bkt/large.bin to \(target)")
        #expect(FileManager.default.contents(atPath: target) == payload)
        #expect(!FileManager.default.fileExists(atPath: target + ".dcp"))
        #expect(!FileManager.default.fileExists(atPath: target + ".part"))
    }
}
