//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

extension ServerError {
    /// GET `?lifecycle` of a bucket without rules: OSS `NoSuchLifecycle`, S3 and OBS `NoSuchLifecycleConfiguration`.
    static func noSuchLifecycle(_ bucket: String, dialect: StorageVendor) -> ServerError {
        ServerError(
            status: 404,
            code: dialect.kind == .oss ? "NoSuchLifecycle" : "NoSuchLifecycleConfiguration",
            message: dialect.kind == .oss
                ? "No Row found in Lifecycle Table." : "The lifecycle configuration does not exist",
            details: [("BucketName", bucket)]
        )
    }

    /// A lifecycle configuration the service refuses, with the code it refuses it with.
    static func lifecycleViolation(_ violation: LifecycleViolation, dialect: StorageVendor) -> ServerError {
        switch violation {
        case .malformed(let reason): .malformedXML(reason)
        case .invalid(let reason): .invalidArgument(reason)
        case .conflict(let reason): dialect.kind == .s3 ? .invalidRequest(reason) : .invalidArgument(reason)
        // What the vendor lacks is an element its schema does not have.
        case .unsupported(let reason): .malformedXML(reason)
        case .unmodelled(let reason): .notImplemented("\(reason) (lifecycle)")
        }
    }
}
