//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension TransferResult.Verification {
    /// The end-to-end check of a completed multipart upload: the CRC-64/XZ the service reports for the object
    /// against the one the parts combine to.
    ///
    /// - Parameters:
    ///   - reported: The service's CRC-64 of the object, if it reports one.
    ///   - expected: The parts' combined CRC-64, if known; computed only when there is a reported one to compare.
    ///   - verify: Whether ``TransferOptions/integrityCheck`` is not `.off`.
    /// - Returns: ``crc64(_:)`` when the two match; ``none(reason:)`` when there is nothing to compare.
    /// - Throws: ``ObjectStorageError/Code/integrityMismatch`` when they differ.
    static func completedUpload(
        reported: UInt64?,
        expected: @autoclosure () -> UInt64?,
        verify: Bool
    ) throws(ObjectStorageError) -> Self {
        guard verify, let reported, let expected = expected() else {
            return .none(reason: verify ? "the service reports no CRC-64" : "verification turned off")
        }
        guard reported == expected else {
            throw .integrityMismatch(
                checksum: "CRC-64/XZ",
                expected: String(reported),
                actual: String(expected),
                operation: "CompleteMultipartUpload"
            )
        }
        return .crc64(reported)
    }
}
