//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The errors of POST object uploads, as S3, OSS and OBS answer them.
extension ServerError {
    /// A policy document that cannot be read.
    static func invalidPolicyDocument(_ reason: String) -> ServerError {
        ServerError(status: 400, code: "InvalidPolicyDocument", message: reason)
    }

    /// A form that posts a field more than once (names compared without case), refused before its signature or
    /// policy is read, in the shape of S3's answer to a form with more than one file.
    ///
    /// - Parameter name: The repeated field's name, as posted the second time.
    static func repeatedFormField(_ name: String) -> ServerError {
        .invalidArgument(
            "POST requires exactly one value for each form field; '\(name)' appears more than once.",
            name: name
        )
    }

    /// A policy whose expiration has passed.
    static var policyExpired: ServerError {
        .accessDenied("Invalid according to Policy: Policy expired.")
    }

    /// A condition the form does not meet, quoted as the policy states it.
    static func policyConditionFailed(_ condition: String) -> ServerError {
        .accessDenied("Invalid according to Policy: Policy Condition failed: \(condition)")
    }

    /// A form field that no condition of the policy names.
    static func extraInputField(_ name: String) -> ServerError {
        .accessDenied("Invalid according to Policy: Extra input fields: \(name)")
    }

    /// A file larger than the policy's content-length range.
    static func postEntityTooLarge(size: Int64, maximum: Int64) -> ServerError {
        ServerError(
            status: 400,
            code: "EntityTooLarge",
            message: "Your proposed upload exceeds the maximum allowed size",
            details: [("ProposedSize", String(size)), ("MaxSizeAllowed", String(maximum))]
        )
    }

    /// A file smaller than the policy's content-length range.
    static func postEntityTooSmall(size: Int64, minimum: Int64) -> ServerError {
        ServerError(
            status: 400,
            code: "EntityTooSmall",
            message: "Your proposed upload is smaller than the minimum allowed size",
            details: [("ProposedSize", String(size)), ("MinSizeAllowed", String(minimum))]
        )
    }

    /// A body that is not a well-formed `multipart/form-data` form.
    static func malformedPOSTRequest(_ reason: String) -> ServerError {
        ServerError(
            status: 400,
            code: "MalformedPOSTRequest",
            message: "The body of your POST request is not well-formed multipart/form-data (\(reason))."
        )
    }

    /// A security token that is missing or is not the credentials'.
    static func invalidToken(dialect: StorageVendor) -> ServerError {
        switch dialect.kind {
        case .oss:
            ServerError(
                status: 403,
                code: "InvalidSecurityToken",
                message: "The security token you provided is invalid."
            )
        case .obs, .s3:
            ServerError(
                status: 400,
                code: "InvalidToken",
                message: "The provided token is malformed or otherwise invalid."
            )
        }
    }
}
