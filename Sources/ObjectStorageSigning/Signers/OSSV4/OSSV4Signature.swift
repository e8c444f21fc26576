//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The building blocks of Alibaba Cloud OSS signature V4 (`OSS4-HMAC-SHA256`), usable both to
/// sign and to verify a request from its parsed wire parts.
///
/// ```
/// CanonicalRequest = VERB "\n" CanonicalURI "\n" CanonicalQuery "\n"
///                    CanonicalHeaders "\n" AdditionalHeaders "\n" HashedPayload
/// StringToSign     = "OSS4-HMAC-SHA256\n" x-oss-date "\n" Scope "\n" hex(SHA256(CanonicalRequest))
/// Scope            = YYYYMMDD "/" region "/oss/aliyun_v4_request"
/// SigningKey       = HMAC chain over "aliyun_v4" + secret, date, region, "oss", "aliyun_v4_request"
/// ```
///
/// - CanonicalURI: `/BUCKET/KEY` (whatever the addressing), RFC 3986-encoded, `/` kept.
/// - CanonicalQuery: every parameter, names and values RFC 3986-encoded, sorted byte-wise by
///   encoded name (`Zeta` before `alpha`), an empty or absent value written as the bare name.
/// - CanonicalHeaders: `content-type`, `content-md5`, every `x-oss-*`, and the additional headers;
///   lowercase names, values without surrounding whitespace (inner whitespace kept), sorted.
package enum OSSV4Signature {
    /// `OSS4-HMAC-SHA256`.
    package static let algorithm = "OSS4-HMAC-SHA256"
    /// The default product in the scope: `oss`.
    package static let defaultProduct = "oss"
    /// The scope terminator: `aliyun_v4_request`.
    package static let scopeTerminator = "aliyun_v4_request"

    /// `YYYYMMDD/REGION/PRODUCT/aliyun_v4_request`.
    ///
    /// - Parameters:
    ///   - date: The `YYYYMMDD` date stamp.
    ///   - region: The region, e.g. `cn-hangzhou`.
    ///   - product: The product, `oss`.
    /// - Returns: The credential scope.
    package static func scope(date: String, region: String, product: String = defaultProduct) -> String {
        "\(date)/\(region)/\(product)/\(scopeTerminator)"
    }

    /// Whether a header (lowercase name) is signed without being listed as additional.
    ///
    /// - Parameter lowercasedName: The lowercase header name.
    /// - Returns: `true` for `content-type`, `content-md5` and `x-oss-*`.
    package static func isDefaultSignedHeader(_ lowercasedName: String) -> Bool {
        lowercasedName.hasPrefix("x-oss-") || lowercasedName == "content-type" || lowercasedName == "content-md5"
    }

    /// The additional headers actually signed: lowercased, without default-signed names, without
    /// headers the request does not carry, deduplicated and fully sorted.
    ///
    /// Decisions: headers listed but absent are dropped (as alibabacloud-oss-v2 does; signing an
    /// absent header would commit to an empty value the server never sees). The list is sorted
    /// byte-wise, both here and in the `AdditionalHeaders=` value; oss2 sorts the latter by first
    /// character only, which is an oss2 bug (the canonical request is fully sorted either way).
    ///
    /// - Parameters:
    ///   - requested: Header names the caller wants signed.
    ///   - headers: The headers the request carries (including `Host`).
    /// - Returns: The sorted lowercase names.
    package static func additionalHeaders(_ requested: [String], presentIn headers: [HTTPHeader]) -> [String] {
        guard !requested.isEmpty else { return [] }
        var names: [String] = []
        for name in requested {
            let lowercased = CanonicalHeaders.trim(name).asciiLowercased
            guard !lowercased.isEmpty, !isDefaultSignedHeader(lowercased), !names.contains(lowercased),
                headers.first(named: lowercased) != nil
            else { continue }
            names.append(lowercased)
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return names
    }

    /// The canonical URI: `/BUCKET/KEY` encoded (`/BUCKET/` for a bucket, `/` for the service).
    ///
    /// - Parameters:
    ///   - bucket: The bucket, if any.
    ///   - key: The object key, decoded.
    /// - Returns: The canonical URI.
    package static func canonicalURI(bucket: String?, key: String?) -> String {
        var buffer = SigningBuffer(capacity: 64)
        appendCanonicalURI(bucket: bucket, key: key, to: &buffer)
        return buffer.string
    }

    static func appendCanonicalURI(bucket: String?, key: String?, to buffer: inout SigningBuffer) {
        buffer.append(UInt8(ascii: "/"))
        guard let bucket, !bucket.isEmpty else { return }
        buffer.appendPercentEncoded(bucket, style: .path)
        buffer.append(UInt8(ascii: "/"))
        if let key { buffer.appendPercentEncoded(key, style: .path) }
    }

    /// The canonical query string.
    ///
    /// - Parameter query: Every query parameter of the request, decoded (for a presigned URL,
    ///   all but `x-oss-signature`).
    /// - Returns: The canonical query.
    package static func canonicalQuery(_ query: [QueryParameter]) -> String {
        var buffer = SigningBuffer(capacity: query.count * 64)
        appendCanonicalQuery(query, to: &buffer)
        return buffer.string
    }

    static func appendCanonicalQuery(_ query: [QueryParameter], to buffer: inout SigningBuffer) {
        var encoded = EncodedQuery(query)
        encoded.sort()
        encoded.appendCanonical(to: &buffer, bareEmptyValues: true)
    }

    /// The canonical request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - bucket: The bucket, if any.
    ///   - key: The object key, decoded.
    ///   - query: Every query parameter, decoded (presigned: all but `x-oss-signature`).
    ///   - headers: The headers as received (`Host` included when `host` is an additional header).
    ///   - additionalHeaders: The additional header names, as from ``additionalHeaders(_:presentIn:)``
    ///     or parsed from `AdditionalHeaders=` / `x-oss-additional-headers`.
    ///   - payloadHash: `x-oss-content-sha256`, or `UNSIGNED-PAYLOAD` for a presigned URL.
    /// - Returns: The canonical request.
    package static func canonicalRequest(
        method: String,
        bucket: String?,
        key: String?,
        query: [QueryParameter],
        headers: [HTTPHeader],
        additionalHeaders: [String],
        payloadHash: String
    ) -> String {
        var buffer = SigningBuffer(capacity: 256 + (key?.utf8.count ?? 0) * 3 + query.count * 64)
        buffer.append(method)
        buffer.append(UInt8(ascii: "\n"))
        appendCanonicalURI(bucket: bucket, key: key, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        appendCanonicalQuery(query, to: &buffer)
        appendCanonicalRequestTail(
            headers: headers,
            additionalHeaders: additionalHeaders,
            payloadHash: payloadHash,
            to: &buffer
        )
        return buffer.string
    }

    /// Writes what follows the canonical query: `\n`, the canonical headers, `\n`, the additional
    /// header names, `\n` and the payload hash.
    static func appendCanonicalRequestTail(
        headers: [HTTPHeader],
        additionalHeaders: [String],
        payloadHash: String,
        to buffer: inout SigningBuffer
    ) {
        buffer.append(UInt8(ascii: "\n"))
        if !headers.isEmpty {
            let signed = CanonicalHeaders.collect(headers) {
                isDefaultSignedHeader($0) || additionalHeaders.contains($0)
            }
            for header in signed {
                buffer.append(header.name)
                buffer.append(UInt8(ascii: ":"))
                buffer.append(header.value)
                buffer.append(UInt8(ascii: "\n"))
            }
        }
        buffer.append(UInt8(ascii: "\n"))
        for (index, name) in additionalHeaders.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ";")) }
            buffer.append(name)
        }
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(payloadHash)
    }

    /// The string to sign.
    ///
    /// - Parameters:
    ///   - canonicalRequest: The canonical request.
    ///   - timestamp: The signing time (`x-oss-date`).
    ///   - scope: The credential scope.
    /// - Returns: The string to sign.
    package static func stringToSign(canonicalRequest: String, timestamp: SigningTimestamp, scope: String) -> String {
        v4StringToSign(algorithm: algorithm, canonicalRequest: canonicalRequest, timestamp: timestamp, scope: scope)
    }

    /// The derived signing key (cached per secret, date, region and product).
    ///
    /// - Parameters:
    ///   - secret: The secret access key.
    ///   - date: The `YYYYMMDD` date stamp.
    ///   - region: The region.
    ///   - product: The product, `oss`.
    /// - Returns: The 32-byte signing key.
    package static func signingKey(
        secret: String,
        date: String,
        region: String,
        product: String = defaultProduct
    )
        -> [UInt8]
    {
        preparedKey(secret: secret, date: date, region: region, product: product).bytes
    }

    /// The derived signing key with its keyed HMAC state (cached).
    static func preparedKey(secret: String, date: String, region: String, product: String) -> SigningKeyCache.Key {
        SigningMAC.deriveV4Key(
            secretPrefix: "aliyun_v4",
            secret: secret,
            dateStamp: date,
            region: region,
            service: product,
            terminator: scopeTerminator
        )
    }

    /// The signature: lowercase hex HMAC-SHA256 of `stringToSign` under `signingKey`.
    ///
    /// - Parameters:
    ///   - signingKey: The derived key.
    ///   - stringToSign: The string to sign.
    /// - Returns: 64 hex digits.
    package static func signature(signingKey: [UInt8], stringToSign: String) -> String {
        SigningMAC.hmacSHA256Hex(key: signingKey, message: stringToSign)
    }

    /// `OSS4-HMAC-SHA256 Credential=AK/SCOPE,AdditionalHeaders=a;b,Signature=HEX`.
    ///
    /// Decision: the alibabacloud-oss-v2 and OSS documentation layout (no spaces, AdditionalHeaders
    /// before Signature). oss2 writes `, ` separators with AdditionalHeaders last; the server
    /// accepts both and the signature is the same.
    ///
    /// - Parameters:
    ///   - accessKeyID: The access key id.
    ///   - scope: The credential scope.
    ///   - additionalHeaders: The signed additional header names.
    ///   - signature: The hex signature.
    /// - Returns: The Authorization header value.
    package static func authorization(
        accessKeyID: String,
        scope: String,
        additionalHeaders: [String],
        signature: String
    ) -> String {
        var result = "\(algorithm) Credential=\(accessKeyID)/\(scope),"
        if !additionalHeaders.isEmpty {
            result += "AdditionalHeaders=\(additionalHeaders.joined(separator: ";")),"
        }
        result += "Signature=\(signature)"
        return result
    }
}

