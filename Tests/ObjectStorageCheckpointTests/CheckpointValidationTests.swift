//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import InMemoryLogging
import Logging
import ObjectStorageCheckpoint
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Checkpoint validation on load")
struct CheckpointValidationTests {
    private func savedDownload() throws -> DownloadFixture {
        var fixture = try DownloadFixture()
        try fixture.checkpoint.markPartCompleted(0, crc64: 5)
        try CheckpointStore(logger: .scanning).save(fixture.checkpoint, to: fixture.checkpointPath)
        return fixture
    }

    private func downloadReason(
        _ fixture: DownloadFixture,
        _ expectation: DownloadCheckpoint.Expectation? = nil
    ) -> CheckpointInvalidReason? {
        CheckpointStore(logger: .scanning).load(
            at: fixture.checkpointPath,
            expecting: expectation ?? fixture.expectation
        ).reason
    }

    private func replaceInFile(_ path: String, _ old: String, _ new: String) throws {
        let text = String(decoding: try readFile(path), as: UTF8.self)
        #expect(text.contains(old))
        try writeFile(path, Array(text.replacingOccurrences(of: old, with: new).utf8))
    }

    @Test func missingFileIsTheOrdinaryFirstRun() throws {
        let fixture = try DownloadFixture()
        let reason = downloadReason(fixture)
        #expect(reason?.code == .missing)
        #expect(reason?.isMissing == true)
    }

    @Test func truncatedFileIsMalformed() throws {
        let fixture = try savedDownload()
        let bytes = try readFile(fixture.checkpointPath)
        for length in [0, 1, bytes.count / 2, bytes.count - 3] {
            try writeFile(fixture.checkpointPath, Array(bytes.prefix(length)))
            #expect(downloadReason(fixture)?.code == .malformed, "length \(length)")
        }
    }

