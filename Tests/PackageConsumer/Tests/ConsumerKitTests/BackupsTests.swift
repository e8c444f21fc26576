//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ConsumerKit
import ObjectStorage
import ObjectStorageLocalServer
import Synchronization
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app's code against a fresh local server, as a user's own test would run it.
@Suite struct BackupsTests {
    @Test func aFileGoesUpInPartsAndComesBackTheSame() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let original = Data((0..<(12 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try original.write(to: URL(fileURLWithPath: directory + "/db.tar"))

        try await LocalObjectServer.withRunning(vendor: .oss) { client, _ in
            try await client.createBucket(bucket: "backups")
            let backups = Backups(client: client, bucket: "backups")
            let reports = ProgressReports()
            let uploaded = try await backups.backUp(directory + "/db.tar", as: "db.tar") { reports.add($0) }
            #expect(uploaded.objectSize == Int64(original.count))
            #expect(uploaded.partCount == 3)
            #expect(reports.last?.completedBytes == Int64(original.count))

            let restored = try await backups.restore("db.tar", to: directory + "/restored.tar")
            #expect(restored.objectSize == Int64(original.count))
            #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/restored.tar")) == original)

            let link = try await backups.shareLink("db.tar")
            #expect(link.contains("/backups/db.tar?"))
            #expect(link.contains("x-oss-signature="))
        }
    }
}

/// Progress reports, collected from the upload's tasks.
final class ProgressReports: Sendable {
    private let reports = Mutex<[TransferProgress]>([])

    func add(_ progress: TransferProgress) { self.reports.withLock { $0.append(progress) } }

    var last: TransferProgress? { self.reports.withLock { $0.last } }
}
