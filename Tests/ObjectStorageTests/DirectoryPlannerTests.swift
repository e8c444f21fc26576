//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageCheckpoint
import Testing

@testable import ObjectStorage

/// The rules of a directory job, decided on plain entries: no file, no server.
@Suite("The directory job's planner")
struct DirectoryPlannerTests {
    static let md5 = "0cc175b9c0f1b6a831c399e269772661"
    static let otherMD5 = "92eb5ffee6ae2fec3ad71c777531578f"

    static func planner(
        _ direction: DirectoryJob.Direction,
        _ configure: (inout DirectoryTransferOptions) -> Void = { _ in },
        inPlace: Bool = true
    ) -> DirectoryPlanner {
        var options = DirectoryTransferOptions()
        options.largeObjectThreshold = 1000
        configure(&options)
        return DirectoryPlanner(
            direction: direction,
            options: options,
            prefix: "p/",
            directory: "/data",
            vendor: .s3,
            isInPlace: { _, _ in inPlace }
        )
    }

    static func local(_ name: String, size: Int64 = 10, modified: Int64 = 100) -> DirectoryEntry {
        DirectoryEntry(
            name: name,
            size: size,
            modifiedSeconds: modified,
            path: "/data/" + name,
            modificationNanoseconds: modified * 1_000_000_000
        )
    }

    static func object(_ name: String, size: Int64 = 10, modified: Int64 = 100, etag: String = md5) -> DirectoryEntry {
        DirectoryEntry(name: name, size: size, modifiedSeconds: modified, key: "p/" + name, etag: "\"\(etag)\"")
    }

    /// The decision as text, for comparison.
    static func text(_ decision: DirectoryPlanner.Decision) -> String {
        switch decision {
        case .keep: "keep"
        case .delete(let target): "delete \(target)"
        case .unchanged: "unchanged"
        case .finishedEarlier: "finishedEarlier"
        case .skip: "skip"
        case .transfer(let transfer):
            "transfer \(transfer.key ?? transfer.path ?? "?")" + (transfer.unlessMD5 == nil ? "" : " unless MD5")
                + (transfer.isLarge ? " large" : "")
        }
    }

    @Test func copyAlwaysTransfersWhatTheSourceHas() {
        var planner = Self.planner(.upload)
        #expect(
            Self.text(planner.decide(source: Self.local("a"), destination: Self.object("a"), earlier: nil))
                == "transfer p/a"
        )
        #expect(Self.text(planner.decide(source: nil, destination: Self.object("b"), earlier: nil)) == "keep")
        #expect(
            Self.text(planner.decide(source: Self.local("big", size: 1000), destination: nil, earlier: nil))
                == "transfer p/big large"
        )
    }

    @Test func syncComparesSizesAndTimes() {
        var planner = Self.planner(.upload) { $0.comparison = .sizeAndModificationTime }
        let object = Self.object("a", size: 10, modified: 100)
        #expect(
            Self.text(planner.decide(source: Self.local("a", modified: 100), destination: object, earlier: nil))
                == "unchanged"
        )
        #expect(
            Self.text(planner.decide(source: Self.local("a", modified: 99), destination: object, earlier: nil))
                == "unchanged"
        )
        #expect(
            Self.text(planner.decide(source: Self.local("a", modified: 101), destination: object, earlier: nil))
                == "transfer p/a"
        )
        #expect(
            Self.text(planner.decide(source: Self.local("a", size: 11), destination: object, earlier: nil))
                == "transfer p/a"
        )
        var sizeOnly = Self.planner(.upload) { $0.comparison = .sizeOnly }
        #expect(
            Self.text(sizeOnly.decide(source: Self.local("a", modified: 500), destination: object, earlier: nil))
                == "unchanged"
        )
    }

    @Test func checksumComparesDigests() {
        var download = Self.planner(.download) { $0.comparison = .checksum }
        #expect(
            Self.text(download.decide(source: Self.object("a"), destination: Self.local("a"), earlier: nil))
                == "transfer /data/a unless MD5"
        )
        // A multipart ETag is no MD5: the times decide.
        let multipart = Self.object("a", modified: 50, etag: Self.md5 + "-2")
        #expect(
            Self.text(download.decide(source: multipart, destination: Self.local("a"), earlier: nil)) == "unchanged"
        )
        var copy = Self.planner(.copy) { $0.comparison = .checksum }
        #expect(
            Self.text(copy.decide(source: Self.object("a"), destination: Self.object("a"), earlier: nil)) == "unchanged"
        )
        #expect(
            Self.text(
                copy.decide(source: Self.object("a"), destination: Self.object("a", etag: Self.otherMD5), earlier: nil)
            )
                == "transfer p/a"
        )
    }

    @Test func deleteSparesWhatTheWalkLeftOutAndTheJobsOwnFiles() {
        var upload = Self.planner(.upload) { $0.deletesExtraneous = true }
        upload.leftOut("link")
        upload.leftOut("unreadable/")
        #expect(
            Self.text(upload.decide(source: nil, destination: Self.object("gone"), earlier: nil)) == "delete p/gone"
        )
        #expect(Self.text(upload.decide(source: nil, destination: Self.object("link"), earlier: nil)) == "keep")
        #expect(Self.text(upload.decide(source: nil, destination: Self.object("unreadable/x"), earlier: nil)) == "keep")

        var download = Self.planner(.download) { $0.deletesExtraneous = true }
        _ = download.decide(source: Self.object("big", size: 1000), destination: nil, earlier: nil)
        #expect(Self.text(download.decide(source: nil, destination: Self.local("big.part"), earlier: nil)) == "keep")
        #expect(
            Self.text(download.decide(source: nil, destination: Self.local("small.part"), earlier: nil))
                == "delete /data/small.part"
        )
    }

    @Test func keysThatCannotBeFilesOrObjectsAreSkipped() {
        var download = Self.planner(.download)
        for name in ["../escape", "a//b", "x" + DirectoryJob.partialSuffix, String(repeating: "n", count: 256)] {
            #expect(
                Self.text(download.decide(source: Self.object(name), destination: nil, earlier: nil)) == "skip",
                "\(name)"
            )
        }
        var upload = Self.planner(.upload)
        let tooLong = String(repeating: "k", count: 1100)
        #expect(Self.text(upload.decide(source: Self.local(tooLong), destination: nil, earlier: nil)) == "skip")
    }

    @Test func anEarlierRecordFinishesANameStillInPlace() {
        let record = DirectoryManifest.Record(name: "a", size: 10, stamp: "\"\(Self.md5)\"")
        var download = Self.planner(.download)
        #expect(
            Self.text(download.decide(source: Self.object("a"), destination: nil, earlier: record)) == "finishedEarlier"
        )
        var moved = Self.planner(.download, inPlace: false)
        #expect(
            Self.text(moved.decide(source: Self.object("a"), destination: nil, earlier: record)) == "transfer /data/a"
        )
        let stale = DirectoryManifest.Record(name: "a", size: 10, stamp: "\"\(Self.otherMD5)\"")
        #expect(
            Self.text(download.decide(source: Self.object("a"), destination: nil, earlier: stale)) == "transfer /data/a"
        )
    }
}
