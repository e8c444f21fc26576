//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The persisted state of a checkpointed multipart upload: which transfer it is, the identity of
/// the source file it reads, the final part size, the upload id, the parameters the upload was
/// created with, and every part the server acknowledged.
///
/// The engine's life cycle:
/// 1. Build an ``Identity`` and the ``ObjectParameters`` and `CheckpointStore.load(at:expecting:)`.
///    On `.discarded(reason, previous:)` with a `previous` checkpoint (authentic but stale: the
///    source changed, other parameters), abort `previous.uploadId` on the server when it names the
///    same bucket and key, then start fresh. On `.loaded`, reconcile with ListParts
///    (``reconcile(withServerParts:)``); on `NoSuchUpload`, start a new upload.
/// 2. A fresh checkpoint is made after CreateMultipartUpload with the *final* (clamped, 10,000-part
///    fitted) part size, and saved before the first part is sent.
/// 3. For each of ``missingPartNumbers``, read ``range(ofPart:)`` from the file, upload it, then
///    ``recordPart(_:)`` and save.
/// 4. When ``isComplete``, CompleteMultipartUpload with ``parts`` (compare ``combinedCRC64()`` with
///    the server's CRC64 where offered) and remove the checkpoint.
///
/// The data model holds no credentials; sensitive headers and endpoints are refused on save.
package struct UploadCheckpoint: Codable, Hashable, Sendable {
    /// Which upload this is.
    package struct Identity: Codable, Hashable, Sendable {
        /// The vendor's name (`oss`, `obs`, `s3`...).
        package var vendor: String
        /// The endpoint, `scheme://host[:port]`: no query, no user info.
        package var endpoint: String
        /// The bucket.
        package var bucket: String
        /// The object key.
        package var key: String
        /// The file being uploaded: absolute and normalised.
        package var sourcePath: String

        /// Creates an identity.
        ///
        /// - Parameters:
        ///   - vendor: The vendor's name.
        ///   - endpoint: `scheme://host[:port]`.
        ///   - bucket: The bucket.
        ///   - key: The object key.
        ///   - sourcePath: The absolute source path.
        package init(vendor: String, endpoint: String, bucket: String, key: String, sourcePath: String) {
            self.vendor = vendor
            self.endpoint = endpoint
            self.bucket = bucket
            self.key = key
            self.sourcePath = sourcePath
        }

        /// The name of the first field that differs from `other`, or `nil` when equal.
        ///
        /// - Parameter other: Another identity.
        /// - Returns: `vendor`, `endpoint`, `bucket`, `key` or `sourcePath`.
        package func firstDifference(from other: Identity) -> String? {
            if let field = firstObjectDifference(from: other) { return field }
            if sourcePath != other.sourcePath { return "sourcePath" }
            return nil
        }
    }

    /// The parameters the multipart upload was created with. A resumed upload must use the same ones
    /// (they were fixed by CreateMultipartUpload), so a change discards the checkpoint.
    ///
    /// Deliberately no field for an SSE-C customer key (only its algorithm and MD5, which are sent
    /// in the clear); ``additionalHeaders`` refuses `Authorization`, security tokens and key headers.
    package struct ObjectParameters: Codable, Hashable, Sendable {
        /// The Content-Type.
        package var contentType: String?
        /// User metadata, without the `x-*-meta-` prefix.
        package var metadata: [String: String]
        /// The storage class, in the vendor's spelling.
        package var storageClass: String?
        /// The canned ACL, in the vendor's spelling.
        package var acl: String?
        /// The server-side encryption algorithm (`AES256`, `KMS`, `aws:kms`...).
        package var serverSideEncryption: String?
        /// The KMS key id (an identifier, not key material).
        package var serverSideEncryptionKeyId: String?
        /// The SSE-C algorithm (`AES256`).
        package var customerAlgorithm: String?
        /// The base64 MD5 of the SSE-C key (sent in the clear; the key itself is never stored).
        package var customerKeyMD5: String?
        /// The website redirect location.
        package var websiteRedirectLocation: String?
        /// Other headers sent with CreateMultipartUpload (lowercased names). Names that can carry
        /// a credential are refused on save.
        package var additionalHeaders: [String: String]

        /// Creates parameters.
        ///
        /// - Parameters:
        ///   - contentType: The Content-Type.
        ///   - metadata: User metadata.
        ///   - storageClass: The storage class.
        ///   - acl: The canned ACL.
        ///   - serverSideEncryption: The SSE algorithm.
        ///   - serverSideEncryptionKeyId: The KMS key id.
        ///   - customerAlgorithm: The SSE-C algorithm.
        ///   - customerKeyMD5: The base64 MD5 of the SSE-C key.
        ///   - websiteRedirectLocation: The website redirect location.
        ///   - additionalHeaders: Other headers.
        package init(
            contentType: String? = nil,
            metadata: [String: String] = [:],
            storageClass: String? = nil,
            acl: String? = nil,
            serverSideEncryption: String? = nil,
            serverSideEncryptionKeyId: String? = nil,
            customerAlgorithm: String? = nil,
            customerKeyMD5: String? = nil,
            websiteRedirectLocation: String? = nil,
            additionalHeaders: [String: String] = [:]
        ) {
            self.contentType = contentType
            self.metadata = metadata
            self.storageClass = storageClass
            self.acl = acl
            self.serverSideEncryption = serverSideEncryption
            self.serverSideEncryptionKeyId = serverSideEncryptionKeyId
            self.customerAlgorithm = customerAlgorithm
            self.customerKeyMD5 = customerKeyMD5
            self.websiteRedirectLocation = websiteRedirectLocation
            self.additionalHeaders = additionalHeaders
        }

        /// Whether a header name could carry a credential or key material: `Authorization`,
        /// `Proxy-Authorization`, `Cookie`, `*security-token*`, `*signature*`, `*credential*`,
        /// and SSE-C key headers (`*-customer-key`, but not `*-customer-key-md5`).
        ///
        /// - Parameter name: A header name (any case).
        /// - Returns: `true` when the header may not be stored.
        package static func isSensitiveHeader(_ name: String) -> Bool {
            let name = name.lowercased()
            if ["authorization", "proxy-authorization", "cookie"].contains(name) { return true }
            for fragment in ["security-token", "signature", "credential", "secret", "password"]
            where name.contains(fragment) {
                return true
            }
            return name.hasSuffix("-customer-key") || name.hasSuffix("-customer-key-base64")
        }
    }

    /// A part the server acknowledged.
    package struct UploadedPart: Codable, Hashable, Sendable {
        /// The part number, from 1.
        package var number: Int
        /// The ETag the server returned, verbatim.
        package var etag: String
        /// The part's size in bytes.
        package var size: Int64
        /// The CRC64 of the part's bytes (verified against the server's where offered), with the upload's
        /// ``UploadCheckpoint/partCRC64Polynomial``.
        package var crc64: UInt64?
        /// The base64 MD5 sent as Content-MD5, when `enableMD5Check` is on.
        package var md5: String?

        /// Creates a part record.
        ///
        /// - Parameters:
        ///   - number: The part number, from 1.
        ///   - etag: The ETag returned.
        ///   - size: The size in bytes.
        ///   - crc64: The CRC64 of its bytes.
        ///   - md5: The base64 Content-MD5 sent.
        package init(number: Int, etag: String, size: Int64, crc64: UInt64? = nil, md5: String? = nil) {
            self.number = number
            self.etag = etag
            self.size = size
            self.crc64 = crc64
            self.md5 = md5
        }

        private enum CodingKeys: String, CodingKey {
            case number, etag, size, crc64, md5
        }

        /// Decodes a part (`crc64` is a decimal string).
        ///
        /// - Parameter decoder: The decoder.
        /// - Throws: `DecodingError` for a missing field or a malformed CRC64.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.number = try container.decode(Int.self, forKey: .number)
            self.etag = try container.decode(String.self, forKey: .etag)
            self.size = try container.decode(Int64.self, forKey: .size)
            self.crc64 = try container.decodeCRC64IfPresent(forKey: .crc64)
            self.md5 = try container.decodeIfPresent(String.self, forKey: .md5)
        }

        /// Encodes the part (`crc64` as a decimal string, absent fields omitted).
        ///
        /// - Parameter encoder: The encoder.
        /// - Throws: Whatever the encoder throws.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(etag, forKey: .etag)
            try container.encode(size, forKey: .size)
            try container.encodeCRC64(crc64, forKey: .crc64)
            try container.encodeIfPresent(md5, forKey: .md5)
        }
    }

    /// Which upload this is.
    package var identity: Identity
    /// The source file as it was when the upload started.
    package var source: FileIdentity
    /// The final part size (after clamping and the 10,000-part fit), kept on resume.
    package internal(set) var partSize: Int64
    /// The multipart upload id.
    package var uploadId: String
    /// The parameters the upload was created with.
    package var parameters: ObjectParameters
    /// The parts the server acknowledged, sorted by number, without duplicates.
    package internal(set) var parts: [UploadedPart]
    /// For a server-side multipart copy, the object whose bytes the parts copy (pinned by its ETag); `nil` for an
    /// upload of a file. ``source`` then holds only the object's size.
    package var copySource: CopySource?

    /// Creates the checkpoint of a multipart upload that has no parts yet.
    ///
    /// - Parameters:
    ///   - identity: Which upload this is.
    ///   - source: The source file's identity (``FileIdentity/current(path:)``), taken before reading.
    ///   - partSize: The final part size (> 0).
    ///   - uploadId: The id returned by CreateMultipartUpload (not empty).
    ///   - parameters: The parameters the upload was created with.
    ///   - copySource: For a server-side copy, the object the parts are copied from.
    /// - Throws: ``CheckpointError`` `.invalidCheckpoint` for a part size ≤ 0, an empty upload id,
    ///   more than 10,000 parts, or a relative source path.
    package init(
        identity: Identity,
        source: FileIdentity,
        partSize: Int64,
        uploadId: String,
        parameters: ObjectParameters = ObjectParameters(),
        copySource: CopySource? = nil
    ) throws(CheckpointError) {
        self.identity = identity
        self.source = source
        self.partSize = partSize
        self.uploadId = uploadId
        self.parameters = parameters
        self.parts = []
        self.copySource = copySource
        if let problem = self.contentProblem() { throw .invalidCheckpoint(problem) }
    }
}
