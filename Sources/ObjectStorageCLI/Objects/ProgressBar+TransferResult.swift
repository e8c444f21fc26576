//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

extension ProgressBar {
    /// The figures and the verification of a finished upload, download or copy (all report the same
    /// ``TransferResult``), e.g. `3.0 MiB, 3158073 bytes in 0.12 s at 17.55 MB/s; verified: CRC-64`.
    ///
    /// - Parameters:
    ///   - result: What the transfer did.
    ///   - showsVerification: Whether the text ends with how the object was checked (the demo says it in its own
    ///     words on the next line).
    func figures(_ result: TransferResult, showsVerification: Bool = true) -> String {
        let figures = self.figures(
            totalBytes: result.bytesTransferred + result.bytesReused,
            reusedBytes: result.bytesReused,
            transferredBytes: result.bytesTransferred,
            parts: (result.partsReused, result.partCount),
            restarts: result.restarts
        )
        return showsVerification ? figures + "; " + Self.phrase(result.verification) : figures
    }

    /// `verified: CRC-64`, `verified: CRC-64/NVME`, `verified: MD5`,
    /// `verified: MD5 of 8.0 MiB parts (multipart ETag)` or `not verified: <reason>`.
    static func phrase(_ verification: TransferResult.Verification) -> String {
        switch verification {
        case .crc64: return "verified: CRC-64"
        case .crc64NVME: return "verified: CRC-64/NVME"
        case .md5: return "verified: MD5"
        case .multipartETag(_, let partSize):
            return "verified: MD5 of \(Self.size(partSize)) parts (multipart ETag)"
        case .none(let reason): return "not verified: \(reason)"
        }
    }
}
