//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The names of the S3 headers that carry its full-object CRC-64/NVME checksum, shared by the client, its
/// checkpoints and the local server.
package enum S3ChecksumHeader {
    /// The checksum itself, base64 of the big-endian value.
    package static let crc64nvme = "x-amz-checksum-crc64nvme"
    /// On CreateMultipartUpload: the algorithm the parts' checksums use (`CRC64NVME`).
    package static let algorithm = "x-amz-checksum-algorithm"
    /// `FULL_OBJECT` or `COMPOSITE`.
    package static let type = "x-amz-checksum-type"
    /// `ENABLED` on a GET or HEAD asks for the object's checksum.
    package static let mode = "x-amz-checksum-mode"
}
