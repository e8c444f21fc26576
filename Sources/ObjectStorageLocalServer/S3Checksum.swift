//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// S3's full-object CRC-64/NVME checksum (`x-amz-checksum-crc64nvme`), which the server keeps for every object
/// whatever the dialect, as S3 does for every object uploaded since December 2024:
/// - a PutObject, UploadPart or CompleteMultipartUpload that sends one has it checked against the bytes (400
///   `BadDigest` when they differ, 400 `InvalidRequest` when it is not the base64 of eight bytes);
/// - a multipart object's is combined from its parts' (`FULL_OBJECT`, never a checksum of checksums);
/// - PutObject and CompleteMultipartUpload report it, and a whole-object GET or HEAD does when asked with
///   `x-amz-checksum-mode: ENABLED` (a range or part is not reported, as S3 reports none for a range).
///
/// Only the S3 dialect reads or writes these headers, and only while `Configuration.keepsS3Checksums` is on. The other algorithms (`crc32`, `crc32c`, `sha1`,
/// `sha256`) are not kept: a request that names one is served as if it had not.
enum S3Checksum {

    /// Checks the request's `x-amz-checksum-crc64nvme`, if it sent one, against `computed`.
    ///
    /// - Throws: 400 `InvalidRequest` for a value that is not a CRC-64; 400 `BadDigest` when it differs.
    static func check(_ context: RequestHandler.Context, computed: UInt64) throws(ServerError) {
        guard isKept(context), let text = context.request.header(S3ChecksumHeader.crc64nvme) else { return }
        guard let expected = CRC64.value(base64: text.trimmingWhitespace()) else {
            throw ServerError.invalidRequest("Value for \(S3ChecksumHeader.crc64nvme) header is invalid.")
        }
        guard expected == computed else {
            throw ServerError(
                status: 400,
                code: "BadDigest",
                message: "The CRC64NVME you specified did not match the calculated checksum."
            )
        }
    }

    /// The headers that report an object's checksum in the S3 dialect; none in the others or for an object
    /// stored before the server kept one.
    static func headers(_ crc: UInt64?, context: RequestHandler.Context) -> [(String, String)] {
        guard isKept(context), let crc else { return [] }
        return [(S3ChecksumHeader.crc64nvme, CRC64.base64(crc)), (S3ChecksumHeader.type, "FULL_OBJECT")]
    }

    /// Whether a GET or HEAD asked for the object's checksum.
    static func isRequested(_ context: RequestHandler.Context) -> Bool {
        isKept(context) && context.request.header(S3ChecksumHeader.mode)?.uppercased() == "ENABLED"
    }

    /// Whether this request's dialect reads and reports the checksum (S3's, while the server keeps them).
    static func isKept(_ context: RequestHandler.Context) -> Bool {
        context.keepsS3Checksums && context.dialect.kind == .s3
    }
}
