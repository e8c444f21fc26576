//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The errors of `?cors` and of preflights, as the services answer them.
extension ServerError {
    static func noSuchCORSConfiguration(_ bucket: String) -> ServerError {
        ServerError(
            status: 404,
            code: "NoSuchCORSConfiguration",
            message: "The CORS configuration does not exist",
            details: [("BucketName", bucket)],
            ossEC: "0034-00000001"
        )
    }

    /// A configuration the dialect's service refuses.
    static func corsViolation(_ violation: CORSViolation, dialect: StorageVendor) -> ServerError {
        switch violation {
        case .malformed(let reason):
            return .malformedXML(reason)
        case .invalid(let reason):
            return dialect.kind == .s3 ? .invalidRequest(reason) : .invalidArgument(reason)
        case .tooManyRules:
            let code =
                dialect.kind == .oss
                ? "CORSRuleBeyondLimit" : (dialect.kind == .s3 ? "InvalidRequest" : "InvalidArgument")
            return ServerError(status: 400, code: code, message: "\(violation)")
        }
    }

    /// A preflight without what a service needs to evaluate it.
    static func preflightIncomplete(_ message: String) -> ServerError {
        ServerError(status: 400, code: "BadRequest", message: message)
    }

    /// A preflight to a bucket without rules, or one no rule admits.
    static func corsRefused(enabled: Bool, method: String, resource: String) -> ServerError {
        ServerError(
            status: 403,
            code: "AccessForbidden",
            message: enabled
                // The services' own spelling ("evalution").
                ? "CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, "
                    + "request method / Access-Control-Request-Method or Access-Control-Request-Headers are not "
                    + "whitelisted by the resource's CORS spec."
                : "CORSResponse: CORS is not enabled for this bucket.",
            details: [("Method", method), ("ResourceType", resource)]
        )
    }
}
