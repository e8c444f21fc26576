//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Headers SigV4 never signs because proxies and HTTP clients add, drop or rewrite them.
private let hopByHopHeaders: Set<String> = [
    "authorization", "connection", "content-length", "expect", "keep-alive", "proxy-authorization",
    "te", "trailer", "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id",
]

extension V4Signature {
    /// The header list a signer writes (`SignedHeaders` or `AdditionalHeaders`): lowercase, deduplicated,
    /// sorted byte-wise.
    ///
    /// - ``HeaderListing/signedHeaders``: every header `headers` carries but hop-by-hop and client-set ones
    ///   (`User-Agent`, `Expect`, `Content-Length`...); `additional` is not used.
    /// - ``HeaderListing/additionalHeaders``: the names of `additional` that are not signed by default and
    ///   that `headers` carries. Headers asked for but absent are dropped (as alibabacloud-oss-v2 does; signing
    ///   an absent header would commit to an empty value the server never sees). The list is sorted fully,
    ///   here and in `AdditionalHeaders=`; oss2 sorts the latter by first character only, which is an oss2
    ///   bug (its canonical request is fully sorted either way).
    ///
    /// - Parameters:
    ///   - headers: The headers the request carries, `Host` included.
    ///   - additional: Header names the caller wants signed besides the default ones (OSS V4).
    /// - Returns: The sorted lowercase names.
    package func listedHeaders(for headers: [HTTPHeader], additional: [String]) -> [String] {
        var names: [String] = []
        switch self.headerListing {
        case .signedHeaders:
            names.reserveCapacity(headers.count)
            for header in headers {
                let name = header.name.asciiLowercased
                if !hopByHopHeaders.contains(name) && !names.contains(name) { names.append(name) }
            }
        case .additionalHeaders:
            guard !additional.isEmpty else { return [] }
            for name in additional {
                let lowercased = CanonicalHeaders.trim(name).asciiLowercased
                guard !lowercased.isEmpty, !self.isSignedByDefault(lowercased), !names.contains(lowercased),
                    headers.first(named: lowercased) != nil
                else { continue }
                names.append(lowercased)
            }
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return names
    }

    /// Whether a header is signed without being listed: under ``HeaderListing/additionalHeaders``,
    /// `content-type`, `content-md5` and the variant's own (`x-oss-*`); under ``HeaderListing/signedHeaders``,
    /// none.
    ///
    /// - Parameter lowercasedName: The lowercase header name.
    /// - Returns: Whether the header is signed whatever the list says.
    package func isSignedByDefault(_ lowercasedName: String) -> Bool {
        self.headerListing == .additionalHeaders && HMACSHA1Signature.signs(lowercasedName, prefix: self.headerPrefix)
    }

    /// Whether a header is signed, given the request's header list.
    ///
    /// - Parameters:
    ///   - lowercasedName: The lowercase header name.
    ///   - listedHeaders: The request's `SignedHeaders` or `AdditionalHeaders` names.
    /// - Returns: Whether the signature covers the header.
    package func signs(_ lowercasedName: String, listedHeaders: [String]) -> Bool {
        self.isSignedByDefault(lowercasedName) || listedHeaders.contains(lowercasedName)
    }

    /// The canonical URI, encoded (RFC 3986, `/` kept).
    ///
    /// - Parameters:
    ///   - path: The decoded URL path as sent (``URIForm/requestPath``; an empty path is `/`).
    ///   - bucket: The bucket the request addresses, if any (``URIForm/bucketAndKey``).
    ///   - key: The object key, decoded (``URIForm/bucketAndKey``).
    /// - Returns: The canonical URI.
    package func canonicalURI(path: String, bucket: String?, key: String?) -> String {
        var buffer = SigningBuffer(capacity: 64)
        self.appendCanonicalURI(path: path, bucket: bucket, key: key, to: &buffer)
        return buffer.string
    }

    func appendCanonicalURI(path: String, bucket: String?, key: String?, to buffer: inout SigningBuffer) {
        switch self.uriForm {
        case .requestPath: buffer.appendPercentEncoded(path.isEmpty ? "/" : path, style: .path)
        case .bucketAndKey: Self.appendBucketAndKey(bucket, key, to: &buffer)
        }
    }

    /// Writes the canonical URI of the request `target` addresses.
    func appendCanonicalURI(target: RequestTarget, to buffer: inout SigningBuffer) {
        switch self.uriForm {
        case .requestPath: target.appendPath(to: &buffer)
        case .bucketAndKey: Self.appendBucketAndKey(target.bucket, target.key, to: &buffer)
        }
    }

    private static func appendBucketAndKey(_ bucket: String?, _ key: String?, to buffer: inout SigningBuffer) {
        buffer.append(UInt8(ascii: "/"))
        guard let bucket, !bucket.isEmpty else { return }
        buffer.appendPercentEncoded(bucket, style: .path)
        buffer.append(UInt8(ascii: "/"))
        if let key { buffer.appendPercentEncoded(key, style: .path) }
    }

    /// The canonical query: every parameter, names and values RFC 3986-encoded, sorted byte-wise by encoded
    /// name (`Zeta` before `alpha`), then value.
    ///
    /// - Parameter query: Every query parameter, decoded (for a presigned URL, all but the signature).
    /// - Returns: The canonical query.
    package func canonicalQuery(_ query: [QueryParameter]) -> String {
        var encoded = EncodedQuery(query)
        encoded.sort()
        var buffer = SigningBuffer(capacity: encoded.bytes.count + query.count * 2)
        encoded.appendCanonical(to: &buffer, bareEmptyValues: self.bareEmptyQueryValues)
        return buffer.string
    }

    /// The canonical request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The decoded URL path as sent; see ``canonicalURI(path:bucket:key:)``.
    ///   - bucket: The bucket the request addresses, if any.
    ///   - key: The object key, decoded.
    ///   - query: Every query parameter, decoded (for a presigned URL, all but the signature).
    ///   - headers: The headers as received, `Host` included.
    ///   - listedHeaders: The `SignedHeaders` or `AdditionalHeaders` names, lowercase, as
    ///     ``listedHeaders(for:additional:)`` writes them or as parsed from the request.
    ///   - payloadHash: The payload hash header's value, or `UNSIGNED-PAYLOAD` for a presigned URL.
    /// - Returns: The canonical request.
    package func canonicalRequest(
        method: String,
        path: String,
        bucket: String?,
        key: String?,
        query: [QueryParameter],
        headers: [HTTPHeader],
        listedHeaders: [String],
        payloadHash: String
    ) -> String {
        var buffer = SigningBuffer(capacity: 256 + path.utf8.count * 3 + (key?.utf8.count ?? 0) * 3 + query.count * 64)
        var encoded = EncodedQuery(query)
        encoded.sort()
        self.appendCanonicalRequestHead(method: method, query: encoded, to: &buffer) {
            self.appendCanonicalURI(path: path, bucket: bucket, key: key, to: &$0)
        }
        self.appendCanonicalRequestTail(
            headers: headers,
            listedHeaders: listedHeaders,
            payloadHash: payloadHash,
            to: &buffer
        )
        return buffer.string
    }

    /// Writes what precedes the canonical headers: `METHOD\nURI\nQUERY`, `query` in canonical order;
    /// `appendURI` writes the URI.
    func appendCanonicalRequestHead(
        method: String,
        query: borrowing EncodedQuery,
        to buffer: inout SigningBuffer,
        appendURI: (inout SigningBuffer) -> Void
    ) {
        buffer.append(method)
        buffer.append(UInt8(ascii: "\n"))
        appendURI(&buffer)
        buffer.append(UInt8(ascii: "\n"))
        query.appendCanonical(to: &buffer, bareEmptyValues: self.bareEmptyQueryValues)
    }

    /// Writes what follows the canonical query: `\n`, the canonical headers (`name:value\n` each), `\n`,
    /// the listed header names joined with `;`, `\n` and the payload hash.
    func appendCanonicalRequestTail(
        headers: [HTTPHeader],
        listedHeaders: [String],
        payloadHash: String,
        to buffer: inout SigningBuffer
    ) {
        buffer.append(UInt8(ascii: "\n"))
        let canonical = CanonicalHeaders.collect(headers, collapseWhitespace: self.collapsesHeaderWhitespace) {
            self.signs($0, listedHeaders: listedHeaders)
        }
        switch self.headerListing {
        case .signedHeaders:
            for name in listedHeaders {
                Self.appendHeaderLine(name, canonical.first { $0.name == name }?.value, to: &buffer)
            }
        case .additionalHeaders:
            for header in canonical { Self.appendHeaderLine(header.name, header.value, to: &buffer) }
        }
        buffer.append(UInt8(ascii: "\n"))
        Self.appendHeaderList(listedHeaders, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(payloadHash)
    }

    private static func appendHeaderLine(_ name: String, _ value: String?, to buffer: inout SigningBuffer) {
        buffer.append(name)
        buffer.append(UInt8(ascii: ":"))
        if let value { buffer.append(value) }
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Writes the names joined with `;`.
    static func appendHeaderList(_ names: [String], to buffer: inout SigningBuffer) {
        for (index, name) in names.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ";")) }
            buffer.append(name)
        }
    }
}
