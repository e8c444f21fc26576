//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

@Suite("Part math and combined CRC64")
struct PartLayoutTests {
    @Test func emptyTransferHasNoParts() throws {
        let layout = try PartLayout(length: 0, partSize: 8)
        #expect(layout.partCount == 0)
        #expect(layout.range(ofPart: 0) == 0..<0)
    }

    @Test func oneByteIsOnePart() throws {
        let layout = try PartLayout(length: 1, partSize: 8 << 20)
        #expect(layout.partCount == 1)
        #expect(layout.range(ofPart: 0) == 0..<1)
        #expect(layout.size(ofPart: 0) == 1)
    }

    @Test func exactMultipleHasNoShortPart() throws {
        let layout = try PartLayout(length: 24, partSize: 8)
        #expect(layout.partCount == 3)
        #expect((0..<3).map { layout.range(ofPart: $0) } == [0..<8, 8..<16, 16..<24])
        #expect(layout.range(ofPart: 3) == 0..<0)
        #expect(layout.range(ofPart: -1) == 0..<0)
    }

    @Test func lastPartIsShorter() throws {
        let layout = try PartLayout(length: 20, partSize: 8)
        #expect(layout.partCount == 3)
        #expect((0..<3).map { layout.size(ofPart: $0) } == [8, 8, 4])
    }

    @Test func rangeSubsetShiftsObjectOffsetsButNotLocalOnes() throws {
        // bytes=5-17 of a 20-byte object: 13 bytes, parts 5..<10, 10..<15, 15..<18.
        let range = try #require(CheckpointByteRange(first: 5, last: 17).resolved(objectSize: 20))
        #expect(range == 5..<18)
        let layout = try PartLayout(length: 13, partSize: 5, start: 5)
        #expect((0..<layout.partCount).map { layout.range(ofPart: $0) } == [5..<10, 10..<15, 15..<18])
        #expect((0..<layout.partCount).map { layout.localRange(ofPart: $0) } == [0..<5, 5..<10, 10..<13])
    }

    @Test func byteRangeResolution() {
        #expect(CheckpointByteRange(first: 0).resolved(objectSize: 20) == 0..<20)
        #expect(CheckpointByteRange(first: 19).resolved(objectSize: 20) == 19..<20)
        #expect(CheckpointByteRange(first: 10, last: 1_000).resolved(objectSize: 20) == 10..<20)
        #expect(CheckpointByteRange(first: 20).resolved(objectSize: 20) == nil)
        #expect(CheckpointByteRange(first: 5, last: 4).resolved(objectSize: 20) == nil)
        #expect(CheckpointByteRange(first: -1).resolved(objectSize: 20) == nil)
        #expect(CheckpointByteRange(first: 0).resolved(objectSize: 0) == nil)
        #expect(CheckpointByteRange(first: 3, last: 9).description == "bytes=3-9")
    }

    @Test func invalidLayoutsAreRefused() {
        #expect(throws: CheckpointError.self) { try PartLayout(length: 10, partSize: 0) }
        #expect(throws: CheckpointError.self) { try PartLayout(length: -1, partSize: 8) }
        #expect(throws: CheckpointError.self) { try PartLayout(length: 10, partSize: 8, start: Int64.max) }
    }

    @Test func downloadProgressHelpers() throws {
        var fixture = try DownloadFixture()
        #expect(fixture.checkpoint.partCount == 3)
        #expect(fixture.checkpoint.missingParts == [0, 1, 2])
        try fixture.checkpoint.markPartCompleted(2, crc64: 1)
        #expect(fixture.checkpoint.missingParts == [0, 1])
        #expect(fixture.checkpoint.bytesCompleted == 4)
        #expect(fixture.checkpoint.isPartCompleted(2))
        #expect(fixture.checkpoint.combinedCRC64() == nil)
        #expect(throws: CheckpointError.self) { try fixture.checkpoint.markPartCompleted(3, crc64: 1) }
        fixture.checkpoint.markPartMissing(2)
        #expect(fixture.checkpoint.bytesCompleted == 0)
    }

    @Test func rangedDownloadUsesTheRangeLength() throws {
        let fixture = try DownloadFixture(range: CheckpointByteRange(first: 5, last: 17))
        #expect(fixture.checkpoint.transferRange == 5..<18)
        #expect(fixture.checkpoint.expectedTempFileSize == 13)
        #expect(fixture.checkpoint.partCount == 2)
        #expect(fixture.checkpoint.layout.range(ofPart: 1) == 13..<18)
    }

