//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageCheckpoint
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Checkpoint round trip and format")
struct CheckpointRoundTripTests {
    @Test func downloadRoundTripKeepsEveryField() throws {
        var fixture = try DownloadFixture()
        try fixture.checkpoint.markPartCompleted(2, crc64: 42)
        try fixture.checkpoint.markPartCompleted(0, crc64: UInt64.max)
        let store = CheckpointStore(logger: .scanning)
        try store.save(fixture.checkpoint, to: fixture.checkpointPath)

        let loaded = try #require(store.load(at: fixture.checkpointPath, expecting: fixture.expectation).checkpoint)
        #expect(loaded == fixture.checkpoint)
        #expect(loaded.completedParts == [.init(index: 0, crc64: UInt64.max), .init(index: 2, crc64: 42)])
        #expect(loaded.partSize == 8)
        #expect(loaded.identity.versionId == fixture.identity.versionId)
        #expect(loaded.object.crc64 == 11_027_584_245_493_016_713)
    }

    @Test func downloadRoundTripKeepsTheCRCPolynomial() throws {
        var fixture = try DownloadFixture()
        var nvme = fixture.object
        nvme.crc64Polynomial = .nvme
        fixture.checkpoint.object = nvme
        let store = CheckpointStore(logger: .scanning)
        try store.save(fixture.checkpoint, to: fixture.checkpointPath)
        let text = try String(decoding: readFile(fixture.checkpointPath), as: UTF8.self)
        #expect(text.contains("\"crc64Polynomial\":\"nvme\""))
        let expectation = DownloadCheckpoint.Expectation(identity: fixture.identity, object: nvme)
        let loaded = try #require(store.load(at: fixture.checkpointPath, expecting: expectation).checkpoint)
        #expect(loaded.object.crc64Polynomial == .nvme)

        // The same value under the other polynomial is another object state.
        let changed = store.load(at: fixture.checkpointPath, expecting: fixture.expectation)
        #expect(changed.reason?.field == "crc64")

        // A checkpoint written before the field existed (or for a CRC-64/XZ) has none: its CRCs are CRC-64/XZ.
        let plain = try DownloadFixture()
        try store.save(plain.checkpoint, to: plain.checkpointPath)
        #expect(try !String(decoding: readFile(plain.checkpointPath), as: UTF8.self).contains("crc64Polynomial"))
        let old = try #require(store.load(at: plain.checkpointPath, expecting: plain.expectation).checkpoint)
        #expect(old.object.crc64Polynomial == .xz)
    }

    @Test func uploadRoundTripKeepsEveryField() throws {
        var fixture = try UploadFixture()
        try fixture.checkpoint.recordPart(
            .init(number: 2, etag: "\"b\"", size: 8, crc64: 7, md5: "XrY7u+Ae7tCTyyK7j1rNww==")
        )
        try fixture.checkpoint.recordPart(.init(number: 3, etag: "\"c\"", size: 3))
        let store = CheckpointStore(logger: .scanning)
        try store.save(fixture.checkpoint, to: fixture.checkpointPath)

        let loaded = try #require(store.load(at: fixture.checkpointPath, expecting: fixture.expectation).checkpoint)
        #expect(loaded == fixture.checkpoint)
        #expect(loaded.parts.map(\.number) == [2, 3])
        #expect(loaded.parts[0].md5 == "XrY7u+Ae7tCTyyK7j1rNww==")
        #expect(loaded.parameters.metadata == ["owner": "ops", "purpose": "nightly"])
        #expect(loaded.uploadId == "0004B9894A22E5B1888A1E29F8236E2D")
    }

