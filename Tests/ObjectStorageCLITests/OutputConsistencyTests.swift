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

/// What `cp`, `cp -r`, `sync` and `stat` print reads the same way everywhere: one line per transfer, paths as the
/// user typed them, a dry run that says what it would do, the same exit for a missing file or directory.
struct OutputConsistencyTests {
    @Test
    func aSingleCopyPrintsOneLineAndAFreshOneClaimsNoReuse() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        let scratch = try ObjectsScratch()
        let source = scratch.path("check.txt")
        try Data("123456789".utf8).write(to: URL(fileURLWithPath: source))
        try await cli.succeed(["mb", "s3://bkt"])

        let upload = try await cli.run(["cp", source, "s3://bkt/check.txt"])
        #expect(upload.status == 0, "\(upload.standardError)")
        #expect(
            upload.standardError.isEmpty,
            "without a terminal, only the line on standard output: \(upload.standardError)"
        )
        let line = try #require(reportedTransfer(upload.standardOutput), "\(upload.standardOutput)")
        #expect(line.action == "upload: \(source) to s3://bkt/check.txt")
        #expect(line.figures.hasPrefix("9 bytes in "), "\(line.figures)")
        #expect(!line.figures.contains("reused"), "\(line.figures)")
        #expect(line.figures.hasSuffix("; verified: CRC-64/NVME"), "\(line.figures)")

        // The CRC-64/NVME check value of "123456789" is 0xAE8B14860A799888; S3 sends it in base64.
        let stat = try await cli.succeed(["stat", "s3://bkt/check.txt"])
        #expect(stat.contains("\nCRC64NVME: rosUhgp5mIg=\n"), "\(stat)")
        #expect(stat.contains("\nStorage-Class: STANDARD\n"), "S3 leaves out the Standard class: \(stat)")
    }

    @Test
    func directoryJobsShowRelativePathsAsTypedAndADryRunSaysWhatItWouldDelete() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        let scratch = try ObjectsScratch()
        let tree = scratch.path("tree")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try Data("a".utf8).write(to: URL(fileURLWithPath: tree + "/a.txt"))
        try await cli.succeed(["mb", "s3://bkt"])
        // The same directory, relative to the test's working directory (up to / and down again).
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + tree.dropFirst()

        let copied = try await cli.run(["cp", "-r", relative, "s3://bkt/tree"])
        #expect(copied.status == 0, "\(copied.standardError)")
        #expect(copied.standardOutput == "upload: \(relative)/a.txt to s3://bkt/tree/a.txt\n")

        try await cli.succeed(["cp", tree + "/a.txt", "s3://bkt/tree/extra.txt"])
        let dryRun = try await cli.run(["sync", "--dryrun", "--delete", relative, "s3://bkt/tree"])
        #expect(dryRun.status == 0, "\(dryRun.standardError)")
        #expect(dryRun.standardOutput == "(dryrun) delete: s3://bkt/tree/extra.txt\n")
        #expect(
            dryRun.standardError == "sync: 0 to be uploaded (0 B), 1 unchanged, 1 to be deleted\n",
            "\(dryRun.standardError)"
        )
        #expect(try await cli.succeed(["ls", "s3://bkt/tree/"]).contains("extra.txt"), "a dry run deletes nothing")
    }

    @Test
    func aMissingFileAndAMissingDirectoryExitAlike() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        let scratch = try ObjectsScratch()
        let file = try await cli.run(["cp", scratch.path("no-such-file"), "s3://bkt/x"])
        let directory = try await cli.run(["cp", "-r", scratch.path("no-such-dir"), "s3://bkt/x/"])
        #expect(file.status == 2, "\(file.standardError)")
        #expect(directory.status == 2, "\(directory.standardError)")
        #expect(directory.standardError.contains("no-such-dir': no such directory"), "\(directory.standardError)")
    }
}