    @Test func randomBytesAreMalformed() throws {
        let fixture = try savedDownload()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let bytes = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try writeFile(fixture.checkpointPath, bytes)
            let code = downloadReason(fixture)?.code
            #expect(code == .malformed || code == .wrongFormat)
        }
    }

    @Test func validJSONWithAWrongDigestIsDetected() throws {
        let fixture = try savedDownload()
        try replaceInFile(fixture.checkpointPath, "\"partSize\":8", "\"partSize\":4")
        #expect(downloadReason(fixture)?.code == .digestMismatch)
    }

    @Test func editedDigestIsDetected() throws {
        let fixture = try savedDownload()
        let text = String(decoding: try readFile(fixture.checkpointPath), as: UTF8.self)
        let digest = try #require(text.range(of: "\"digest\":\"")).upperBound
        let first = text[digest]
        try replaceInFile(fixture.checkpointPath, "\"digest\":\"\(first)", "\"digest\":\"\(first == "0" ? "1" : "0")")
        #expect(downloadReason(fixture)?.code == .digestMismatch)
    }

    @Test func wrongFormatKindAndVersionAreDetected() throws {
        var fixture = try savedDownload()
        try replaceInFile(fixture.checkpointPath, "swift-object-storage.checkpoint", "other-tool.checkpoint")
        #expect(downloadReason(fixture)?.code == .wrongFormat)

        fixture = try savedDownload()
        try replaceInFile(fixture.checkpointPath, "\"version\":1", "\"version\":2")
        #expect(downloadReason(fixture)?.code == .unsupportedVersion)

        fixture = try savedDownload()
        try replaceInFile(fixture.checkpointPath, ",\"version\":1", "")
        #expect(downloadReason(fixture)?.code == .unsupportedVersion)

        try writeFile(fixture.checkpointPath, Array("{\"anything\":true}".utf8))
        #expect(downloadReason(fixture)?.code == .wrongFormat)
        try writeFile(fixture.checkpointPath, Array("[1,2,3]".utf8))
        #expect(downloadReason(fixture)?.code == .wrongFormat)

        // An upload checkpoint where a download checkpoint is expected, and the reverse.
        let upload = try UploadFixture()
        try CheckpointStore(logger: .scanning).save(upload.checkpoint, to: fixture.checkpointPath)
        #expect(downloadReason(fixture)?.code == .wrongKind)
        fixture = try savedDownload()
        let asUpload = CheckpointStore(logger: .scanning).load(
            at: fixture.checkpointPath,
            expecting: upload.expectation
        )
        #expect(asUpload.reason?.code == .wrongKind)
    }

    @Test func anotherObjectsCheckpointIsNotResumed() throws {
        let fixture = try savedDownload()
        var other = fixture.identity
        other.key = "photos/2024/another.bin"
        let result = CheckpointStore(logger: .scanning).load(
            at: fixture.checkpointPath,
            expecting: .init(identity: other, object: fixture.object)
        )
        #expect(result.reason?.code == .identityMismatch)
        #expect(result.reason?.field == "key")
        // Authentic but stale: handed back so the caller can clean up its temp file.
        #expect(result.previous?.tempFilePath == fixture.checkpoint.tempFilePath)

        for (field, change) in [
            ("vendor", { (identity: inout DownloadCheckpoint.Identity) in identity.vendor = "obs" }),
            ("endpoint", { $0.endpoint = "https://oss-cn-beijing.aliyuncs.com" }),
            ("bucket", { $0.bucket = "otherbucket" }),
            ("versionId", { $0.versionId = nil }),
            ("range", { $0.range = CheckpointByteRange(first: 0, last: 9) }),
        ] as [(String, (inout DownloadCheckpoint.Identity) -> Void)] {
            var identity = fixture.identity
            change(&identity)
            let reason = downloadReason(fixture, .init(identity: identity, object: fixture.object))
            #expect(reason?.code == .identityMismatch)
            #expect(reason?.field == field)
        }
    }

    @Test func anotherDestinationsCheckpointIsNotResumed() throws {
        let fixture = try savedDownload()
        var identity = fixture.identity
        identity.destinationPath = fixture.directory.file("elsewhere.bin")
        let reason = downloadReason(fixture, .init(identity: identity, object: fixture.object))
        #expect(reason?.code == .identityMismatch)
        #expect(reason?.field == "destinationPath")
    }

    @Test(arguments: [
        ("etag", DownloadCheckpoint.ObjectState(size: 20, etag: "\"NEW\"", lastModified: DownloadFixture.lastModified)),
        ("size", DownloadCheckpoint.ObjectState(size: 21, etag: DownloadFixture.etag)),
        (
            "lastModified",
            DownloadCheckpoint.ObjectState(
                size: 20,
                etag: DownloadFixture.etag,
                lastModified: "Thu, 22 Oct 2015 07:28:00 GMT"
            )
        ),
        ("versionId", DownloadCheckpoint.ObjectState(size: 20, etag: DownloadFixture.etag, versionId: "v2")),
        ("crc64", DownloadCheckpoint.ObjectState(size: 20, etag: DownloadFixture.etag, crc64: 1)),
    ])
    func changedObjectIsDetected(field: String, probe: DownloadCheckpoint.ObjectState) throws {
        let fixture = try savedDownload()
        let result = CheckpointStore(logger: .scanning).load(
            at: fixture.checkpointPath,
            expecting: .init(identity: fixture.identity, object: probe)
        )
        #expect(result.reason?.code == .objectChanged)
        #expect(result.reason?.field == field)
        #expect(result.previous != nil)
    }

    @Test func probeWithoutOptionalFieldsStillMatches() throws {
        let fixture = try savedDownload()
        let probe = DownloadCheckpoint.ObjectState(size: 20, etag: DownloadFixture.etag)
        let result = CheckpointStore(logger: .scanning).load(
            at: fixture.checkpointPath,
            expecting: .init(identity: fixture.identity, object: probe)
        )
        #expect(result.checkpoint != nil)
    }

    @Test func shortenedOrDeletedTempFileIsDetected() throws {
        let fixture = try savedDownload()
        #expect(truncate(fixture.checkpoint.tempFilePath, 10) == 0)
        let shortened = downloadReason(fixture)
        #expect(shortened?.code == .tempFileSizeMismatch)
        #expect(shortened?.message.contains("10 bytes, expected 20") == true)

        #expect(unlink(fixture.checkpoint.tempFilePath) == 0)
        #expect(downloadReason(fixture)?.code == .tempFileMissing)

        #expect(mkdir(fixture.checkpoint.tempFilePath, 0o700) == 0)
        #expect(downloadReason(fixture)?.code == .tempFileMissing)
    }

    @Test func inconsistentContentWithAValidDigestIsDiscarded() throws {
        // A checkpoint whose digest is right but whose parts lie outside the layout (a buggy writer).
        let fixture = try savedDownload()
        var text = String(decoding: try readFile(fixture.checkpointPath), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"index\":0", with: "\"index\":7")
        let start = text.index(text.startIndex, offsetBy: "{\"data\":".count)
        let end = try #require(text.range(of: ",\"digest\":\"")).lowerBound
        let data = String(text[start..<end])
        let digest = ByteEncoding.hex(Hashing.SHA256.hash(data))
        let rebuilt =
            "{\"data\":\(data),\"digest\":\"\(digest)\",\"format\":\"swift-object-storage.checkpoint\","
            + "\"kind\":\"download\",\"version\":1}"
        try writeFile(fixture.checkpointPath, Array(rebuilt.utf8))
        #expect(downloadReason(fixture)?.code == .invalidContent)
    }

    @Test func reformattedButAuthenticFileStillLoads() throws {
        // The digest covers the data bytes as stored, so whitespace around them does not matter.
        let fixture = try savedDownload()
        var text = String(decoding: try readFile(fixture.checkpointPath), as: UTF8.self)
        text = text.replacingOccurrences(of: "{\"data\":", with: "{\n  \"data\" : ")
        text = text.replacingOccurrences(of: ",\"digest\":", with: ",\n  \"digest\": ")
        try writeFile(fixture.checkpointPath, Array(text.utf8))
        #expect(
            CheckpointStore(logger: .scanning).load(at: fixture.checkpointPath, expecting: fixture.expectation)
                .checkpoint != nil
        )
    }

    @Test func unreadableOrOversizedFileIsDiscarded() throws {
        let fixture = try savedDownload()
        var store = CheckpointStore(logger: .scanning)
        store.maximumFileSize = 16
        #expect(store.load(at: fixture.checkpointPath, expecting: fixture.expectation).reason?.code == .unreadable)
        #expect(unlink(fixture.checkpointPath) == 0)
        #expect(mkdir(fixture.checkpointPath, 0o700) == 0)
        #expect(downloadReason(fixture)?.code == .unreadable)
    }

    @Test func sourceChangesAreDetected() throws {
        let fixture = try UploadFixture()
        try setModificationTime(fixture.source, seconds: 1_715_150_708, nanoseconds: 123_456_789)
        var checkpoint = fixture.checkpoint
        checkpoint.source = try FileIdentity.current(path: fixture.source)
        #expect(checkpoint.source.mtimeNanoseconds == 1_715_150_708_123_456_789)
        let store = CheckpointStore(logger: .scanning)
        try store.save(checkpoint, to: fixture.checkpointPath)
        #expect(store.load(at: fixture.checkpointPath, expecting: fixture.expectation).checkpoint == checkpoint)

        // mtime one nanosecond later, same size.
        try setModificationTime(fixture.source, seconds: 1_715_150_708, nanoseconds: 123_456_790)
        var result = store.load(at: fixture.checkpointPath, expecting: fixture.expectation)
        #expect(result.reason?.code == .sourceChanged)
        #expect(result.reason?.field == "mtime")
        #expect(result.previous?.uploadId == checkpoint.uploadId)

        // Same size and mtime, but a different file (replaced by copy + rename).
        let copy = fixture.directory.file("copy.tar")
        try writeFile(copy, try readFile(fixture.source))
        try setModificationTime(copy, seconds: 1_715_150_708, nanoseconds: 123_456_789)
        #expect(rename(copy, fixture.source) == 0)
        result = store.load(at: fixture.checkpointPath, expecting: fixture.expectation)
        #expect(result.reason?.code == .sourceChanged)
        #expect(result.reason?.field == "inode")

        // Grown.
        try writeFile(fixture.source, Array("the quick brown fox!".utf8))
        result = store.load(at: fixture.checkpointPath, expecting: fixture.expectation)
        #expect(result.reason?.field == "size")

        // Deleted.
        #expect(unlink(fixture.source) == 0)
        #expect(store.load(at: fixture.checkpointPath, expecting: fixture.expectation).reason?.code == .sourceMissing)
    }

    @Test func uploadIdentityAndParametersMustMatch() throws {
        let fixture = try UploadFixture()
        let store = CheckpointStore(logger: .scanning)
        try store.save(fixture.checkpoint, to: fixture.checkpointPath)

        var identity = fixture.identity
        identity.key = "nightly/other.tar"
        var expectation = fixture.expectation
        expectation.identity = identity
        let result = store.load(at: fixture.checkpointPath, expecting: expectation)
        #expect(result.reason?.code == .identityMismatch)
        #expect(result.reason?.field == "key")

        expectation = fixture.expectation
        expectation.parameters.contentType = "text/plain"
        #expect(store.load(at: fixture.checkpointPath, expecting: expectation).reason?.code == .parametersChanged)
    }

    @Test func discardsAreLoggedWithTheirReason() throws {
        let fixture = try savedDownload()
        var handler = InMemoryLogHandler()
        handler.logLevel = .debug
        let logger = Logger.scanning(label: "test", alsoTo: handler)
        try writeFile(fixture.checkpointPath, Array("{\"data\":".utf8))
        _ = CheckpointStore(logger: logger).load(at: fixture.checkpointPath, expecting: fixture.expectation)
        let warning = try #require(handler.entries.first { $0.level == .warning })
        #expect(warning.metadata["checkpoint.reason"] == "malformed")
        #expect(warning.metadata["checkpoint.path"] == "\(fixture.checkpointPath)")
    }
}
