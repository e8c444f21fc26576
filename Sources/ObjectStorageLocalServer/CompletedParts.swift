//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// What the parts a CompleteMultipartUpload names add up to: the object's size, its multipart ETag and its two
/// CRC-64s (OSS's CRC-64/XZ and S3's CRC-64/NVME), each combined from the parts' own in one pass.
struct CompletedParts: Sendable {
    private(set) var size: Int64 = 0
    private(set) var crc64: UInt64 = 0
    private(set) var crc64nvme: UInt64 = 0
    /// `<hex MD5 of the parts' MD5s>-<part count>`, unquoted.
    let etag: String

    init(_ parts: [StoredPart]) {
        var md5s: [UInt8] = []
        for part in parts {
            md5s += part.md5
            self.crc64 = CRC64.combine(self.crc64, part.crc64, lengthOfSecond: UInt64(part.size))
            self.crc64nvme = CRC64.combine(
                self.crc64nvme,
                part.crc64nvme,
                lengthOfSecond: UInt64(part.size),
                polynomial: .nvme
            )
            self.size += part.size
        }
        self.etag = ByteEncoding.hex(Hashing.MD5.hash(md5s)) + "-\(parts.count)"
    }
}
