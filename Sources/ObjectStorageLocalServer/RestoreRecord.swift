//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The restore of an archived object: readable from `readyAt` until `expiresAt` (seconds since 1970).
struct RestoreRecord: Codable, Sendable, Hashable {
    var readyAt: Int64
    var expiresAt: Int64

    /// Whether the object can be read at `now`.
    func isReadable(at now: Int64) -> Bool { now >= self.readyAt && now < self.expiresAt }

    /// The `x-*-restore` header at `now`: in progress, or done until the expiry; `nil` once the copy has expired.
    func header(at now: Int64) -> String? {
        if now < self.readyAt { return "ongoing-request=\"true\"" }
        guard now < self.expiresAt else { return nil }
        return "ongoing-request=\"false\", expiry-date=\"\(HTTPDate.imfFixdate(self.expiresAt))\""
    }
}

extension StorageVendor {
    /// The days a restored copy may be kept: S3 at least 1; OSS 1 to 7 for Archive, to 365 for the colder classes;
    /// OBS 1 to 30.
    func restoreDays(for storageClass: String) -> ClosedRange<Int> {
        switch self.kind {
        case .s3: 1...Int(Int32.max)
        case .oss: storageClass == "Archive" ? 1...7 : 1...365
        case .obs: 1...30
        }
    }
}
