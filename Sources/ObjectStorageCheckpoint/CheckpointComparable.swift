//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// A value a checkpoint records and compares, on load, with the current one: the request's
/// identity, the object's state, the source file's identity.
protocol CheckpointComparable {
    /// The name of the first field where this recorded value differs from `current`, or `nil` when
    /// the checkpoint may be resumed.
    func firstDifference(from current: Self) -> String?

    /// The value of `field` as a discard message shows it.
    func describe(field: String) -> String
}

extension CheckpointComparable {
    /// A `code` discard naming the first field where this recorded value differs from `current` and
    /// both values (`<field> is <recorded> in the checkpoint, expected <current>`), or `nil` if none.
    func mismatch(_ code: CheckpointInvalidReason.Code, from current: Self) -> CheckpointInvalidReason? {
        guard let field = firstDifference(from: current) else { return nil }
        return .mismatch(code, field: field, expected: current.describe(field: field), found: describe(field: field))
    }
}

extension DownloadCheckpoint.Identity: CheckpointComparable {
    func describe(field: String) -> String {
        switch field {
        case "vendor": return vendor
        case "endpoint": return endpoint
        case "bucket": return "'\(bucket)'"
        case "key": return "'\(key)'"
        case "versionId": return versionId ?? "none"
        case "range": return range?.description ?? "none"
        default: return destinationPath
        }
    }
}

extension DownloadCheckpoint.ObjectState: CheckpointComparable {
    func describe(field: String) -> String {
        switch field {
        case "size": return "\(size)"
        case "etag": return etag
        case "lastModified": return lastModified ?? "none"
        case "versionId": return versionId ?? "none"
        default:
            guard let crc64 else { return "none" }
            return crc64Polynomial == .nvme ? "\(CRC64.base64(crc64)) (CRC-64/NVME)" : String(crc64)
        }
    }
}

extension UploadCheckpoint.Identity: CheckpointComparable {
    func describe(field: String) -> String {
        switch field {
        case "vendor": return vendor
        case "endpoint": return endpoint
        case "bucket": return "'\(bucket)'"
        case "key": return "'\(key)'"
        default: return sourcePath
        }
    }
}

extension FileIdentity: CheckpointComparable {
    func describe(field: String) -> String {
        switch field {
        case "size": return "\(size)"
        case "mtime": return "\(mtimeNanoseconds) ns"
        case "inode": return "\(inode)"
        default: return "\(device)"
        }
    }
}
