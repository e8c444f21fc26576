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

/// `objstore demo` runs end to end on the embedded server, its summary's claims hold, and it leaves
/// nothing behind, also when interrupted.
struct DemoCommandTests {
    /// The fields of `objstore demo --json` that the tests check.
    private struct Summary: Decodable {
        struct Transfer: Decodable {
            var parts: Int
            var paused: Bool
            var partsReused: Int
            var partsTransferred: Int
            var bytesReused: Int64
            var bytesTransferred: Int64
            var crc64Verified: Bool
            var md5Verified: Bool
        }

        struct PresignedCheck: Decodable {
            var scheme: String
            var getStatus: Int
            var getBytesMatch: Bool
            var headStatus: Int
            var headContentLength: Int64?
            var tamperedStatus: Int
        }

        struct Hashes: Decodable {
            var source: String
            var downloaded: String
        }

        var ok: Bool
        var vendor: String
        var embeddedServer: Bool
        var sizeBytes: Int64
        var workDirectory: String
        var upload: Transfer
        var download: Transfer
        var presigned: [PresignedCheck]
        var sha256: Hashes
        var verified: [String]
    }

    @Test func demoResumesBothTransfersVerifiesEverythingAndLeavesNothingBehind() async throws {
        let temporary = try Self.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let result = try await CLIProcess.run(
            ["demo", "--json"],
            environment: CLIProcess.isolatedEnvironment(["TMPDIR": temporary])
        )
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let summary = try JSONDecoder().decode(Summary.self, from: Data(result.standardOutput.utf8))
        #expect(summary.ok)
        #expect(summary.vendor == "oss")
        #expect(summary.embeddedServer)
        #expect(summary.sizeBytes == 64 << 20)

        // The same bytes went up and came back.
        #expect(summary.sha256.source == summary.sha256.downloaded)
        for hash in [summary.sha256.source, summary.sha256.downloaded] {
            #expect(hash.count == 64 && hash.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(hash)")
        }

        // The upload was paused part way and resumed: some parts, not all, came from the checkpoint.
        let upload = summary.upload
        #expect(upload.paused)
        #expect(upload.partsReused >= 1)
        #expect(upload.partsReused < upload.parts)
        #expect(upload.partsReused + upload.partsTransferred == upload.parts)
        #expect(upload.crc64Verified && upload.md5Verified)

        // So was the download: it kept bytes and fetched only the rest.
        let download = summary.download
        #expect(download.paused)
        #expect(download.bytesReused > 0)
        #expect(download.bytesReused < summary.sizeBytes)
        #expect(download.bytesReused + download.bytesTransferred == summary.sizeBytes)
        #expect(download.crc64Verified)

        // Every signature scheme's URLs work with plain HTTP, and a tampered one is refused.
        #expect(summary.presigned.map(\.scheme) == ["OSS V4", "OSS V1", "OBS", "AWS V2", "S3 SigV4"])
        for check in summary.presigned {
            #expect(check.getStatus == 206 && check.getBytesMatch, "\(check.scheme)")
            #expect(check.headStatus == 200 && check.headContentLength == 64 << 20, "\(check.scheme)")
            #expect(check.tamperedStatus == 403, "\(check.scheme)")
        }
        #expect(Set(summary.verified).isSuperset(of: ["CRC-64", "Content-MD5", "SHA-256"]))

        // Nothing is left: not the work directory, nor anything else in TMPDIR.
        #expect(summary.workDirectory.hasPrefix(temporary))
        #expect(!FileManager.default.fileExists(atPath: summary.workDirectory))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)

        // The narration and the table went to standard error.
        #expect(result.standardError.contains("Summary"))
        #expect(result.standardError.contains("All checks passed"))
    }

    @Test func ctrlCDuringTheUploadCleansUpAndExits130() async throws {
        let temporary = try Self.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let binary = try #require(CLIProcess.binary, "objstore is not built; run `swift build --build-tests` first")
        let process = try ChildProcess(
            executable: binary.path,
            arguments: ["demo"],
            environment: CLIProcess.isolatedEnvironment(["TMPDIR": temporary]),
            standardError: .discard
        )
        let output = try #require(process.standardOutput)
        let (text, termination) = try await onOwnThread {
            // Wait for the narration to announce the upload, then press Ctrl-C.
            var text = CLIProcess.read(output, until: "uploadFile:")
            process.interrupt()
            text += String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
            return (text, process.waitForExit())
        }
        #expect(text.contains("uploadFile:"), "\(text)")
        #expect(termination == .init(status: 130, bySignal: false), "\(text)")
        #expect(text.contains("Cleanup:"), "\(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
    }

    @Test func bucketWithoutAnEndpointIsAUsageError() async throws {
        let result = try await CLIProcess.run(
            ["demo", "--bucket", "mine"],
            environment: CLIProcess.isolatedEnvironment()
        )
        #expect(result.status == 64)
        #expect(result.standardError.contains("--bucket applies to a configured endpoint"))
    }

    /// A fresh directory for the demo's TMPDIR, so the test can check that nothing is left in it.
    private static func makeTemporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("objstore-demo-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
