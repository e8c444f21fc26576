//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The services' answers to a request that exceeds one of their limits.
extension ServerError {
    /// A single PUT (object or part) larger than the services allow; the server closes the connection
    /// after answering rather than read the body.
    ///
    /// - Parameters:
    ///   - size: The announced or received size.
    ///   - maximum: The largest size allowed.
    static func entityTooLarge(size: Int64, maximum: Int64) -> ServerError {
        ServerError(
            status: 400,
            code: "EntityTooLarge",
            message: "Your proposed upload exceeds the maximum allowed size",
            details: [("ProposedSize", String(size)), ("MaxSizeAllowed", String(maximum))],
            headers: [("Connection", "close")]
        )
    }

    /// A request body slower than ``LocalObjectServer/Configuration/minimumRequestBodyRate``: S3's (and OSS's and
    /// OBS's) `RequestTimeout`. The server closes the connection after answering rather than read the rest.
    static var requestTimeout: ServerError {
        ServerError(
            status: 400,
            code: "RequestTimeout",
            message: "Your socket connection to the server was not read from or written to within the timeout "
                + "period. Idle connections will be closed.",
            headers: [("Connection", "close")]
        )
    }

    /// A key longer than the dialect allows: S3 and OBS `KeyTooLongError`, OSS `InvalidObjectName`.
    ///
    /// - Parameters:
    ///   - size: The key's length in UTF-8 bytes.
    ///   - dialect: The dialect, which picks the limit and the error.
    static func keyTooLong(size: Int, dialect: StorageVendor) -> ServerError {
        switch dialect.kind {
        case .oss:
            ServerError(
                status: 400,
                code: "InvalidObjectName",
                message: "The specified object is not valid.",
                ossEC: "0016-00000003"
            )
        case .obs, .s3:
            ServerError(
                status: 400,
                code: "KeyTooLongError",
                message: "Your key is too long",
                details: [("Size", String(size)), ("MaxSizeAllowed", String(dialect.maximumKeyLength))]
            )
        }
    }

    /// A CopyObject whose source, or an UploadPartCopy whose range, is larger than the service copies in one request:
    /// OSS `EntityTooLarge`, S3 and OBS `InvalidRequest`.
    ///
    /// - Parameters:
    ///   - maximum: The largest size allowed.
    ///   - dialect: The dialect, which picks the error.
    static func copySourceTooLarge(maximum: Int64, dialect: StorageVendor) -> ServerError {
        switch dialect.kind {
        case .oss:
            ServerError(
                status: 400,
                code: "EntityTooLarge",
                message: "Source object Length exceeds the maximum allowed size."
            )
        case .obs, .s3:
            ServerError(
                status: 400,
                code: "InvalidRequest",
                message: "The specified copy source is larger than the maximum allowable size for a copy source: "
                    + String(maximum)
            )
        }
    }
}