    @Test func unsatisfiableRangeIsRefused() throws {
        let fixture = try DownloadFixture()
        var identity = fixture.identity
        identity.range = CheckpointByteRange(first: 20)
        #expect(throws: CheckpointError.self) {
            try DownloadCheckpoint(
                identity: identity,
                object: fixture.object,
                partSize: 8,
                tempFilePath: fixture.checkpoint.tempFilePath
            )
        }
    }

    @Test func emptyObjectDownloadIsCompleteAtOnce() throws {
        let fixture = try DownloadFixture()
        let empty = try DownloadCheckpoint(
            identity: fixture.identity,
            object: .init(size: 0, etag: "\"d41d8cd98f00b204e9800998ecf8427e\""),
            partSize: 8,
            tempFilePath: fixture.checkpoint.tempFilePath
        )
        #expect(empty.partCount == 0)
        #expect(empty.isComplete)
        #expect(empty.combinedCRC64() == 0)
        #expect(empty.expectedTempFileSize == 0)
    }

    @Test(arguments: [1, 2, 7, 8, 9, 64, 1000])
    func combinedDownloadCRCEqualsTheWholeDataCRC(partSize: Int) throws {
        let data = generatedBytes(count: 1000) { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let fixture = try DownloadFixture()
        var checkpoint = try DownloadCheckpoint(
            identity: fixture.identity,
            object: .init(size: Int64(data.count), etag: "e"),
            partSize: Int64(partSize),
            tempFilePath: fixture.checkpoint.tempFilePath
        )
        // Complete the parts in reverse order, as parallel workers might.
        for index in (0..<checkpoint.partCount).reversed() {
            let range = checkpoint.layout.localRange(ofPart: index)
            try checkpoint.markPartCompleted(
                index,
                crc64: CRC64.checksum(data[Int(range.lowerBound)..<Int(range.upperBound)])
            )
        }
        // CRC-64/XZ check value of "123456789" is 0x995DC9BBDF1939FA; the whole-data value is
        // computed in one pass, independently of the per-part path.
        #expect(CRC64.checksum(Array("123456789".utf8)) == 0x995D_C9BB_DF19_39FA)
        #expect(checkpoint.combinedCRC64() == CRC64.checksum(data))
    }

    @Test func uploadPartHelpers() throws {
        var fixture = try UploadFixture()
        #expect(fixture.checkpoint.partCount == 3)
        #expect(fixture.checkpoint.range(ofPart: 3) == 16..<19)
        #expect(fixture.checkpoint.missingPartNumbers == [1, 2, 3])
        #expect(throws: CheckpointError.self) {
            try fixture.checkpoint.recordPart(.init(number: 3, etag: "x", size: 8))  // the last part has 3 bytes
        }
        #expect(throws: CheckpointError.self) {
            try fixture.checkpoint.recordPart(.init(number: 0, etag: "x", size: 8))
        }
        let bytes = Array("the quick brown fox".utf8)
        for number in [3, 1, 2] {
            let range = fixture.checkpoint.range(ofPart: number)
            let part = bytes[Int(range.lowerBound)..<Int(range.upperBound)]
            try fixture.checkpoint.recordPart(
                .init(number: number, etag: "\"e\(number)\"", size: Int64(part.count), crc64: CRC64.checksum(part))
            )
        }
        #expect(fixture.checkpoint.isComplete)
        #expect(fixture.checkpoint.bytesCompleted == 19)
        #expect(fixture.checkpoint.parts.map(\.number) == [1, 2, 3])
        #expect(fixture.checkpoint.combinedCRC64() == CRC64.checksum(bytes))

        // Forgetting a part makes it missing again; forgetting an unrecorded number changes nothing.
        fixture.checkpoint.removePart(number: 2)
        fixture.checkpoint.removePart(number: 2)
        fixture.checkpoint.removePart(number: 9)
        #expect(fixture.checkpoint.parts.map(\.number) == [1, 3])
        #expect(fixture.checkpoint.missingPartNumbers == [2])
        #expect(fixture.checkpoint.bytesCompleted == 11)
        #expect(!fixture.checkpoint.isComplete)
        #expect(fixture.checkpoint.combinedCRC64() == nil)
    }

    @Test func emptyFileUploadHasOneEmptyPart() throws {
        let fixture = try UploadFixture()
        var checkpoint = try UploadCheckpoint(
            identity: fixture.identity,
            source: FileIdentity(size: 0, mtimeNanoseconds: 0, inode: 1, device: 1),
            partSize: 8,
            uploadId: "u"
        )
        #expect(checkpoint.partCount == 1)
        #expect(checkpoint.range(ofPart: 1) == 0..<0)
        try checkpoint.recordPart(.init(number: 1, etag: "e", size: 0, crc64: 0))
        #expect(checkpoint.isComplete)
        #expect(checkpoint.combinedCRC64() == 0)
    }

    @Test func tooManyPartsAreRefused() throws {
        let fixture = try UploadFixture()
        #expect(throws: CheckpointError.self) {
            try UploadCheckpoint(
                identity: fixture.identity,
                source: FileIdentity(size: 10_001, mtimeNanoseconds: 0, inode: 1, device: 1),
                partSize: 1,
                uploadId: "u"
            )
        }
        #expect(throws: CheckpointError.self) {
            try UploadCheckpoint(
                identity: fixture.identity,
                source: fixture.checkpoint.source,
                partSize: 8,
                uploadId: ""
            )
        }
    }

    @Test func reconcileKeepsOnlyPartsTheServerListsIdentically() throws {
        var fixture = try UploadFixture()
        try fixture.checkpoint.recordPart(.init(number: 1, etag: "\"AAA\"", size: 8))
        try fixture.checkpoint.recordPart(.init(number: 2, etag: "\"BBB\"", size: 8))
        try fixture.checkpoint.recordPart(.init(number: 3, etag: "\"CCC\"", size: 3))
        let dropped = fixture.checkpoint.reconcile(withServerParts: [
            .init(number: 1, etag: "aaa", size: 8),  // same ETag without quotes, other case: kept
            .init(number: 2, etag: "\"XXX\"", size: 8),  // other ETag: dropped
            // part 3 missing on the server: dropped
            .init(number: 4, etag: "\"DDD\"", size: 1),  // unknown locally: ignored
        ])
        #expect(dropped == [2, 3])
        #expect(fixture.checkpoint.parts.map(\.number) == [1])
        #expect(fixture.checkpoint.missingPartNumbers == [2, 3])
    }
}
