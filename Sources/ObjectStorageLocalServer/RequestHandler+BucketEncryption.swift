//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
import NIOCore
import ObjectStorageSigning

/// A bucket's default encryption (`?encryption`), kept with the dialect that put it and answered in the dialect
/// of each GET (S3's `aws:kms` is OSS's `KMS` and OBS's `kms`). An object written afterwards without an encryption
/// header of its own is reported encrypted by it (`x-*-server-side-encryption` on the write's answer, GET and
/// HEAD); the bytes are stored as they came, not encrypted.
extension RequestHandler {
    static let encryptionSubresource = "encryption"

    func getBucketEncryption(_ context: Context, bucket: String) throws -> Reply {
        guard let encryption = try self.bucketEncryption(bucket) else {
            throw ServerError.noEncryptionConfiguration(bucket, dialect: context.dialect)
        }
        return Reply(
            headers: [("Content-Type", "application/xml")],
            body: .bytes(
                ByteBuffer(bytes: encryption.document(for: context.dialect, namespace: context.dialect.xmlNamespace))
            )
        )
    }

    func putBucketEncryption(_ context: Context, bucket: String, body: RequestBody) async throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let dialect = context.dialect
        let bytes = try await collect(body, context: context)
        try DocumentIntegrity.check(bytes, context: context, required: dialect.kind == .s3)
        guard let root = RequestDocument.parse(bytes) else { throw ServerError.malformedXML() }
        do throws(BucketEncryptionViolation) {
            let encryption = try BucketEncryption(document: root)
            // Each service reads only its own document: OSS's root is not S3's and OBS's.
            let expected = dialect.kind == .oss ? "ServerSideEncryptionRule" : "ServerSideEncryptionConfiguration"
            guard root.name == expected else { throw .malformed("<\(root.name)> is not \(dialect.name)'s document") }
            if let violation = encryption.violation(for: dialect) { throw violation }
        } catch {
            throw ServerError.encryptionViolation(error, dialect: dialect)
        }
        try store.setDocument(bucket, Self.encryptionSubresource, BucketDocument(dialect: dialect, bytes: bytes))
        return Reply()
    }

    func deleteBucketEncryption(_ context: Context, bucket: String) throws -> Reply {
        try store.setDocument(bucket, Self.encryptionSubresource, nil)
        return Reply(status: 204)
    }

    /// The bucket's default encryption, if it has one.
    func bucketEncryption(_ bucket: String) throws(ServerError) -> BucketEncryption? {
        guard let document = try store.document(bucket, Self.encryptionSubresource),
            let root = RequestDocument.parse(document.bytes)
        else { return nil }
        return try? BucketEncryption(document: root)
    }

    /// The encryption an object written to `bucket` now gets: its request's own (`attributes`), else the bucket's
    /// default.
    func encryption(of attributes: ObjectAttributes, bucket: String) -> StoredEncryption? {
        if let own = attributes.encryption { return own }
        guard let encryption = try? self.bucketEncryption(bucket) else { return nil }
        return StoredEncryption(algorithm: encryption.algorithm.rawValue, keyID: encryption.kmsKeyID)
    }

    /// The `x-*-server-side-encryption` headers of an object, in `dialect`'s names.
    static func encryptionHeaders(_ encryption: StoredEncryption?, dialect: StorageVendor) -> [(String, String)] {
        guard let encryption else { return [] }
        let prefix = dialect.headerPrefix
        let algorithm = BucketEncryption.Algorithm(rawValue: encryption.algorithm)
        var headers = [(prefix + "server-side-encryption", algorithm.wireName(for: dialect))]
        if let keyID = encryption.keyID { headers.append((Self.kmsKeyHeader(dialect), keyID)) }
        return headers
    }

    /// The name of the KMS key header in `dialect`.
    static func kmsKeyHeader(_ dialect: StorageVendor) -> String {
        switch dialect.kind {
        case .s3: "x-amz-server-side-encryption-aws-kms-key-id"
        case .oss: "x-oss-server-side-encryption-key-id"
        case .obs: "x-obs-server-side-encryption-kms-key-id"
        }
    }
}

/// An object's server-side encryption as the server reports it: the algorithm by its vendor-neutral name
/// (``BucketEncryption/Algorithm``) and the KMS key, if one was named.
struct StoredEncryption: Codable, Sendable, Hashable {
    var algorithm: String
    var keyID: String?
}
