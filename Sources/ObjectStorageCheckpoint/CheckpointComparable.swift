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

/// A checkpoint's identity: which object on which service (`vendor`, `endpoint`, `bucket`, `key`), then the
/// direction's own fields. Both directions compare and describe the object's four fields the same way.
protocol CheckpointObjectIdentity: CheckpointComparable {
    var vendor: String { get }
    var endpoint: String { get }
    var bucket: String { get }
    var key: String { get }
}

extension CheckpointObjectIdentity {
    /// The first of `vendor`, `endpoint`, `bucket` and `key` that differs from `other`'s, or `nil` when the object
    /// is the same.
    func firstObjectDifference(from other: Self) -> String? {
        if vendor != other.vendor { return "vendor" }
        if endpoint != other.endpoint { return "endpoint" }
        if bucket != other.bucket { return "bucket" }
        if key != other.key { return "key" }
        return nil
    }

    /// `field`'s value as a discard message shows it, when `field` names one of the object's four fields.
    func describeObject(field: String) -> String? {
        switch field {
        case "vendor": vendor
        case "endpoint": endpoint
        case "bucket": "'\(bucket)'"
        case "key": "'\(key)'"
        default: nil
        }
    }
}

extension DownloadCheckpoint.Identity: CheckpointObjectIdentity {
    func describe(field: String) -> String {
        if let value = describeObject(field: field) { return value }
        switch field {
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

extension UploadCheckpoint.Identity: CheckpointObjectIdentity {
    func describe(field: String) -> String {
        describeObject(field: field) ?? sourcePath
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
