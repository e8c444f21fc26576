//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageCheckpoint
import ObjectStorageSigning

extension UploadFileStrategy {
    /// The object of an upload that a killed run had already completed: CompleteMultipartUpload
    /// succeeded but the checkpoint was not removed, so the resume gets NoSuchUpload.
    ///
    /// Applies only when the checkpoint records every part and ``objectMatching(_:)`` finds its object.
    /// `nil` otherwise (the caller starts a new upload).
    func completedEarlier(_ checkpoint: UploadCheckpoint) async -> TransferCompletion? {
        guard let (head, crc64, verification) = await objectMatching(checkpoint) else { return nil }
        let verifiedBy = if case .crc64 = verification { "crc64" } else { "etag" }
        logger.notice(
            "the upload was already completed by an earlier run; removed the leftover checkpoint",
            metadata: ["os.upload_id": "\(checkpoint.uploadId)", "os.verified": "\(verifiedBy)"]
        )
        return TransferCompletion(etag: head.etag, versionID: head.versionID, crc64: crc64, verification: verification)
    }

    /// The object as a HEAD reports it, when it is the one the multipart upload of `checkpoint` makes.
    ///
    /// Applies only when the checkpoint records every part. The object must have the file's size and either
    /// a CRC-64 equal to the combined part CRC-64s or, without CRC-64s, the multipart ETag of the recorded
    /// part ETags.
    ///
    /// - Returns: The HEAD, the object's CRC-64 and how the match was verified; `nil` when the HEAD fails or
    ///   the object is another one.
    func objectMatching(
        _ checkpoint: UploadCheckpoint
    ) async -> (head: ObjectAttributes, crc64: UInt64?, verification: TransferResult.Verification)? {
        guard checkpoint.isComplete else { return nil }
        let head: ObjectAttributes
        do {
            head = try await client.headObject(bucket: request.bucket, key: request.key, logger: logger)
        } catch {
            logger.debug("could not check whether the upload was completed: \(error)")
            return nil
        }
        guard head.contentLength == checkpoint.source.size else { return nil }
        let crc64 = Self.crc64(of: head)
        var verification = TransferResult.Verification.none(reason: "the service reports no CRC-64")
        if let crc64, let combined = checkpoint.combinedCRC64() {
            guard crc64 == combined else { return nil }
            verification = .crc64(crc64)
        } else {
            guard let etag = head.etag, let expected = Self.multipartETag(of: checkpoint.parts.map(\.etag)),
                Self.bareETag(etag) == expected
            else { return nil }
        }
        return (head, crc64, verification)
    }

    /// The ETag S3-style services give a multipart object: the hex MD5 of the concatenated binary
    /// part MD5s, `-`, the part count (lowercase, unquoted). `nil` unless every part ETag is a plain
    /// MD5 in hex.
    ///
    /// - Parameter partETags: The part ETags in part-number order.
    /// - Returns: The expected object ETag, or `nil`.
    static func multipartETag(of partETags: [String]) -> String? {
        guard !partETags.isEmpty else { return nil }
        var digests = [UInt8]()
        for etag in partETags {
            let bare = bareETag(etag)
            guard bare.utf8.count == 32, let bytes = ByteEncoding.bytes(fromHex: bare) else { return nil }
            digests += bytes
        }
        return ByteEncoding.hex(Hashing.MD5.hash(digests)) + "-\(partETags.count)"
    }

    /// The object's CRC-64 from a HEAD: OSS `x-oss-hash-crc64ecma` or OBS `x-obs-hash-crc64ecma`.
    static func crc64(of head: ObjectAttributes) -> UInt64? {
        if let crc64 = head.crc64 { return crc64 }
        let header = head.headers.first { $0.name.lowercased() == "x-obs-hash-crc64ecma" }
        return header.flatMap { UInt64($0.value) }
    }

    /// An ETag without `W/`, quotes and case.
    static func bareETag(_ etag: String) -> String {
        var text = Substring(etag)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        while text.first == "\"" { text = text.dropFirst() }
        while text.last == "\"" { text = text.dropLast() }
        return text.lowercased()
    }
}
