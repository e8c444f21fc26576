//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
public import ObjectStorageSigning

extension ObjectStorageClient {
    /// Signs a POST policy form that lets a browser upload one file straight to the bucket, under the
    /// conditions given, until the policy expires; the bytes never pass through the app.
    ///
    /// The form is signed with the client's signature scheme (OSS V1 or V4, OBS, AWS V2 or SigV4), endpoint and
    /// addressing, at the clock-corrected time. Every field it carries is also a condition of the policy, so the
    /// service refuses a form whose fields were changed; the security token of temporary credentials is both.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// let form = try await client.presignPost(
    ///     bucket: "uploads", key: "user/42/${filename}", expires: .seconds(600),
    ///     contentLength: 1...10_485_760, attributes: UploadAttributes(contentType: "image/"))
    /// // Render <form action="\(form.url)" method="post" enctype="multipart/form-data">, one hidden
    /// // <input name="…" value="…"> per field of form.fields, then <input type="file" name="file">.
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key; a key ending in `${filename}` allows any key that starts with the part before it
    ///     (the service puts the posted file's name in place of `${filename}`).
    ///   - expires: How long the policy stays valid: 1 s ... 7 days (15 minutes by default).
    ///   - contentLength: The sizes in bytes the file may have; any size up to the service's limit when `nil`.
    ///   - attributes: The object's attributes, posted as fields and required by the policy. A `contentType`
    ///     ending in `/` (such as `image/`) is a prefix: the form must then add its own `Content-Type` field
    ///     starting with it. `websiteRedirectLocation` is not used.
    ///   - successActionStatus: The status of a successful upload: 200, 201 (with an XML document) or 204 (the
    ///     services' default).
    ///   - successActionRedirect: A URL the browser is redirected to after a successful upload (with `bucket`,
    ///     `key` and `etag` in its query), instead of `successActionStatus`.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The form's URL and its ordered fields; the file is posted last, in a field named `file`.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for an anonymous client, an invalid bucket or key,
    ///   or a status other than 200, 201 and 204; ``/ObjectStorageSigning/SigningError`` for an expiry out of
    ///   range; credentials errors.
    public func presignPost(
        bucket: String,
        key: String,
        expires: Duration = .seconds(900),
        contentLength: ClosedRange<Int64>? = nil,
        attributes: UploadAttributes = UploadAttributes(),
        successActionStatus: Int? = nil,
        successActionRedirect: String? = nil,
        logger: Logger? = nil
    ) async throws -> PresignedPost {
        guard let provider = self.configuration.credentials else {
            throw ObjectStorageError.invalidArgument("presigning needs credentials; this client is anonymous")
        }
        try ObjectNameRules.validateBucketReference(bucket)
        let keyPrefix =
            key.hasSuffix(RequestSigner.filenameVariable)
            ? String(key.dropLast(RequestSigner.filenameVariable.count)) : key
        if !keyPrefix.isEmpty { try ObjectNameRules.validateObjectKey(keyPrefix, for: self.configuration.vendor) }
        if let successActionStatus, ![200, 201, 204].contains(successActionStatus) {
            throw ObjectStorageError.invalidArgument(
                "success action status \(successActionStatus) is not one of 200, 201 and 204"
            )
        }
        var fields: [PresignedPost.Field] = []
        var conditions: [PostPolicy.Condition] = []
        var posted = attributes
        posted.websiteRedirectLocation = nil
        if let contentType = attributes.contentType, contentType.hasSuffix("/") {
            posted.contentType = nil
            conditions.append(.startsWith(field: "Content-Type", prefix: contentType))
        }
        let usesACLField = self.configuration.headerPrefix == "x-amz-"
        posted.tags = nil
        for (name, value) in try self.headers(for: posted) {
            fields.append(PresignedPost.Field(name: usesACLField && name == "x-amz-acl" ? "acl" : name, value: value))
        }
        if let tags = attributes.tags {
            // S3's form takes a Tagging document in its `tagging` field; OSS and OBS document no form field for tags.
            guard self.configuration.vendor == .s3 else {
                throw ObjectStorageError.unsupported(
                    "\(self.configuration.vendor.name) documents no POST form field for tags: tags in a POST form "
                        + "are S3's alone"
                )
            }
            fields.append(
                PresignedPost.Field(
                    name: "tagging",
                    value: String(decoding: try self.taggingDocument(tags), as: UTF8.self)
                )
            )
        }
        if let successActionRedirect {
            fields.append(PresignedPost.Field(name: "success_action_redirect", value: successActionRedirect))
        } else if let successActionStatus {
            fields.append(PresignedPost.Field(name: "success_action_status", value: String(successActionStatus)))
        }
        if let contentLength {
            guard contentLength.lowerBound >= 0 else {
                throw ObjectStorageError.invalidArgument("a content length range cannot start below 0")
            }
            conditions.append(.contentLengthRange(contentLength))
        }
        var logger = logger ?? self.logger
        logger[metadataKey: "os.operation"] = "PresignPost"
        let credentials = try await provider.credentials(logger: logger)
        let post = try self.configuration.signer.presignPost(
            SigningRequest(
                method: "POST",
                endpoint: self.configuration.endpoint,
                addressing: self.configuration.effectiveAddressing,
                bucket: bucket
            ),
            key: key,
            fields: fields,
            conditions: conditions,
            credentials: credentials,
            expires: expires,
            at: self.signingDate(offsetMilliseconds: self.clock.offsetMilliseconds)
        )
        logger.debug(
            "presigned a POST policy",
            metadata: ["os.expires_s": "\(expires.components.seconds)", "os.url": "\(post.url)"]
        )
        return post
    }
}
