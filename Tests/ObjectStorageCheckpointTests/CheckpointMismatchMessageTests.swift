//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import InMemoryLogging
import Logging
import ObjectStorageCheckpoint
import ObjectStorageTestSupport
import Testing

/// The exact texts of "first differing field" discards: `<field> is <recorded> in the checkpoint,
/// expected <current>`, for each of the four things a checkpoint is compared with.
@Suite("Checkpoint mismatch messages")
struct CheckpointMismatchMessageTests {
    private static let versionId = "CAEQNhiBgMDJgZCA0BYiIDc4MGZjZGI2OTBjOTRmNTE5NmU5NmFhZjhjYmY0****"

    private static func savedDownload() throws -> DownloadFixture {
        let fixture = try DownloadFixture()
        try CheckpointStore(logger: .scanning).save(fixture.checkpoint, to: fixture.checkpointPath)
        return fixture
    }

    @Test func downloadIdentityMessages() throws {
        let fixture = try Self.savedDownload()
        let elsewhere = fixture.directory.file("elsewhere.bin")
        let cases: [(String, String, (inout DownloadCheckpoint.Identity) -> Void)] = [
            ("vendor", "vendor is oss in the checkpoint, expected obs", { $0.vendor = "obs" }),
            (
                "endpoint",
                "endpoint is https://oss-cn-hangzhou.aliyuncs.com in the checkpoint, "
                    + "expected https://oss-cn-beijing.aliyuncs.com",
                { $0.endpoint = "https://oss-cn-beijing.aliyuncs.com" }
            ),
            ("bucket", "bucket is 'examplebucket' in the checkpoint, expected 'other'", { $0.bucket = "other" }),
            ("key", "key is 'photos/2024/object.bin' in the checkpoint, expected 'a b'", { $0.key = "a b" }),
            ("versionId", "versionId is \(Self.versionId) in the checkpoint, expected none", { $0.versionId = nil }),
            (
                "range", "range is none in the checkpoint, expected bytes=0-9",
                { $0.range = CheckpointByteRange(first: 0, last: 9) }
            ),
            (
                "destinationPath",
                "destinationPath is \(fixture.destination) in the checkpoint, expected \(elsewhere)",
                { $0.destinationPath = elsewhere }
            ),
        ]
        for (field, message, change) in cases {
            var identity = fixture.identity
            change(&identity)
            let result = CheckpointStore(logger: .scanning).load(
                at: fixture.checkpointPath,
                expecting: .init(identity: identity, object: fixture.object)
            )
            #expect(result.reason?.code == .identityMismatch)
            #expect(result.reason?.field == field)
            #expect(result.reason?.message == message)
        }
    }

    @Test func downloadObjectMessages() throws {
        let fixture = try Self.savedDownload()
        let etag = DownloadFixture.etag
        let cases: [(String, String, (inout DownloadCheckpoint.ObjectState) -> Void)] = [
            ("size", "size is 20 in the checkpoint, expected 21", { $0.size = 21 }),
            ("etag", "etag is \(etag) in the checkpoint, expected \"NEW\"", { $0.etag = "\"NEW\"" }),
            (
                "lastModified",
                "lastModified is Wed, 21 Oct 2015 07:28:00 GMT in the checkpoint, "
                    + "expected Thu, 22 Oct 2015 07:28:00 GMT",
                { $0.lastModified = "Thu, 22 Oct 2015 07:28:00 GMT" }
            ),
            ("versionId", "versionId is \(Self.versionId) in the checkpoint, expected v2", { $0.versionId = "v2" }),
            ("crc64", "crc64 is 11027584245493016713 in the checkpoint, expected 1", { $0.crc64 = 1 }),
        ]
        for (field, message, change) in cases {
            var probe = fixture.object
            change(&probe)
            let result = CheckpointStore(logger: .scanning).load(
                at: fixture.checkpointPath,
                expecting: .init(identity: fixture.identity, object: probe)
            )
            #expect(result.reason?.code == .objectChanged)
            #expect(result.reason?.field == field)
            #expect(result.reason?.message == message)
        }
    }

    @Test func uploadIdentityMessages() throws {
        let fixture = try UploadFixture()
        try CheckpointStore(logger: .scanning).save(fixture.checkpoint, to: fixture.checkpointPath)
        let other = fixture.directory.file("other.tar")
        let cases: [(String, String, (inout UploadCheckpoint.Identity) -> Void)] = [
            ("vendor", "vendor is s3 in the checkpoint, expected oss", { $0.vendor = "oss" }),
            (
                "endpoint", "endpoint is http://127.0.0.1:9000 in the checkpoint, expected http://[::1]:9000",
                { $0.endpoint = "http://[::1]:9000" }
            ),
            ("bucket", "bucket is 'backups' in the checkpoint, expected 'b'", { $0.bucket = "b" }),
            ("key", "key is 'nightly/backup.tar' in the checkpoint, expected 'k'", { $0.key = "k" }),
            (
                "sourcePath", "sourcePath is \(fixture.source) in the checkpoint, expected \(other)",
                { $0.sourcePath = other }
            ),
        ]
        for (field, message, change) in cases {
            var expectation = fixture.expectation
            change(&expectation.identity)
            let result = CheckpointStore(logger: .scanning).load(at: fixture.checkpointPath, expecting: expectation)
            #expect(result.reason?.code == .identityMismatch)
            #expect(result.reason?.field == field)
            #expect(result.reason?.message == message)
        }
    }

    @Test func sourceFileMessages() throws {
        let fixture = try UploadFixture()
        var checkpoint = fixture.checkpoint
        let recorded = FileIdentity(size: 19, mtimeNanoseconds: 1_000, inode: 7, device: 3)
        checkpoint.source = recorded
        try CheckpointStore(logger: .scanning).save(checkpoint, to: fixture.checkpointPath)
        let cases: [(String, String, (inout FileIdentity) -> Void)] = [
            ("size", "size is 19 in the checkpoint, expected 20", { $0.size = 20 }),
            ("mtime", "mtime is 1000 ns in the checkpoint, expected 2000 ns", { $0.mtimeNanoseconds = 2_000 }),
            ("inode", "inode is 7 in the checkpoint, expected 8", { $0.inode = 8 }),
            ("device", "device is 3 in the checkpoint, expected 4", { $0.device = 4 }),
        ]
        for (field, message, change) in cases {
            var current = recorded
            change(&current)
            var expectation = fixture.expectation
            expectation.source = current
            let result = CheckpointStore(logger: .scanning).load(at: fixture.checkpointPath, expecting: expectation)
            #expect(result.reason?.code == .sourceChanged)
            #expect(result.reason?.field == field)
            #expect(result.reason?.message == message)
        }
    }

    @Test func theWarningCarriesTheMessage() throws {
        let fixture = try Self.savedDownload()
        var handler = InMemoryLogHandler()
        handler.logLevel = .debug
        let logger = Logger.scanning(label: "test", alsoTo: handler)
        var probe = fixture.object
        probe.size = 21
        _ = CheckpointStore(logger: logger).load(
            at: fixture.checkpointPath,
            expecting: .init(identity: fixture.identity, object: probe)
        )
        let warning = try #require(handler.entries.first { $0.level == .warning })
        #expect(
            warning.message.description
                == "discarding checkpoint, starting over: size is 20 in the checkpoint, expected 21"
        )
        #expect(warning.metadata["checkpoint.reason"] == "objectChanged")
        #expect(warning.metadata["checkpoint.field"] == "size")
    }
}
