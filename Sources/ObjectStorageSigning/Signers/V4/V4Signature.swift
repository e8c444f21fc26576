//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One HMAC-SHA256 signature, two variants: AWS Signature Version 4 (`AWS4-HMAC-SHA256`, as S3 and
/// OBS's "V4" use it) and Alibaba Cloud OSS signature V4 (`OSS4-HMAC-SHA256`). A value names what
/// its variant writes; the building blocks (canonical request, string to sign, key, signature,
/// `Authorization`) are its methods, usable both to sign and to verify a request from its wire parts.
///
/// ```
/// CanonicalRequest = VERB "\n" CanonicalURI "\n" CanonicalQuery "\n"
///                    CanonicalHeaders "\n" ListedHeaders "\n" HashedPayload
/// StringToSign     = algorithm "\n" YYYYMMDD'T'HHMMSS'Z' "\n" Scope "\n" hex(SHA256(CanonicalRequest))
/// Scope            = YYYYMMDD "/" region "/" service "/" scopeTerminator
/// SigningKey       = HMAC chain over secretPrefix + secret, date, region, service, scopeTerminator
/// ```
///
/// | | ``sigV4`` | ``ossV4`` |
/// |---|---|---|
/// | algorithm | `AWS4-HMAC-SHA256` | `OSS4-HMAC-SHA256` |
/// | key, scope | `AWS4` + secret, `s3`, `aws4_request` | `aliyun_v4` + secret, `oss`, `aliyun_v4_request` |
/// | CanonicalURI | the path as sent, encoded once | `/BUCKET/KEY`, whatever the addressing |
/// | empty query value | `name=` | `name` |
/// | headers signed | all but hop-by-hop ones, listed in `SignedHeaders` | `content-type`, `content-md5`, `x-oss-*`, plus those listed in `AdditionalHeaders` |
/// | header values | trimmed, inner runs of spaces squeezed | trimmed |
/// | headers added | `X-Amz-Date`, `X-Amz-Content-SHA256`, `X-Amz-Security-Token` | `x-oss-date`, `Date`, `x-oss-content-sha256`, `x-oss-security-token` |
/// | `Authorization` | `… Credential=AK/SCOPE, SignedHeaders=a;b, Signature=HEX` | `… Credential=AK/SCOPE,AdditionalHeaders=a;b,Signature=HEX` |
/// | presigned query | `X-Amz-Algorithm`, `-Credential`, `-Date`, `-Expires`, `-SignedHeaders`, `-Security-Token` | `x-oss-signature-version`, `-date`, `-expires`, `-credential`, `-security-token`, `-additional-headers` |
package struct V4Signature: Sendable, Hashable {
    /// Which headers a variant signs, and what its header list (`SignedHeaders` or `AdditionalHeaders`) names.
    package enum HeaderListing: Sendable, Hashable {
        /// SigV4: the list names every signed header; the canonical headers have one line per listed name,
        /// in the list's order (empty for a name the request does not carry).
        case signedHeaders
        /// OSS V4: `content-type`, `content-md5` and every header with the variant's prefix are signed
        /// unlisted; the list names only the additional ones. The canonical headers are the signed headers
        /// the request carries, sorted.
        case additionalHeaders
    }

    /// What the canonical URI is made of.
    package enum URIForm: Sendable, Hashable {
        /// The decoded path as sent (`/KEY` virtual-hosted, `/BUCKET/KEY` path-style), encoded once, never
        /// normalized.
        case requestPath
        /// `/BUCKET/KEY` whatever the addressing (`/BUCKET/` for a bucket, `/` for the service).
        case bucketAndKey
    }

    /// What a presigned URL's query parameter carries.
    package enum PresignField: Sendable, Hashable {
        /// The ``V4Signature/algorithm``.
        case algorithm
        /// `AK/SCOPE`.
        case credential
        /// The signing time, `YYYYMMDD'T'HHMMSS'Z'`.
        case date
        /// The validity in seconds.
        case expires
        /// The header list, `a;b` (left out when empty under ``HeaderListing/additionalHeaders``).
        case headerList
        /// The security token of temporary credentials (left out without one).
        case securityToken
    }

    /// The names of a presigned URL's query parameters.
    package struct PresignNames: Sendable, Hashable {
        /// The parameter carrying the algorithm: `X-Amz-Algorithm` or `x-oss-signature-version`.
        package var algorithm: String
        /// The parameter carrying `AK/SCOPE`.
        package var credential: String
        /// The parameter carrying the signing time.
        package var date: String
        /// The parameter carrying the validity in seconds.
        package var expires: String
        /// The parameter carrying the header list: `X-Amz-SignedHeaders` or `x-oss-additional-headers`.
        package var headerList: String
        /// The parameter carrying the security token.
        package var securityToken: String
        /// The parameter carrying the signature, appended last.
        package var signature: String

        /// Whether `name` is one of these (compared exactly).
        func contains(_ name: String) -> Bool {
            name == self.algorithm || name == self.credential || name == self.date || name == self.expires
                || name == self.headerList || name == self.securityToken || name == self.signature
        }
    }

    /// The algorithm's name, first line of the string to sign: `AWS4-HMAC-SHA256` or `OSS4-HMAC-SHA256`.
    package let algorithm: String
    /// What precedes the secret at the start of the key derivation: `AWS4` or `aliyun_v4`.
    package let secretPrefix: String
    /// The scope's last part: `aws4_request` or `aliyun_v4_request`.
    package let scopeTerminator: String
    /// The scope's service (OSS calls it the product) when the signer names none: `s3` or `oss`.
    package let defaultService: String
    /// The prefix of the variant's own headers: `x-amz-` or `x-oss-`.
    package let headerPrefix: String
    /// Which headers are signed and listed.
    package let headerListing: HeaderListing
    /// Whether header values have inner runs of spaces and tabs squeezed (SigV4) or are only trimmed.
    package let collapsesHeaderWhitespace: Bool
    /// Whether an empty or absent query value is written as the bare name (OSS V4) or as `name=`.
    package let bareEmptyQueryValues: Bool
    /// What the canonical URI is made of.
    package let uriForm: URIForm
    /// The header carrying the signing time, as sent: `X-Amz-Date` or `x-oss-date`.
    package let dateHeader: String
    /// The header carrying the payload hash, as sent: `X-Amz-Content-SHA256` or `x-oss-content-sha256`.
    package let payloadHashHeader: String
    /// The header carrying the security token, as sent: `X-Amz-Security-Token` or `x-oss-security-token`.
    package let securityTokenHeader: String
    /// Whether a signed request also carries an (unsigned) HTTP `Date` header (OSS V4, as alibabacloud-oss-v2
    /// sends it).
    package let sendsHTTPDate: Bool
    /// What separates the `Authorization` fields: `, ` (SigV4) or `,` (OSS V4, as its documentation writes it).
    package let authorizationSeparator: String
    /// The names of a presigned URL's query parameters.
    package let presignNames: PresignNames
    /// The order in which presigning appends them after the request's own parameters (the signature, known
    /// last, comes last).
    package let presignOrder: [PresignField]

    /// AWS Signature Version 4, as S3 (and OBS's V4) use it.
    package static let sigV4 = V4Signature(
        algorithm: "AWS4-HMAC-SHA256",
        secretPrefix: "AWS4",
        scopeTerminator: "aws4_request",
        defaultService: "s3",
        headerPrefix: "x-amz-",
        headerListing: .signedHeaders,
        collapsesHeaderWhitespace: true,
        bareEmptyQueryValues: false,
        uriForm: .requestPath,
        dateHeader: "X-Amz-Date",
        payloadHashHeader: "X-Amz-Content-SHA256",
        securityTokenHeader: "X-Amz-Security-Token",
        sendsHTTPDate: false,
        authorizationSeparator: ", ",
        presignNames: PresignNames(
            algorithm: "X-Amz-Algorithm",
            credential: "X-Amz-Credential",
            date: "X-Amz-Date",
            expires: "X-Amz-Expires",
            headerList: "X-Amz-SignedHeaders",
            securityToken: "X-Amz-Security-Token",
            signature: "X-Amz-Signature"
        ),
        presignOrder: [.algorithm, .credential, .date, .expires, .headerList, .securityToken]
    )

    /// Alibaba Cloud OSS signature V4.
    package static let ossV4 = V4Signature(
        algorithm: "OSS4-HMAC-SHA256",
        secretPrefix: "aliyun_v4",
        scopeTerminator: "aliyun_v4_request",
        defaultService: "oss",
        headerPrefix: "x-oss-",
        headerListing: .additionalHeaders,
        collapsesHeaderWhitespace: false,
        bareEmptyQueryValues: true,
        uriForm: .bucketAndKey,
        dateHeader: "x-oss-date",
        payloadHashHeader: "x-oss-content-sha256",
        securityTokenHeader: "x-oss-security-token",
        sendsHTTPDate: true,
        authorizationSeparator: ",",
        presignNames: PresignNames(
            algorithm: "x-oss-signature-version",
            credential: "x-oss-credential",
            date: "x-oss-date",
            expires: "x-oss-expires",
            headerList: "x-oss-additional-headers",
            securityToken: "x-oss-security-token",
            signature: "x-oss-signature"
        ),
        presignOrder: [.algorithm, .date, .expires, .credential, .securityToken, .headerList]
    )
}

extension SignatureVersion {
    /// The V4 variant of ``ossV4`` and ``sigV4``; `nil` for the HMAC-SHA1 schemes.
    package var v4Signature: V4Signature? {
        switch self.base {
        case .ossV4: .ossV4
        case .sigV4: .sigV4
        case .ossV1, .obs, .awsV2: nil
        }
    }
}
