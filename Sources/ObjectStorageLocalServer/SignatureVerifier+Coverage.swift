//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// What a signature must cover before the server acts on a request.
///
/// The server acts only on its dialect's own prefixed headers (`x-oss-`, `x-obs-` or `x-amz-`), and the
/// dialect is the signing scheme's, so:
/// - OSS V1, OBS and AWS V2 (header and query) put every header of that prefix in the string to sign, and
///   OSS V4 puts every `x-oss-` header in the canonical request: an added or changed header breaks the
///   signature, nothing more is needed.
/// - SigV4 signs only the headers named in `SignedHeaders` / `X-Amz-SignedHeaders`: as S3 does, every
///   `x-amz-` header present and `host` must be among them (403 `AccessDenied` with `HeadersNotSigned`).
///   `x-amz-content-sha256` is exempt: its value is the canonical request's payload-hash line, so it is
///   signed whether listed or not.
/// - Standard headers the vendors store unsigned (`Content-Type` under SigV4, `Cache-Control`,
///   `Content-Disposition`, `Content-Encoding`, `Content-Language`, `Expires`) are stored unsigned here too.
extension SignatureVerifier {
    /// Query parameters that carry a presigned URL's authentication, lowercased, for every scheme.
    static let authenticationParameterNames: Set<String> = [
        "x-amz-algorithm", "x-amz-credential", "x-amz-signature", "ossaccesskeyid", "awsaccesskeyid",
        "accesskeyid", "signature", "x-oss-signature-version", "x-oss-credential", "x-oss-signature",
    ]

    /// The authentication query parameters of a presigned scheme, lowercased; each may appear once.
    static func authenticationParameters(of kind: SignatureKind) -> [String] {
        switch kind {
        case .ossV1Query: ["ossaccesskeyid", "expires", "signature"]
        case .obsQuery: ["accesskeyid", "expires", "signature"]
        case .awsV2Query: ["awsaccesskeyid", "expires", "signature"]
        case .awsV4Query:
            [
                "x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-expires", "x-amz-signedheaders",
                "x-amz-signature", "x-amz-security-token",
            ]
        case .ossV4Query:
            [
                "x-oss-signature-version", "x-oss-credential", "x-oss-date", "x-oss-expires",
                "x-oss-additional-headers", "x-oss-signature",
            ]
        default: []
        }
    }

    /// Refuses a request that authenticates more than one way: two `Authorization` headers, an
    /// `Authorization` header together with presigned-URL parameters, or a presigned-URL parameter given
    /// twice. Each parser would otherwise pick one of them, and the others would ride along unchecked.
    ///
    /// - Throws: 400 `InvalidArgument`, S3's answer to a request with more than one auth mechanism.
    static func checkSingleAuthentication(_ request: IncomingRequest, kind: SignatureKind) throws(ServerError) {
        let authorizations = request.headers.count { $0.lowercasedName == "authorization" }
        let hasQueryAuthentication = request.query.contains {
            authenticationParameterNames.contains($0.name.lowercased())
        }
        guard authorizations <= 1, authorizations == 0 || !hasQueryAuthentication else {
            throw ServerError.invalidArgument(
                "Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query "
                    + "string parameter or the Authorization header should be specified",
                name: "Authorization"
            )
        }
        for name in authenticationParameters(of: kind) {
            let count = request.query.count { $0.name.lowercased() == name }
            guard count <= 1 else {
                throw ServerError.invalidArgument(
                    "The authentication parameter \(name) must appear only once.",
                    name: name
                )
            }
        }
    }

    /// The headers a SigV4 request carries but did not sign and must have: `host` and every `x-amz-`
    /// header except `x-amz-content-sha256`, lowercased and sorted.
    ///
    /// - Parameters:
    ///   - headers: The request headers, `host` included.
    ///   - signedHeaders: The lowercase names the signature lists.
    /// - Returns: The names missing from `signedHeaders`; empty when the signature covers the request.
    static func unsignedHeaders(_ headers: [HTTPHeader], signedHeaders: [String]) -> [String] {
        let signed = Set(signedHeaders)
        var missing: Set<String> = signed.contains("host") ? [] : ["host"]
        for header in headers {
            let name = header.name.lowercased()
            guard name.hasPrefix("x-amz-"), name != "x-amz-content-sha256", !signed.contains(name) else { continue }
            missing.insert(name)
        }
        return missing.sorted()
    }

    /// Checks a V4 credential scope's service (product) and terminator: `s3` / `aws4_request` for SigV4,
    /// `oss` / `aliyun_v4_request` for OSS V4. A key derived for another service must not sign for this one.
    static func checkScope(service: String, terminator: String, kind: SignatureKind) throws(ServerError) {
        let oss = kind == .ossV4Header || kind == .ossV4Query
        let v4: V4Signature = oss ? .ossV4 : .sigV4
        let expectedService = v4.defaultService
        let expectedTerminator = v4.scopeTerminator
        guard service == expectedService else {
            throw ServerError.wrongScope(oss ? "product" : "service", service, expected: expectedService, kind: kind)
        }
        guard terminator == expectedTerminator else {
            throw ServerError.wrongScope("terminal", terminator, expected: expectedTerminator, kind: kind)
        }
    }

    /// The values S3 accepts in `x-amz-content-sha256` besides a hex SHA-256; the `STREAMING-` ones announce
    /// an `aws-chunked` body, which this server refuses (see ``RequestHandler``).
    static let payloadHashKeywords: Set<String> = [
        "UNSIGNED-PAYLOAD", "STREAMING-UNSIGNED-PAYLOAD-TRAILER", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
        "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER", "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD",
        "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD-TRAILER",
    ]

    /// Checks a SigV4 request's `x-amz-content-sha256`: required when the request is header-signed, and
    /// either a keyword S3 knows or 64 hex digits.
    ///
    /// - Parameters:
    ///   - value: The header's value, if present.
    ///   - headerSigned: Whether the request is signed in the `Authorization` header.
    /// - Returns: The payload hash the canonical request uses (`UNSIGNED-PAYLOAD` for a presigned URL without
    ///   the header).
    /// - Throws: 400 `InvalidRequest` when a header-signed request lacks it, 400 `InvalidArgument` for any other
    ///   value.
    static func sigV4PayloadHash(_ value: String?, headerSigned: Bool) throws(ServerError) -> String {
        guard let value = value?.trimmingWhitespace() else {
            guard !headerSigned else {
                throw ServerError.invalidRequest("Missing required header for this request: x-amz-content-sha256")
            }
            return "UNSIGNED-PAYLOAD"
        }
        let isHex = value.utf8.count == 64 && ByteEncoding.bytes(fromHex: value) != nil
        guard isHex || payloadHashKeywords.contains(value) else {
            throw ServerError(
                status: 400,
                code: "InvalidArgument",
                message: "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, "
                    + payloadHashKeywords.subtracting(["UNSIGNED-PAYLOAD"]).sorted().joined(separator: ", ")
                    + " or a valid sha256 value.",
                details: [("ArgumentName", "x-amz-content-sha256"), ("ArgumentValue", value)]
            )
        }
        return value
    }
}