/// `ALGORITHM\nTIMESTAMP\nSCOPE\nhex(SHA256(canonicalRequest))`, shared by OSS V4 and SigV4.
func v4StringToSign(
    algorithm: String,
    canonicalRequest: String,
    timestamp: SigningTimestamp,
    scope: String
)
    -> String
{
    var buffer = SigningBuffer(capacity: 160)
    var canonicalRequest = canonicalRequest
    canonicalRequest.withUTF8 { canonicalRequest in
        appendV4StringToSign(
            algorithm: algorithm,
            canonicalRequest: canonicalRequest,
            fields: timestamp.fields,
            to: &buffer
        ) { $0.append(scope) }
    }
    return buffer.string
}

/// Writes `ALGORITHM\nTIMESTAMP\nSCOPE\nhex(SHA256(canonicalRequest))`; `appendScope` writes the scope.
func appendV4StringToSign(
    algorithm: String,
    canonicalRequest: UnsafeBufferPointer<UInt8>,
    fields: SigningTimestamp.Fields,
    to buffer: inout SigningBuffer,
    appendScope: (inout SigningBuffer) -> Void
) {
    buffer.append(algorithm)
    buffer.append(UInt8(ascii: "\n"))
    SigningTimestamp.appendISO8601Basic(fields, to: &buffer)
    buffer.append(UInt8(ascii: "\n"))
    appendScope(&buffer)
    buffer.append(UInt8(ascii: "\n"))
    buffer.append(ByteEncoding.hex(Hashing.SHA256.hash(bufferPointer: UnsafeRawBufferPointer(canonicalRequest))))
}

