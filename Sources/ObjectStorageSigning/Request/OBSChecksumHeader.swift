//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The name of the OBS header that carries an upload's CRC-64/XZ (ECMA-182) in decimal, shared by the client and
/// the local server. OBS's SDKs send it with PutObject, UploadPart and CompleteMultipartUpload (the parts' values
/// combined) when asked to attach a CRC-64, and read it back from those answers and from a GET or HEAD.
package enum OBSChecksumHeader {
    /// `x-obs-checksum-crc64ecma`.
    package static let crc64 = "x-obs-checksum-crc64ecma"
}
