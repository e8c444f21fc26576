//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorageSigning

/// S3's full-object CRC-64/NVME checksum, as the client sends and reads it: `x-amz-checksum-crc64nvme`, the base64
/// of the CRC's eight big-endian bytes. S3 keeps one for every object uploaded since December 2024, checks one a
/// request sends against its bytes, and reports it to a GET or HEAD that asks with `x-amz-checksum-mode: ENABLED`.
enum S3Checksum {

    /// The object's CRC-64/NVME in an answer, unless the answer says it is a checksum of the parts' checksums
    /// (`x-amz-checksum-type: COMPOSITE`).
    static func fullObjectValue(in headers: HTTPHeaders) -> UInt64? {
        guard let text = headers.first(name: S3ChecksumHeader.crc64nvme),
            headers.first(name: S3ChecksumHeader.type).map({ $0.uppercased() == "FULL_OBJECT" }) ?? true
        else { return nil }
        return CRC64.value(base64: text.filter { $0 != " " })
    }
}