/// The V4 string to sign for `canonical` and its signature under the scheme's (cached) derived key:
/// the one routine OSS V4 and S3 SigV4 share; they differ only in `algorithm`, the scope
/// `terminator` and how `preparedKey` derives the key.
func signV4(
    algorithm: String,
    terminator: String,
    preparedKey: (_ secret: String, _ date: String, _ region: String, _ service: String) -> SigningKeyCache.Key,
    canonical: borrowing SigningBuffer,
    fields: SigningTimestamp.Fields,
    dateStamp: String,
    region: String,
    service: String,
    secret: String
) -> (stringToSign: String, signature: String) {
    var stringToSign = SigningBuffer(capacity: 160 + region.utf8.count + service.utf8.count)
    canonical.withUnsafeBytes { canonical in
        appendV4StringToSign(algorithm: algorithm, canonicalRequest: canonical, fields: fields, to: &stringToSign) {
            appendV4Scope(
                fields: fields,
                region: region,
                service: service,
                terminator: terminator,
                encoded: false,
                to: &$0
            )
        }
    }
    let key = preparedKey(secret, dateStamp, region, service)
    let signature = stringToSign.withUnsafeBytes { key.mac.hex(for: $0) }
    return (stringToSign.string, signature)
}

/// Writes a V4 credential scope, `DATE/REGION/SERVICE/TERMINATOR`, raw or (`encoded`) as a
/// query component (each `/` as `%2F`).
func appendV4Scope(
    fields: SigningTimestamp.Fields,
    region: String,
    service: String,
    terminator: String,
    encoded: Bool,
    to buffer: inout SigningBuffer
) {
    SigningTimestamp.appendDateStamp(fields, to: &buffer)
    appendScopePart(region, encoded: encoded, to: &buffer)
    appendScopePart(service, encoded: encoded, to: &buffer)
    appendScopePart(terminator, encoded: encoded, to: &buffer)
}

@inline(__always)
private func appendScopePart(_ part: String, encoded: Bool, to buffer: inout SigningBuffer) {
    if encoded {
        buffer.append("%2F")
        buffer.appendPercentEncoded(part, style: .component)
    } else {
        buffer.append(UInt8(ascii: "/"))
        buffer.append(part)
    }
}
