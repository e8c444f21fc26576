//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// An error the server answers with: a status, a vendor error code and message, and the extra
/// elements the vendor adds to the `<Error>` document.
struct ServerError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    /// Extra `<Error>` children, in order (for example `Key`, `StringToSign`).
    var details: [(String, String)] = []
    /// OSS's error-entry code (`<EC>` and `x-oss-ec`), when known.
    var ossEC: String?
    /// Extra response headers (such as `Retry-After`).
    var headers: [(String, String)] = []
    /// The version id of the delete marker the request met, answered as `x-*-delete-marker: true` and
    /// `x-*-version-id` in the request's dialect.
    var deleteMarkerVersionID: String? = nil

    static func noSuchBucket(_ bucket: String) -> ServerError {
        ServerError(
            status: 404,
            code: "NoSuchBucket",
            message: "The specified bucket does not exist.",
            details: [("BucketName", bucket)],
            ossEC: "0015-00000101"
        )
    }

    static func noSuchKey(_ key: String) -> ServerError {
        ServerError(
            status: 404,
            code: "NoSuchKey",
            message: "The specified key does not exist.",
            details: [("Key", key)],
            ossEC: "0026-00000001"
        )
    }

    static func noSuchUpload(_ uploadID: String) -> ServerError {
        ServerError(
            status: 404,
            code: "NoSuchUpload",
            message: "The specified upload does not exist. The upload ID may be invalid, "
                + "or the upload may have been aborted or completed.",
            details: [("UploadId", uploadID)]
        )
    }

    static func invalidPart(_ partNumber: Int) -> ServerError {
        ServerError(
            status: 400,
            code: "InvalidPart",
            message: "One or more of the specified parts could not be found or the specified entity tag "
                + "might not have matched the part's entity tag.",
            details: [("PartNumber", String(partNumber))]
        )
    }

    static let invalidPartOrder = ServerError(
        status: 400,
        code: "InvalidPartOrder",
        message: "The list of parts was not in ascending order. The parts list must be specified in order by "
            + "part number."
    )

    static func entityTooSmall(size: Int64, minimum: Int64, partNumber: Int) -> ServerError {
        ServerError(
            status: 400,
            code: "EntityTooSmall",
            message: "Your proposed upload is smaller than the minimum allowed object size.",
            details: [
                ("ProposedSize", String(size)), ("MinSizeAllowed", String(minimum)),
                ("PartNumber", String(partNumber)),
            ]
        )
    }

    static func badDigest(expected: String, calculated: String) -> ServerError {
        ServerError(
            status: 400,
            code: "BadDigest",
            message: "The Content-MD5 you specified did not match what we received.",
            details: [("ExpectedDigest", expected), ("CalculatedDigest", calculated)]
        )
    }

    static let invalidDigest = ServerError(
        status: 400,
        code: "InvalidDigest",
        message: "The Content-MD5 you specified is not valid."
    )

    static func contentSHA256Mismatch(client: String, server: String) -> ServerError {
        ServerError(
            status: 400,
            code: "XAmzContentSHA256Mismatch",
            message: "The provided 'x-amz-content-sha256' header does not match what was computed.",
            details: [("ClientComputedContentSHA256", client), ("S3ComputedContentSHA256", server)]
        )
    }

    static func invalidRange(size: Int64, requested: String) -> ServerError {
        ServerError(
            status: 416,
            code: "InvalidRange",
            message: "The requested range is not satisfiable",
            details: [("RangeRequested", requested), ("ActualObjectSize", String(size))],
            headers: [("Content-Range", "bytes */\(size)")]
        )
    }

    static func preconditionFailed(_ condition: String) -> ServerError {
        ServerError(
            status: 412,
            code: "PreconditionFailed",
            message: "At least one of the pre-conditions you specified did not hold",
            details: [("Condition", condition)]
        )
    }

    static func malformedXML(_ reason: String = "") -> ServerError {
        ServerError(
            status: 400,
            code: "MalformedXML",
            message: "The XML you provided was not well-formed or did not validate against our published schema."
                + (reason.isEmpty ? "" : " (\(reason))")
        )
    }

    static func invalidArgument(_ message: String, name: String? = nil, value: String? = nil) -> ServerError {
        var details: [(String, String)] = []
        if let name { details.append(("ArgumentName", name)) }
        if let value { details.append(("ArgumentValue", value)) }
        return ServerError(status: 400, code: "InvalidArgument", message: message, details: details)
    }

    static func invalidRequest(_ message: String) -> ServerError {
        ServerError(status: 400, code: "InvalidRequest", message: message)
    }

    static func invalidBucketName(_ bucket: String) -> ServerError {
        ServerError(
            status: 400,
            code: "InvalidBucketName",
            message: "The specified bucket is not valid.",
            details: [("BucketName", bucket)]
        )
    }

    static func bucketNotEmpty(_ bucket: String) -> ServerError {
        ServerError(
            status: 409,
            code: "BucketNotEmpty",
            message: "The bucket you tried to delete is not empty.",
            details: [("BucketName", bucket)]
        )
    }

    static func bucketExists(_ bucket: String, dialect: StorageVendor) -> ServerError {
        switch dialect.kind {
        case .oss:
            return ServerError(
                status: 409,
                code: "BucketAlreadyExists",
                message: "The requested bucket name is not available.",
                details: [("BucketName", bucket)]
            )
        case .obs, .s3:
            return ServerError(
                status: 409,
                code: "BucketAlreadyOwnedByYou",
                message: "Your previous request to create the named bucket succeeded and you already own it.",
                details: [("BucketName", bucket)]
            )
        }
    }

    static func methodNotAllowed(_ method: String) -> ServerError {
        ServerError(
            status: 405,
            code: "MethodNotAllowed",
            message: "The specified method is not allowed against this resource.",
            details: [("Method", method)]
        )
    }

    static func notImplemented(_ what: String) -> ServerError {
        ServerError(
            status: 501,
            code: "NotImplemented",
            message: "A header or query you provided implies functionality that is not implemented: \(what)."
        )
    }

    static func accessDenied(_ message: String, details: [(String, String)] = []) -> ServerError {
        ServerError(status: 403, code: "AccessDenied", message: message, details: details)
    }

    static func invalidAccessKeyID(_ keyID: String, dialect: StorageVendor) -> ServerError {
        let vendor =
            switch dialect.kind {
            case .oss: "OSS"
            case .obs: "OBS"
            case .s3: "AWS"
            }
        let name = dialect.kind == .oss ? "OSSAccessKeyId" : "AWSAccessKeyId"
        return ServerError(
            status: 403,
            code: "InvalidAccessKeyId",
            message: "The \(vendor) Access Key Id you provided does not exist in our records.",
            details: [(name, keyID)],
            ossEC: "0002-00000902"
        )
    }

    static func requestTimeTooSkewed(requestTime: String, serverTime: String, maximumMilliseconds: Int64) -> ServerError
    {
        ServerError(
            status: 403,
            code: "RequestTimeTooSkewed",
            message: "The difference between the request time and the current time is too large.",
            details: [
                ("RequestTime", requestTime), ("ServerTime", serverTime),
                ("MaxAllowedSkewMilliseconds", String(maximumMilliseconds)),
            ]
        )
    }

    static func signatureDoesNotMatch(details: [(String, String)], ossEC: String? = nil) -> ServerError {
        ServerError(
            status: 403,
            code: "SignatureDoesNotMatch",
            message: "The request signature we calculated does not match the signature you provided. "
                + "Check your key and signing method.",
            details: details,
            ossEC: ossEC
        )
    }

    static func internalError(_ message: String = "We encountered an internal error. Please try again.") -> ServerError
    {
        ServerError(status: 500, code: "InternalError", message: message)
    }

    /// A V4 credential scope naming another region than the server's.
    static func wrongRegion(_ region: String, expected: String, kind: SignatureKind) -> ServerError {
        switch kind {
        case .ossV4Header, .ossV4Query:
            return ServerError(
                status: 403,
                code: "SignatureDoesNotMatch",
                message: "Invalid signing region in the credential: the region '\(region)' is wrong; "
                    + "expecting '\(expected)'",
                details: [("Region", expected)],
                ossEC: "0002-00000226"
            )
        case .awsV4Query:
            return ServerError(
                status: 400,
                code: "AuthorizationQueryParametersError",
                message: "Error parsing the X-Amz-Credential parameter; the region '\(region)' is wrong; "
                    + "expecting '\(expected)'",
                details: [("Region", expected)]
            )
        default:
            return ServerError(
                status: 400,
                code: "AuthorizationHeaderMalformed",
                message: "The authorization header is malformed; the region '\(region)' is wrong; "
                    + "expecting '\(expected)'",
                details: [("Region", expected)]
            )
        }
    }
}
