//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What a finished ``ObjectStorageClient/resumableDownload(bucket:key:to:options:logger:progress:)``
/// fetched and how its bytes were verified.
public struct ResumableDownloadResult: Sendable, Hashable {
    /// How the downloaded bytes were checked end to end.
    public enum Verification: Sendable, Hashable, CustomStringConvertible {
        /// The per-part CRC-64s, combined, equal the service's whole-object CRC-64 (OSS).
        case crc64(UInt64)
        /// The MD5 of the file equals the object's single-part ETag (hex digest).
        case md5(String)
        /// Not verified, and why (a byte range, a multipart or non-MD5 ETag, an encrypted object,
        /// verification turned off...).
        case none(reason: String)

        /// `crc64 <value>`, `md5 <hex>` or `none (<reason>)`.
        public var description: String {
            switch self {
            case .crc64(let value): return "crc64 \(value)"
            case .md5(let hex): return "md5 \(hex)"
            case .none(let reason): return "none (\(reason))"
            }
        }
    }

    /// The object's size in bytes (the whole object, not the range).
    public var objectSize: Int64
    /// The ETag of the version downloaded, as the service sent it.
    public var etag: String
    /// The `Last-Modified` header of that version, verbatim.
    public var lastModified: String?
    /// The version id, if the service reported one.
    public var versionID: String?
    /// The object's CRC-64 as the service reported it, if it did.
    public var crc64: UInt64?
    /// The object offsets written to the destination (the range, or the whole object).
    public var range: Range<Int64>
    /// The absolute path of the destination file.
    public var destination: String
    /// Bytes received during this call (excluding bytes that were discarded on a restart).
    public var bytesDownloaded: Int64
    /// Bytes kept from an earlier run through the checkpoint.
    public var bytesReused: Int64
    /// The number of parts the transfer was cut into.
    public var partCount: Int
    /// The part size used (the checkpoint's on a resume).
    public var partSize: Int64
    /// How many times the download started over because the object changed.
    public var restarts: Int
    /// How the bytes were verified.
    public var verification: Verification
}
