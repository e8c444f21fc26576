//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What an object written by the SDK is: its media type, user metadata, ACL, storage class, encryption and
/// content headers — as ``TransferOptions`` says how it travels.
///
/// One value serves every call that writes an object:
/// ``ObjectStorageClient/uploadFile(from:bucket:key:attributes:options:logger:progress:)``,
/// ``PutObjectRequest``, ``ObjectStorageClient/createMultipartUpload(bucket:key:attributes:logger:)`` and
/// ``ObjectStorageClient/copyObject(bucket:key:sourceBucket:sourceKey:sourceVersionID:sourceIfMatch:sourceIfNoneMatch:attributes:replacesMetadata:condition:logger:)``.
///
/// ```swift
/// var attributes = UploadAttributes(contentType: "video/mp4")
/// attributes.metadata = ["owner": "media-team"]
/// attributes.storageClass = .standardIA
/// ```
public struct UploadAttributes: Sendable, Hashable {
    /// The media type. When `nil`, `uploadFile` guesses it from the file's extension
    /// (`application/octet-stream` when the extension is unknown); the other calls send none and the
    /// service stores its default.
    public var contentType: String?
    /// User metadata, without the `x-*-meta-` prefix (names are printable ASCII without `:`; sent lower-cased).
    public var metadata: [String: String] = [:]
    /// `Cache-Control`, returned with the object.
    public var cacheControl: String?
    /// `Content-Disposition`, returned with the object.
    public var contentDisposition: String?
    /// `Content-Encoding`, returned with the object (the SDK never decodes it).
    public var contentEncoding: String?
    /// A canned ACL for the object.
    public var acl: ObjectACL?
    /// The storage class of the object.
    public var storageClass: StorageClass?
    /// Server-side encryption of the object.
    public var serverSideEncryption: ServerSideEncryption?
    /// The website redirect location (`x-oss-`/`x-obs-`/`x-amz-website-redirect-location`).
    public var websiteRedirectLocation: String?
    /// The object's tags (`x-*-tagging`): at most 10, keys of 1 to 128 characters, values of up to 256 (OBS: 255),
    /// in the characters the vendor accepts; tags beyond those limits are refused with
    /// ``ObjectStorageError/Code/invalidArgument`` before anything is sent. `nil` leaves the service's default: a
    /// new object has no tags, and a copy keeps its source's. On a copy, a value (even empty) replaces them.
    public var tags: [String: String]?

    /// Creates attributes, with the service's defaults for what is not given.
    ///
    /// - Parameters:
    ///   - contentType: The media type (`nil`: see ``contentType``).
    ///   - metadata: User metadata, without the `x-*-meta-` prefix.
    public init(contentType: String? = nil, metadata: [String: String] = [:]) {
        self.contentType = contentType
        self.metadata = metadata
    }

    /// Whether any attribute a CopyObject keeps from its source unless told to replace it is set: the media
    /// type, user metadata, content headers and the website redirect location.
    var describesContent: Bool {
        self.contentType != nil || !self.metadata.isEmpty || self.cacheControl != nil
            || self.contentDisposition != nil || self.contentEncoding != nil || self.websiteRedirectLocation != nil
    }
}
