//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The attributes of the object ``ObjectStorageClient/uploadFile(from:bucket:key:attributes:options:logger:progress:)``
/// creates: what the object is, as ``TransferOptions`` says how it travels.
///
/// ```swift
/// var attributes = UploadAttributes()
/// attributes.contentType = "video/mp4"
/// attributes.metadata = ["owner": "media-team"]
/// ```
public struct UploadAttributes: Sendable, Hashable {
    /// The media type; guessed from the file's extension when `nil` (`application/octet-stream`
    /// when the extension is unknown).
    public var contentType: String?
    /// User metadata, without the `x-*-meta-` prefix.
    public var metadata: [String: String] = [:]
    /// A canned ACL for the object.
    public var acl: ObjectACL?
    /// The storage class of the object.
    public var storageClass: StorageClass?
    /// Server-side encryption of the object.
    public var serverSideEncryption: ServerSideEncryption?
    /// The website redirect location (`x-oss-`/`x-obs-`/`x-amz-website-redirect-location`).
    public var websiteRedirectLocation: String?

    /// Creates attributes, with the service's defaults for what is not given.
    ///
    /// - Parameters:
    ///   - contentType: The media type, `nil` to guess it from the file's extension.
    ///   - metadata: User metadata, without the `x-*-meta-` prefix.
    public init(contentType: String? = nil, metadata: [String: String] = [:]) {
        self.contentType = contentType
        self.metadata = metadata
    }
}
