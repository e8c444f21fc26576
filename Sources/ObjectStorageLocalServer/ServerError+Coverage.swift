//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The services' answers to a request whose signature does not cover it, or that asks for an unimplemented
/// body encoding.
extension ServerError {
    /// S3's refusal of a request carrying headers its SigV4 signature does not list.
    ///
    /// - Parameter names: The unsigned header names, lowercased.
    static func headersNotSigned(_ names: [String]) -> ServerError {
        ServerError(
            status: 403,
            code: "AccessDenied",
            message: "There were headers present in the request which were not signed",
            details: [("HeadersNotSigned", names.joined(separator: ", "))]
        )
    }

    /// A V4 credential scope naming another service (product) or terminator than this server's, in the shape
    /// of ``wrongRegion(_:expected:kind:)``.
    ///
    /// - Parameters:
    ///   - component: `service`, `product` or `terminal`.
    ///   - value: The scope's value.
    ///   - expected: The value this server accepts.
    ///   - kind: The signing scheme, which picks the vendor's error.
    static func wrongScope(_ component: String, _ value: String, expected: String, kind: SignatureKind) -> ServerError {
        let reason = "incorrect \(component) \"\(value)\". This endpoint belongs to \"\(expected)\"."
        switch kind {
        case .ossV4Header, .ossV4Query:
            return ServerError(
                status: 403,
                code: "SignatureDoesNotMatch",
                message: "Invalid signing \(component) in the credential: \(reason)"
            )
        case .awsV4Query:
            return ServerError(
                status: 400,
                code: "AuthorizationQueryParametersError",
                message: "Error parsing the X-Amz-Credential parameter; \(reason)"
            )
        default:
            return ServerError(
                status: 400,
                code: "AuthorizationHeaderMalformed",
                message: "The authorization header is malformed; \(reason)"
            )
        }
    }

    /// S3's answer to a header that announces a feature the server does not implement, such as an
    /// `aws-chunked` body.
    ///
    /// - Parameter header: The header's name.
    static func headerNotImplemented(_ header: String) -> ServerError {
        ServerError(
            status: 501,
            code: "NotImplemented",
            message: "A header you provided implies functionality that is not implemented",
            details: [("Header", header)]
        )
    }
}
