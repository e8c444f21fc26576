//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The errors of `?policy`, `?encryption` and `?acl`, as the services answer them.
extension ServerError {
    static func noSuchBucketPolicy(_ bucket: String) -> ServerError {
        ServerError(
            status: 404,
            code: "NoSuchBucketPolicy",
            message: "The bucket policy does not exist",
            details: [("BucketName", bucket)]
        )
    }

    /// A policy the dialect's service refuses: S3 and OBS `MalformedPolicy` (S3's `PolicyTooLarge` past 20 KiB),
    /// OSS `InvalidPolicyDocument` with the entry code of each cause.
    static func policyViolation(_ violation: BucketPolicyViolation, dialect: StorageVendor) -> ServerError {
        switch dialect.kind {
        case .s3:
            switch violation {
            case .notJSON:
                return ServerError(
                    status: 400,
                    code: "MalformedPolicy",
                    message: "Policies must be valid JSON and the first byte must be '{'"
                )
            case .tooLarge:
                return ServerError(
                    status: 400,
                    code: "PolicyTooLarge",
                    message: "Policy exceeds the maximum allowed document size."
                )
            case .version(let reason), .malformed(let reason):
                return ServerError(status: 400, code: "MalformedPolicy", message: reason)
            }
        case .oss:
            let entry: String
            switch violation {
            case .tooLarge: entry = "0030-00000001"
            case .version: entry = "0030-00000002"
            case .notJSON, .malformed: entry = "0030-00000005"
            }
            return ServerError(status: 400, code: "InvalidPolicyDocument", message: "\(violation)", ossEC: entry)
        case .obs:
            return ServerError(status: 400, code: "MalformedPolicy", message: "\(violation)")
        }
    }

    /// GET `?encryption` of a bucket without a default encryption.
    static func noEncryptionConfiguration(_ bucket: String, dialect: StorageVendor) -> ServerError {
        switch dialect.kind {
        case .s3:
            return ServerError(
                status: 404,
                code: "ServerSideEncryptionConfigurationNotFoundError",
                message: "The server side encryption configuration was not found",
                details: [("BucketName", bucket)]
            )
        case .oss:
            return ServerError(
                status: 404,
                code: "NoSuchServerSideEncryptionRule",
                message: "The server side encryption rule does not exist.",
                details: [("BucketName", bucket)]
            )
        case .obs:
            return ServerError(
                status: 404,
                code: "NoSuchEncryptionConfiguration",
                message: "The specified bucket does not have any encryption configurations",
                details: [("BucketName", bucket)]
            )
        }
    }

    /// A default encryption the dialect's service refuses: an unknown algorithm (OSS
    /// `InvalidEncryptionAlgorithmError`; S3 and OBS validate the document against their schema, `MalformedXML`),
    /// a KMS key without KMS (`InvalidArgument`).
    static func encryptionViolation(_ violation: BucketEncryptionViolation, dialect: StorageVendor) -> ServerError {
        switch violation {
        case .malformed(let reason):
            return .malformedXML(reason)
        case .unknownAlgorithm where dialect.kind == .oss:
            return ServerError(
                status: 400,
                code: "InvalidEncryptionAlgorithmError",
                message: "The Encryption request you specified is not valid. Supported value: AES256/KMS/SM4",
                ossEC: "0005-00000003"
            )
        case .unknownAlgorithm:
            return .malformedXML("\(violation)")
        case .keyWithoutKMS:
            let message =
                switch dialect.kind {
                case .s3: "a KMSMasterKeyID is not applicable if the default sse algorithm is not aws:kms"
                case .oss: "KMSMasterKeyID is not applicable if the default sse algorithm is not KMS"
                case .obs: "KMSMasterKeyID is not applicable if the default sse algorithm is not kms"
                }
            return .invalidArgument(message)
        }
    }

    /// A canned ACL the dialect's service does not know (`InvalidArgument`; OSS's message names the bucket or the
    /// object).
    static func unknownCannedACL(_ value: String, header: String, dialect: StorageVendor, object: Bool) -> ServerError {
        switch dialect.kind {
        case .oss:
            var error = ServerError.invalidArgument(
                object ? "The specified object ACL is not valid." : "no such bucket access control exists",
                name: header,
                value: value
            )
            error.ossEC = object ? "0017-00000105" : nil
            return error
        case .s3: return .invalidArgument("", name: header, value: value)
        case .obs: return .invalidArgument("Invalid canned ACL.", name: header, value: value)
        }
    }
}
