//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// OBS's CRC-64 (`x-obs-checksum-crc64ecma`): the decimal CRC-64/XZ (ECMA-182) of an upload's bytes, as OBS's SDKs
/// send it when asked to attach one, and read it back:
/// - a PutObject or UploadPart that sends one has it checked against its bytes, and a CompleteMultipartUpload that
///   sends one against the parts' CRCs combined (400 `BadDigest` when they differ, 400 `InvalidArgument` when it is
///   not a decimal 64-bit number);
/// - the answer to such a request repeats it, and the object keeps it: every GET and HEAD of the object reports it.
///   A CopyObject keeps the source's; an object uploaded without one reports none.
///
/// Only the OBS dialect reads or writes the header.
enum OBSChecksum {

    /// The request's checksum once checked against `computed`: `computed` when the request sent one, `nil` when it
    /// sent none or the dialect is not OBS's.
    ///
    /// - Throws: 400 `InvalidArgument` for a value that is not a CRC-64; 400 `BadDigest` when it differs.
    static func check(_ context: RequestHandler.Context, computed: UInt64) throws(ServerError) -> UInt64? {
        guard context.dialect.kind == .obs, let text = context.request.header(OBSChecksumHeader.crc64) else {
            return nil
        }
        let trimmed = text.trimmingWhitespace()
        guard let sent = UInt64(trimmed) else {
            throw ServerError.invalidArgument(
                "The CRC64 you specified is not valid.",
                name: OBSChecksumHeader.crc64,
                value: trimmed
            )
        }
        guard sent == computed else {
            throw ServerError(
                status: 400,
                code: "BadDigest",
                message: "The CRC64 you specified did not match the calculated checksum."
            )
        }
        return computed
    }

    /// The header that reports an object's or part's checksum in the OBS dialect; none in the others, or when its
    /// upload sent none.
    static func headers(_ crc: UInt64?, context: RequestHandler.Context) -> [(String, String)] {
        guard context.dialect.kind == .obs, let crc else { return [] }
        return [(OBSChecksumHeader.crc64, String(crc))]
    }
}
