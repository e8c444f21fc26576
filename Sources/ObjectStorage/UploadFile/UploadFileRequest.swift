//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What ``ObjectStorageClient/uploadFile(_:progress:logger:)`` uploads, where, and how.
///
/// Required fields are `init` parameters; everything else has the OBS SDK's defaults: no checkpoint,
/// no Content-MD5, 5 MiB parts, 4 parts at a time.
///
/// ```swift
/// var request = UploadFileRequest(bucket: "media", key: "videos/talk.mp4", filePath: "/data/talk.mp4")
/// request.enableCheckpoint = true          // a failed or cancelled call can be resumed
/// request.partSize = 8 << 20
/// let result = try await client.uploadFile(request)
/// ```
public struct UploadFileRequest: Sendable {
    /// The default part size: 5 MiB.
    public static let defaultPartSize: Int64 = 5 * 1024 * 1024
    /// The default number of parts uploaded at a time.
    public static let defaultConcurrency = 4
    /// The largest accepted ``concurrency``.
    public static let maximumConcurrency = 128

    /// The bucket.
    public var bucket: String
    /// The object key.
    public var key: String
    /// The local file to upload.
    public var filePath: String
    /// A canned ACL for the object.
    public var acl: ObjectACL?
    /// The storage class of the object.
    public var storageClass: StorageClass?
    /// User metadata, without the `x-*-meta-` prefix.
    public var metadata: [String: String] = [:]
    /// The website redirect location (`x-oss-`/`x-obs-`/`x-amz-website-redirect-location`).
    public var websiteRedirectLocation: String?
    /// Server-side encryption of the object.
    public var serverSideEncryption: ServerSideEncryption?
    /// The media type; guessed from the file's extension when `nil` (`application/octet-stream`
    /// when the extension is unknown).
    public var contentType: String?
    /// Records every uploaded part in a checkpoint file so a failed, cancelled or killed call can be
    /// resumed by calling again with the same request. Off by default (the OBS SDK's default):
    /// a failed multipart upload is then aborted on the server.
    public var enableCheckpoint = false
    /// Sends `Content-MD5` with every part (or with the single PUT). The MD5 is computed by reading
    /// the part's region once, in 1 MiB chunks, just before it is sent (HTTP needs the header before
    /// the body), so each checked byte is read from disk twice.
    public var enableMD5Check = false
    /// The checkpoint file; `nil` for `<filePath>.ucp`. Its directory must exist.
    public var checkpointFilePath: String?
    /// The requested part size in bytes. It is clamped to the provider's limits (OSS and OBS
    /// 100 KiB–5 GiB, S3 5 MiB–5 GiB) and then enlarged so the file fits in 10,000 parts; see
    /// ``UploadPartSizing``.
    public var partSize: Int64 = UploadFileRequest.defaultPartSize
    /// How many parts are uploaded at the same time, `1...maximumConcurrency`.
    public var concurrency: Int = UploadFileRequest.defaultConcurrency
    /// Uses a multipart upload even when the file fits in one part.
    public var forceMultipart = false
    /// OSS: compares the whole object's CRC-64 computed from the parts with the one the service
    /// reports for the finished object (each part's CRC-64 is always checked). On by default;
    /// ignored by providers that report no CRC-64.
    public var enableCRC64Check = true

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - filePath: The local file to upload.
    public init(bucket: String, key: String, filePath: String) {
        self.bucket = bucket
        self.key = key
        self.filePath = filePath
    }
}
