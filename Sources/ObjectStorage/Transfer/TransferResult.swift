//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// What a finished ``ObjectStorageClient/uploadFile(from:bucket:key:attributes:options:logger:progress:)``
/// or ``ObjectStorageClient/resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)``
/// did: one shape for both directions.
///
/// `bytesTransferred + bytesReused` is the size of the transfer (``range``'s length); on a resumed
/// transfer ``bytesReused`` counts what an earlier run had already moved.
public struct TransferResult: Sendable, Hashable {
    /// How the transferred bytes were checked end to end.
    public enum Verification: Sendable, Hashable, CustomStringConvertible {
        /// The parts' CRC-64s, combined, equal the service's whole-object CRC-64 (OSS, OBS).
        case crc64(UInt64)
        /// The parts' CRC-64/NVME checksums, combined, equal the service's whole-object `x-amz-checksum-crc64nvme`
        /// (S3 keeps one for every object uploaded since December 2024, and reports it when asked).
        case crc64NVME(UInt64)
        /// The MD5 of the downloaded file equals the object's single-part ETag (hex digest).
        case md5(String)
        /// The MD5s of the downloaded file's parts, every part `partSize` bytes but the last, combine into the
        /// object's multipart ETag (`<hex>-<parts>`, given by S3 and the services that follow it to an object
        /// uploaded in parts). The part size comes from the service (`?partNumber=1`) or is found among common ones.
        case multipartETag(String, partSize: Int64)
        /// Not verified end to end, and why (a byte range, a multipart or non-MD5 ETag, an encrypted
        /// object, a service without CRC-64, verification turned off...).
        case none(reason: String)

        /// `crc64 <value>`, `crc64nvme <base64>` (as S3 writes it), `md5 <hex>`,
        /// `multipart-etag <hex>-<parts> (parts of <size> bytes)` or `none (<reason>)`.
        public var description: String {
            switch self {
            case .crc64(let value): return "crc64 \(value)"
            case .crc64NVME(let value): return "crc64nvme \(CRC64.base64(value))"
            case .md5(let hex): return "md5 \(hex)"
            case .multipartETag(let etag, let partSize): return "multipart-etag \(etag) (parts of \(partSize) bytes)"
            case .none(let reason): return "none (\(reason))"
            }
        }
    }

    /// The local file: the upload's source or the download's destination, as an absolute path.
    public var filePath: String
    /// The object's entity tag, as the service sent it.
    public var etag: String?
    /// The object's version id, if the service reported one.
    public var versionID: String?
    /// The object's CRC-64 as the service reported it (OSS), if any.
    public var crc64: UInt64?
    /// The object's `Last-Modified` header, verbatim (downloads; `nil` for uploads).
    public var lastModified: String?
    /// The object's size in bytes (for a ranged download, the whole object, not the range).
    public var objectSize: Int64
    /// The object offsets transferred: the whole object, or a download's range.
    public var range: Range<Int64>
    /// Bytes moved by this call (excluding bytes discarded when the transfer started over).
    public var bytesTransferred: Int64
    /// Bytes kept from an earlier run through the checkpoint.
    public var bytesReused: Int64
    /// The part size used (the checkpoint's on a resume; the file size for an upload's single PUT).
    public var partSize: Int64
    /// The number of parts the transfer was cut into.
    public var partCount: Int
    /// The parts moved by this call.
    public var partsTransferred: Int
    /// The parts reused from an earlier run (recorded in the checkpoint and, for an upload, listed by the server).
    public var partsReused: Int
    /// Whether an upload used a multipart upload (otherwise a single PUT); `true` for a download of more than one part.
    public var isMultipart: Bool
    /// How many times the transfer started over: an upload whose multipart upload the server no longer
    /// knew (`NoSuchUpload`) or whose file had changed since the checkpoint; a download whose object changed.
    public var restarts: Int
    /// The end-to-end check of the whole object.
    public var verification: Verification
    /// Uploads: whether every byte was sent with a `Content-MD5` the service accepted
    /// (``TransferOptions/enableMD5Check``), parts reused from a checkpoint included. `false` for downloads.
    public var contentMD5Verified: Bool
    /// How long the call took, from its start to the result.
    public var duration: Duration = .zero
}
