//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What ``ObjectStorageClient/uploadFile(_:progress:logger:)`` did.
public struct UploadFileResult: Sendable, Hashable {
    /// The object's entity tag.
    public var etag: String?
    /// The object's version id, when versioning is on.
    public var versionID: String?
    /// The object's CRC-64 as the service reported it (OSS), if any.
    public var crc64: UInt64?
    /// Whether the service's CRC-64 of the whole object was compared with the client's and matched.
    public var crc64Verified: Bool
    /// Whether every byte was sent with a `Content-MD5` the service accepted (``UploadFileRequest/enableMD5Check``).
    /// Parts reused from a checkpoint count when they were sent with one.
    public var md5Verified: Bool
    /// Whether a multipart upload was used (otherwise a single PUT).
    public var isMultipart: Bool
    /// The part size used (after clamping and the 10,000-part fit); the file size for a single PUT.
    public var partSize: Int64
    /// The number of parts sent by this call.
    public var partsUploaded: Int
    /// The number of parts reused from an earlier call (recorded in the checkpoint and listed by the server).
    public var partsReused: Int
    /// How many times a multipart upload was started over because the server no longer knew it
    /// (`NoSuchUpload`) or the file had changed since the checkpoint was written.
    public var restarts: Int

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - etag: The object's entity tag.
    ///   - versionID: The version id.
    ///   - crc64: The service's CRC-64.
    ///   - crc64Verified: Whether the CRC-64 was checked.
    ///   - md5Verified: Whether Content-MD5 was sent for every byte.
    ///   - isMultipart: Whether multipart was used.
    ///   - partSize: The part size used.
    ///   - partsUploaded: Parts sent by this call.
    ///   - partsReused: Parts reused from a checkpoint.
    ///   - restarts: Multipart uploads started over.
    public init(
        etag: String?,
        versionID: String?,
        crc64: UInt64?,
        crc64Verified: Bool,
        md5Verified: Bool,
        isMultipart: Bool,
        partSize: Int64,
        partsUploaded: Int,
        partsReused: Int,
        restarts: Int
    ) {
        self.etag = etag
        self.versionID = versionID
        self.crc64 = crc64
        self.crc64Verified = crc64Verified
        self.md5Verified = md5Verified
        self.isMultipart = isMultipart
        self.partSize = partSize
        self.partsUploaded = partsUploaded
        self.partsReused = partsReused
        self.restarts = restarts
    }
}
