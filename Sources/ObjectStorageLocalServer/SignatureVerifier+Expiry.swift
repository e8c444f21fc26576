//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// How long a presigned URL says it is valid, read as strictly as the services read it.
extension SignatureVerifier {
    /// The validity a V4 presigned URL may state, in seconds: S3's `X-Amz-Expires` and OSS's `x-oss-expires` are
    /// both 1 second to seven days.
    static let presignValidity: ClosedRange<Int64> = 1...604_800

    /// The validity stated by a SigV4 (`X-Amz-Expires`) or OSS V4 (`x-oss-expires`) presigned URL.
    ///
    /// - Parameters:
    ///   - text: The parameter's decoded value.
    ///   - oss: Whether it is OSS V4's, which picks the error.
    /// - Returns: The validity in seconds, in ``presignValidity``.
    /// - Throws: SigV4: 400 `AuthorizationQueryParametersError` with S3's message for a value that is not a number
    ///   (a sign, a space, a fraction, empty), negative, zero or longer than a week. OSS V4: 403 `AccessDenied`
    ///   with EC `0002-00000232` for all of them.
    static func presignValidity(_ text: String, oss: Bool) throws(ServerError) -> Int64 {
        let negative = text.hasPrefix("-")
        let digits = negative ? text.dropFirst() : Substring(text)
        let isNumber = !digits.isEmpty && digits.utf8.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
        // Digits past Int64 are a number, and longer than a week.
        let value = Int64(digits) ?? .max
        guard isNumber, !negative, presignValidity.contains(value) else {
            if oss { throw ServerError.invalidOSSExpires }
            guard isNumber else { throw ServerError.authorizationQueryParameters("X-Amz-Expires should be a number") }
            guard !negative else {
                throw ServerError.authorizationQueryParameters("X-Amz-Expires must be non-negative")
            }
            guard value >= presignValidity.lowerBound else {
                throw ServerError.authorizationQueryParameters("X-Amz-Expires must be at least 1 second")
            }
            throw ServerError.authorizationQueryParameters(
                "X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must be less "
                    + "than \(presignValidity.upperBound) seconds"
            )
        }
        return value
    }

    /// The instant until which an OSS V1, OBS or AWS V2 presigned URL is valid: its `Expires`, seconds since 1970
    /// written as plain decimal digits, or a minus and digits (an instant before 1970, long expired).
    ///
    /// - Parameters:
    ///   - text: The parameter's decoded value.
    ///   - dialect: The dialect, which picks OSS's EC.
    /// - Returns: The instant, in seconds since 1970.
    /// - Throws: 403 `AccessDenied`, "Invalid date (should be seconds since epoch)", as S3 answers, for a value with
    ///   a plus sign, a space or a fraction, or past `Int64` (Swift's `Int64.init` alone would read `+N` as `N`).
    static func absoluteExpiry(_ text: String, dialect: StorageVendor) throws(ServerError) -> Int64 {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }), let value = Int64(text)
        else {
            var error = ServerError.accessDenied("Invalid date (should be seconds since epoch): \(text)")
            if dialect.kind == .oss { error.ossEC = "0002-00000070" }
            throw error
        }
        return value
    }
}

extension ServerError {
    /// S3's refusal of a presigned URL's malformed authentication parameters.
    static func authorizationQueryParameters(_ message: String) -> ServerError {
        ServerError(status: 400, code: "AuthorizationQueryParametersError", message: message)
    }

    /// OSS's refusal of a V4 presigned URL without `x-oss-expires` (EC `0002-00000215`).
    static var missingOSSExpires: ServerError {
        ServerError(
            status: 403,
            code: "AccessDenied",
            message: "A V4 signed URL must contain the x-oss-expires parameter.",
            ossEC: "0002-00000215"
        )
    }

    /// OSS's refusal of an `x-oss-expires` outside 1 second to seven days, or not a number (EC `0002-00000232`).
    static var invalidOSSExpires: ServerError {
        ServerError(
            status: 403,
            code: "AccessDenied",
            message: "x-oss-expires must be a whole number of seconds from 1 to 604800.",
            ossEC: "0002-00000232"
        )
    }
}
