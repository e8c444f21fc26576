//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension TransferResult.Verification {
    /// The end-to-end check of a completed multipart upload: the CRC-64/XZ the service reports for the object
    /// against the one the parts combine to, then the checksum sent with the completion against the one the service
    /// reports for it.
    ///
    /// - Parameters:
    ///   - reported: The service's CRC-64/XZ of the object, if it reports one.
    ///   - expected: The parts' combined CRC-64/XZ, if known; computed only when there is a reported one to compare.
    ///   - sent: The object's checksum sent with the completion (``SentChecksum``), if any.
    ///   - reportedChecksum: The value the service reports for the sent checksum's kind, if it reports one.
    ///   - verify: Whether ``TransferOptions/integrityCheck`` is not `.off`.
    /// - Returns: The sent checksum's verification when the service reports it back; else ``crc64(_:)`` when the
    ///   CRC-64/XZ values match; ``none(reason:)`` when there is nothing to compare.
    /// - Throws: ``ObjectStorageError/Code/integrityMismatch`` when either pair differs.
    static func completedUpload(
        reported: UInt64?,
        expected: @autoclosure () -> UInt64?,
        sent: SentChecksum? = nil,
        reportedChecksum: UInt64? = nil,
        verify: Bool
    ) throws(ObjectStorageError) -> Self {
        var verification = Self.none(reason: verify ? "the service reports no CRC-64" : "verification turned off")
        if verify, let reported, let expected = expected() {
            guard reported == expected else {
                throw .integrityMismatch(
                    checksum: "CRC-64/XZ",
                    expected: String(reported),
                    actual: String(expected),
                    operation: "CompleteMultipartUpload"
                )
            }
            verification = .crc64(reported)
        }
        if verify, let sent, let reportedChecksum {
            // The service checked the bytes against the value sent; the value it reports must be that one.
            try sent.check(reported: reportedChecksum, operation: "CompleteMultipartUpload")
            verification = sent.kind.verification(sent.value)
        }
        return verification
    }
}
