//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

extension ServerError {
    /// A read of an archived object that is not restored (or is still being restored).
    static func archived(storageClass: String, dialect: StorageVendor) -> ServerError {
        var error = ServerError(
            status: 403,
            code: "InvalidObjectState",
            message: dialect.kind == .oss
                ? "The operation is not valid for the object's state"
                : "The operation is not valid for the object's storage class",
            details: dialect.kind == .s3 ? [("StorageClass", storageClass)] : []
        )
        error.ossEC = "0016-00000404"
        return error
    }

    /// A restore of an object that is not archived: S3 and OBS 403 InvalidObjectState, OSS 400.
    static func notArchived(storageClass: String, dialect: StorageVendor) -> ServerError {
        switch dialect.kind {
        case .oss:
            var error = ServerError(
                status: 400,
                code: "OperationNotSupported",
                message: "The operation is not supported for this resource"
            )
            error.ossEC = "0016-00000702"
            return error
        case .obs:
            return ServerError(
                status: 403,
                code: "InvalidObjectState",
                message: "Restore is not allowed, as object's storage class is not COLD"
            )
        case .s3:
            return ServerError(
                status: 403,
                code: "InvalidObjectState",
                message: "Restore is not allowed for the object's current storage class",
                details: [("StorageClass", storageClass)]
            )
        }
    }

    /// A second restore while the first is in progress.
    static func restoreInProgress() -> ServerError {
        var error = ServerError(
            status: 409,
            code: "RestoreAlreadyInProgress",
            message: "Object restore is already in progress"
        )
        error.ossEC = "0016-00000701"
        return error
    }
}