    @Test func equalCheckpointsGiveIdenticalBytes() throws {
        var first = try DownloadFixture()
        try first.checkpoint.markPartCompleted(1, crc64: 99)
        try first.checkpoint.markPartCompleted(0, crc64: 98)
        // The same state reached in another order.
        var second = first.checkpoint
        second.resetProgress()
        try second.markPartCompleted(0, crc64: 98)
        try second.markPartCompleted(1, crc64: 99)

        let store = CheckpointStore(logger: .scanning)
        try store.save(first.checkpoint, to: first.checkpointPath)
        let onDisk = try readFile(first.checkpointPath)
        #expect(try CheckpointStore.encode(second) == onDisk)
        try store.save(second, to: first.checkpointPath)
        #expect(try readFile(first.checkpointPath) == onDisk)

        var upload = try UploadFixture()
        try upload.checkpoint.recordPart(.init(number: 1, etag: "a", size: 8, crc64: 1))
        #expect(try CheckpointStore.encode(upload.checkpoint) == CheckpointStore.encode(upload.checkpoint))
    }

    @Test func envelopeHasTheDocumentedShape() throws {
        var fixture = try DownloadFixture()
        try fixture.checkpoint.markPartCompleted(1, crc64: 18_446_744_073_709_551_615)
        try CheckpointStore(logger: .scanning).save(fixture.checkpoint, to: fixture.checkpointPath)
        let text = String(decoding: try readFile(fixture.checkpointPath), as: UTF8.self)

        // The digest is the SHA-256 of the exact bytes between `"data":` and `,"digest"`.
        #expect(text.hasPrefix("{\"data\":{"))
        let dataStart = text.index(text.startIndex, offsetBy: "{\"data\":".count)
        let dataEnd = try #require(text.range(of: ",\"digest\":\"")).lowerBound
        let data = String(text[dataStart..<dataEnd])
        let digest = ByteEncoding.hex(Hashing.SHA256.hash(data))
        #expect(
            text.hasSuffix(
                ",\"digest\":\"\(digest)\",\"format\":\"swift-object-storage.checkpoint\",\"kind\":\"download\","
                    + "\"version\":1}\n"
            )
        )
        // Integers only: CRC64s as decimal strings, sizes as JSON integers, no floats.
        #expect(data.contains("\"crc64\":\"18446744073709551615\""))
        #expect(data.contains("\"completedParts\":[{\"crc64\":\"18446744073709551615\",\"index\":1}]"))
        #expect(data.contains("\"partSize\":8"))
        #expect(data.contains("\"size\":20"))
        #expect(data.contains("\"destinationPath\":\"\(fixture.destination)\""))
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?["kind"] as? String == "download")
    }

    @Test func savedFileIsPrivateAndLeavesNoTemporaryFile() throws {
        let fixture = try UploadFixture()
        try CheckpointStore(logger: .scanning).save(fixture.checkpoint, to: fixture.checkpointPath)
        var info = stat()
        #expect(stat(fixture.checkpointPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try fixture.directory.names() == ["backup.tar", "backup.tar.ucp"])
    }

    @Test func largeInodeAndDeviceNumbersSurvive() throws {
        var fixture = try UploadFixture()
        let huge = FileIdentity(
            size: 19,
            mtimeNanoseconds: 1_715_150_708_123_456_789,
            inode: UInt64.max,
            device: 1 << 63
        )
        fixture.checkpoint.source = huge
        try CheckpointStore(logger: .scanning).save(fixture.checkpoint, to: fixture.checkpointPath)
        var expectation = fixture.expectation
        expectation.source = huge
        let loaded = CheckpointStore(logger: .scanning).load(at: fixture.checkpointPath, expecting: expectation)
        #expect(loaded.checkpoint?.source == huge)
    }

    @Test func removeDeletesTheCheckpointAndToleratesAbsence() throws {
        let fixture = try UploadFixture()
        let store = CheckpointStore(logger: .scanning)
        try store.save(fixture.checkpoint, to: fixture.checkpointPath)
        try store.remove(at: fixture.checkpointPath)
        #expect(store.load(at: fixture.checkpointPath, expecting: fixture.expectation).reason?.code == .missing)
        try store.remove(at: fixture.checkpointPath)
    }
}
