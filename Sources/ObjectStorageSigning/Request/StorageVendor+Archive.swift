//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension StorageVendor {
    /// The storage classes whose objects must be restored before they are read: S3 `GLACIER` and `DEEP_ARCHIVE`
    /// (not `GLACIER_IR`, read at once), OSS `Archive`, `ColdArchive` and `DeepColdArchive` (an Archive bucket without
    /// real-time access), OBS `COLD` and `DEEP_ARCHIVE`.
    package func isArchive(_ storageClass: String?) -> Bool {
        guard let storageClass else { return false }
        switch self.kind {
        case .s3: return ["GLACIER", "DEEP_ARCHIVE"].contains(storageClass)
        case .oss: return ["Archive", "ColdArchive", "DeepColdArchive"].contains(storageClass)
        case .obs: return ["COLD", "DEEP_ARCHIVE"].contains(storageClass)
        }
    }
}
