//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Uploads an object in one request.
///
/// ```swift
/// var request = PutObjectRequest(bucket: "photos", key: "2024/cat.jpg", body: .file(path: "/tmp/cat.jpg"))
/// request.attributes.contentType = "image/jpeg"
/// request.attributes.metadata = ["camera": "x100"]
/// ```
public struct PutObjectRequest: Sendable {
    /// The bucket.
    public var bucket: String
    /// The object key.
    public var key: String
    /// The content.
    public var body: UploadBody
    /// The object's media type, metadata, content headers, ACL, storage class and encryption.
    public var attributes: UploadAttributes
    /// An explicit `Content-MD5` (base64 of the MD5 digest); the service rejects a mismatch.
    public var contentMD5: String?
    /// Computes and sends `Content-MD5` for an in-memory body.
    public var computesContentMD5 = false
    /// Writes only if no object has the key, or only over the object with this ETag (see ``WriteCondition``
    /// for what each service offers); `nil` (the default) writes unconditionally.
    public var condition: WriteCondition?
    /// A CRC-64 of the body for the service to check and keep (S3's or OBS's, ``SentChecksum``).
    var checksum: SentChecksum?

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - body: The content.
    ///   - attributes: What the object is; the service's defaults when not given.
    public init(bucket: String, key: String, body: UploadBody, attributes: UploadAttributes = UploadAttributes()) {
        self.bucket = bucket
        self.key = key
        self.body = body
        self.attributes = attributes
    }
}
