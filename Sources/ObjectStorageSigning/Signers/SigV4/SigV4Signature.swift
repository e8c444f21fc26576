//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The building blocks of AWS Signature Version 4 (`AWS4-HMAC-SHA256`) as S3 uses it (and OBS's
/// V4, the same algorithm), usable both to sign and to verify a request from its parsed wire parts.
///
/// ```
/// CanonicalRequest = VERB "\n" CanonicalURI "\n" CanonicalQuery "\n"
///                    CanonicalHeaders "\n" SignedHeaders "\n" HashedPayload
/// StringToSign     = "AWS4-HMAC-SHA256\n" X-Amz-Date "\n" Scope "\n" hex(SHA256(CanonicalRequest))
/// Scope            = YYYYMMDD "/" region "/" service "/aws4_request"
/// ```
///
/// S3 rules: the URI path is encoded once (RFC 3986, `/` kept) and never normalized; every query
/// parameter is signed, sorted by encoded name, with `name=` for an empty or absent value;
/// header values are trimmed and inner runs of spaces squeezed.
package enum SigV4Signature {
    /// `AWS4-HMAC-SHA256`.
    package static let algorithm = "AWS4-HMAC-SHA256"
    /// The default service in the scope: `s3`.
    package static let defaultService = "s3"
    /// The scope terminator: `aws4_request`.
    package static let scopeTerminator = "aws4_request"

    /// Headers never signed because proxies and HTTP clients add, drop or rewrite them.
    static let unsignedHeaders: Set<String> = [
        "authorization", "connection", "content-length", "expect", "keep-alive", "proxy-authorization",
        "te", "trailer", "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id",
    ]

    /// `YYYYMMDD/REGION/SERVICE/aws4_request`.
    ///
    /// - Parameters:
    ///   - date: The `YYYYMMDD` date stamp.
    ///   - region: The region, e.g. `us-east-1`.
    ///   - service: The service, `s3`.
    /// - Returns: The credential scope.
    package static func scope(date: String, region: String, service: String = defaultService) -> String {
        "\(date)/\(region)/\(service)/\(scopeTerminator)"
    }

    /// The names the signer signs for `headers`: every header except hop-by-hop and client-set
    /// ones (`User-Agent`, `Expect`, `Content-Length`...), lowercase, sorted, deduplicated.
    ///
    /// - Parameter headers: The headers the request carries, `Host` included.
    /// - Returns: The SignedHeaders list.
    package static func signedHeaderNames(for headers: [HTTPHeader]) -> [String] {
        var names: [String] = []
        for header in headers {
            let name = header.name.asciiLowercased
            if !unsignedHeaders.contains(name) && !names.contains(name) { names.append(name) }
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return names
    }

    /// The canonical query string.
    ///
    /// - Parameter query: Every query parameter, decoded (for a presigned URL, all but
    ///   `X-Amz-Signature`).
    /// - Returns: The canonical query.
    package static func canonicalQuery(_ query: [QueryParameter]) -> String {
        var encoded = EncodedQuery(query)
        encoded.sort()
        var buffer = SigningBuffer(capacity: encoded.bytes.count + query.count * 2)
        encoded.appendCanonical(to: &buffer, bareEmptyValues: false)
        return buffer.string
    }

    /// The canonical request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The decoded URL path as sent (`/KEY` virtual-hosted, `/BUCKET/KEY` path-style);
    ///     it is encoded once here.
    ///   - query: Every query parameter, decoded.
    ///   - headers: The headers as received.
    ///   - signedHeaders: The lowercase SignedHeaders names, sorted.
    ///   - payloadHash: `x-amz-content-sha256`, or `UNSIGNED-PAYLOAD` for a presigned URL.
    /// - Returns: The canonical request.
    package static func canonicalRequest(
        method: String,
        path: String,
        query: [QueryParameter],
        headers: [HTTPHeader],
        signedHeaders: [String],
        payloadHash: String
    ) -> String {
        canonicalRequest(
            method: method,
            encodedPath: PercentEncoding.encode(path.isEmpty ? "/" : path, style: .path),
            query: query,
            headers: headers,
            signedHeaders: signedHeaders,
            payloadHash: payloadHash
        )
    }

    /// The canonical request for an already-encoded path (the signer's own URL path).
    static func canonicalRequest(
        method: String,
        encodedPath: String,
        query: [QueryParameter],
        headers: [HTTPHeader],
        signedHeaders: [String],
        payloadHash: String
    ) -> String {
        var buffer = SigningBuffer(capacity: 256 + encodedPath.utf8.count + query.count * 64)
        buffer.append(method)
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(encodedPath)
        buffer.append(UInt8(ascii: "\n"))
        var encoded = EncodedQuery(query)
        encoded.sort()
        encoded.appendCanonical(to: &buffer, bareEmptyValues: false)
        appendCanonicalRequestTail(
            headers: headers,
            signedHeaders: signedHeaders,
            payloadHash: payloadHash,
            to: &buffer
        )
        return buffer.string
    }

    /// Writes what follows the canonical query: `\n`, the canonical headers, `\n`, the signed
    /// header names, `\n` and the payload hash.
    static func appendCanonicalRequestTail(
        headers: [HTTPHeader],
        signedHeaders: [String],
        payloadHash: String,
        to buffer: inout SigningBuffer
    ) {
        buffer.append(UInt8(ascii: "\n"))
        let canonical = CanonicalHeaders.collect(headers, collapseWhitespace: true) { signedHeaders.contains($0) }
        for name in signedHeaders {
            buffer.append(name)
            buffer.append(UInt8(ascii: ":"))
            if let header = canonical.first(where: { $0.name == name }) { buffer.append(header.value) }
            buffer.append(UInt8(ascii: "\n"))
        }
        buffer.append(UInt8(ascii: "\n"))
        appendSignedHeaderNames(signedHeaders, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(payloadHash)
    }

    /// Writes the names joined with `;`.
    static func appendSignedHeaderNames(_ names: [String], to buffer: inout SigningBuffer) {
        for (index, name) in names.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ";")) }
            buffer.append(name)
        }
    }

    /// The string to sign.
    ///
    /// - Parameters:
    ///   - canonicalRequest: The canonical request.
    ///   - timestamp: The signing time (`X-Amz-Date`).
    ///   - scope: The credential scope.
    /// - Returns: The string to sign.
    package static func stringToSign(canonicalRequest: String, timestamp: SigningTimestamp, scope: String) -> String {
        v4StringToSign(algorithm: algorithm, canonicalRequest: canonicalRequest, timestamp: timestamp, scope: scope)
    }

    /// The derived signing key (cached per secret, date, region and service).
    ///
    /// - Parameters:
    ///   - secret: The secret access key.
    ///   - date: The `YYYYMMDD` date stamp.
    ///   - region: The region.
    ///   - service: The service, `s3`.
    /// - Returns: The 32-byte signing key.
    package static func signingKey(
        secret: String,
        date: String,
        region: String,
        service: String = defaultService
    )
        -> [UInt8]
    {
        preparedKey(secret: secret, date: date, region: region, service: service).bytes
    }

    /// The derived signing key with its keyed HMAC state (cached).
    static func preparedKey(secret: String, date: String, region: String, service: String) -> SigningKeyCache.Key {
        SigningMAC.deriveV4Key(
            secretPrefix: "AWS4",
            secret: secret,
            dateStamp: date,
            region: region,
            service: service,
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

    /// `AWS4-HMAC-SHA256 Credential=AK/SCOPE, SignedHeaders=a;b, Signature=HEX`.
    ///
    /// - Parameters:
    ///   - accessKeyID: The access key id.
    ///   - scope: The credential scope.
    ///   - signedHeaders: The SignedHeaders names.
    ///   - signature: The hex signature.
    /// - Returns: The Authorization header value.
    package static func authorization(
        accessKeyID: String,
        scope: String,
        signedHeaders: [String],
        signature: String
    ) -> String {
        "\(algorithm) Credential=\(accessKeyID)/\(scope), SignedHeaders=\(signedHeaders.joined(separator: ";")), "
            + "Signature=\(signature)"
    }
}
