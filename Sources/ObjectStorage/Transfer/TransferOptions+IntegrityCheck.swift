//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension TransferOptions {
    /// How much a transfer checks end to end, and what it may spend on it. ``TransferResult/verification`` says
    /// what was checked.
    ///
    /// Whatever the choice, every response body is checked against its length, and on OSS each part's own CRC-64
    /// is checked as it arrives.
    public enum IntegrityCheck: Sendable, Hashable {
        /// Every check the service makes possible (the default). A CRC-64 (OSS, OBS) or CRC-64/NVME (S3) of the
        /// whole object is combined from the parts' as they arrive, and a multipart ETag from the MD5 of each
        /// part as it arrives when the download's parts are the object's. A download reads its file back once
        /// only where nothing else proves the bytes: an object uploaded in one piece whose ETag is the MD5 of the
        /// whole (an MD5 cannot be combined from parts fetched out of order), or a multipart ETag whose part size
        /// the service does not report and which the download's own parts do not reproduce.
        case full
        /// Only the checks made on the bytes as they arrive: never a second read of the downloaded file. A
        /// download that could only be checked by reading its file back reports
        /// ``TransferResult/Verification/none(reason:)``, and saves that read (about 1.7 s of CPU per GiB for
        /// the MD5, plus the disk's read when the file has left the page cache).
        case streamed
        /// No end-to-end check: nothing is combined or hashed beyond what each part's transport checks.
        case off
    }
}
