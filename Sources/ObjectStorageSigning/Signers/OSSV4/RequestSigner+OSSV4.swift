//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension RequestSigner {
    /// OSS V4 header signing: adds `Host`, `x-oss-date`, `Date`, `x-oss-content-sha256`,
    /// `x-oss-security-token` and `Authorization`.
    ///
    /// `Date` is sent although V4 does not sign it (as alibabacloud-oss-v2 does; oss2 omits it).
    func signOSSV4(
        _ request: SigningRequest,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        region: String,
        payload: PayloadHash
    ) -> SignedRequest {
        let token = credentials.securityToken
        let fields = timestamp.fields
        var headers = [HTTPHeader(name: "Host", value: target.host)]
        headers.reserveCapacity(request.headers.count + 6)
        headers += request.headers.removing { name in
            name.isNamed("host") || name.isNamed("date") || name.isNamed("authorization")
                || name.isNamed("x-oss-date") || name.isNamed("x-oss-content-sha256")
                || (token != nil && name.isNamed("x-oss-security-token"))
        }
        headers.append(HTTPHeader(name: "x-oss-date", value: timestamp.iso8601Basic))
        headers.append(HTTPHeader(name: "Date", value: timestamp.httpDate))
        headers.append(HTTPHeader(name: "x-oss-content-sha256", value: payload.value))
        if let token { headers.append(HTTPHeader(name: "x-oss-security-token", value: token)) }
        let additional = OSSV4Signature.additionalHeaders(self.additionalHeaders, presentIn: headers)
        let product = self.service ?? OSSV4Signature.defaultProduct

        var query = EncodedQuery(request.query)
        var url = SigningBuffer(capacity: target.urlPrefixCapacity + query.bytes.count + query.entries.count * 2)
        target.appendURLPrefix(to: &url)
        query.appendURLQuery(to: &url)
        query.sort()

        var canonical = SigningBuffer(capacity: 320 + target.pathCapacity + query.bytes.count + headers.count * 48)
        canonical.append(request.method)
        canonical.append(UInt8(ascii: "\n"))
        OSSV4Signature.appendCanonicalURI(bucket: request.bucket, key: request.key, to: &canonical)
        canonical.append(UInt8(ascii: "\n"))
        query.appendCanonical(to: &canonical, bareEmptyValues: true)
        OSSV4Signature.appendCanonicalRequestTail(
            headers: headers,
            additionalHeaders: additional,
            payloadHash: payload.value,
            to: &canonical
        )
        let signature = signV4(
            algorithm: OSSV4Signature.algorithm,
            terminator: OSSV4Signature.scopeTerminator,
            preparedKey: OSSV4Signature.preparedKey,
            canonical: canonical,
            fields: fields,
            dateStamp: timestamp.dateStamp,
            region: region,
            service: product,
            secret: credentials.secretAccessKey
        )

        var authorization = SigningBuffer(capacity: 160 + credentials.accessKeyID.utf8.count + region.utf8.count)
        authorization.append(OSSV4Signature.algorithm)
        authorization.append(" Credential=")
        authorization.append(credentials.accessKeyID)
        authorization.append(UInt8(ascii: "/"))
        appendV4Scope(
            fields: fields,
            region: region,
            service: product,
            terminator: OSSV4Signature.scopeTerminator,
            encoded: false,
            to: &authorization
        )
        authorization.append(UInt8(ascii: ","))
        if !additional.isEmpty {
            authorization.append("AdditionalHeaders=")
            for (index, name) in additional.enumerated() {
                if index > 0 { authorization.append(UInt8(ascii: ";")) }
                authorization.append(name)
            }
            authorization.append(UInt8(ascii: ","))
        }
        authorization.append("Signature=")
        authorization.append(signature.signature)
        headers.append(HTTPHeader(name: "Authorization", value: authorization.string))
        return SignedRequest(
            method: request.method,
            url: url.string,
            headers: headers,
            canonicalRequest: canonical.string,
            stringToSign: signature.stringToSign
        )
    }

    /// OSS V4 presigning: `x-oss-signature-version`, `x-oss-date`, relative `x-oss-expires`,
    /// `x-oss-credential`, `x-oss-security-token`, `x-oss-additional-headers` and `x-oss-signature`.
    ///
    /// Built in three byte buffers (URL, canonical request, string to sign), every query parameter
    /// encoded once and shared by the URL and the canonical query.
    func presignOSSV4(
        _ request: SigningRequest,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        seconds: Int64,
        region: String
    ) -> PresignedURL {
        let product = self.service ?? OSSV4Signature.defaultProduct
        let fields = timestamp.fields
        let requestHeaders = request.headers.removing { $0.isNamed("host") || $0.isNamed("authorization") }
        // The canonical headers: Host only counts when listed as an additional header.
        var headers = requestHeaders
        var additional: [String] = []
        if !self.additionalHeaders.isEmpty {
            headers = [HTTPHeader(name: "Host", value: target.host)] + requestHeaders
            additional = OSSV4Signature.additionalHeaders(self.additionalHeaders, presentIn: headers)
        }

        var query = EncodedQuery(parameterCount: request.query.count + 7, byteCount: 256 + request.query.count * 64)
        for parameter in request.query where !Self.isOSSV4QueryParameter(parameter.name) {
            query.append(name: parameter.name, value: parameter.value)
        }
        query.append(name: "x-oss-signature-version", value: OSSV4Signature.algorithm)
        query.append(name: "x-oss-date") { SigningTimestamp.appendISO8601Basic(fields, to: &$0) }
        query.append(name: "x-oss-expires") { $0.append(seconds) }
        query.append(name: "x-oss-credential") { value in
            value.appendPercentEncoded(credentials.accessKeyID, style: .component)
            value.append("%2F")
            appendV4Scope(
                fields: fields,
                region: region,
                service: product,
                terminator: OSSV4Signature.scopeTerminator,
                encoded: true,
                to: &value
            )
        }
        if let token = credentials.securityToken {
            query.append(name: "x-oss-security-token", value: token)
        }
        if !additional.isEmpty {
            query.append(name: "x-oss-additional-headers", value: additional.joined(separator: ";"))
        }

        var url = SigningBuffer(capacity: target.urlPrefixCapacity + query.bytes.count + query.entries.count * 2 + 88)
        target.appendURLPrefix(to: &url)
        query.appendURLQuery(to: &url)
        query.sort()

        var canonical = SigningBuffer(capacity: 64 + target.pathCapacity + query.bytes.count + headers.count * 48)
        canonical.append(request.method)
        canonical.append(UInt8(ascii: "\n"))
        OSSV4Signature.appendCanonicalURI(bucket: request.bucket, key: request.key, to: &canonical)
        canonical.append(UInt8(ascii: "\n"))
        query.appendCanonical(to: &canonical, bareEmptyValues: true)
        OSSV4Signature.appendCanonicalRequestTail(
            headers: headers,
            additionalHeaders: additional,
            payloadHash: PayloadHash.unsigned.value,
            to: &canonical
        )
        let signature = signV4(
            algorithm: OSSV4Signature.algorithm,
            terminator: OSSV4Signature.scopeTerminator,
            preparedKey: OSSV4Signature.preparedKey,
            canonical: canonical,
            fields: fields,
            dateStamp: timestamp.dateStamp,
            region: region,
            service: product,
            secret: credentials.secretAccessKey
        )
        url.append("&x-oss-signature=")
        url.append(signature.signature)  // lowercase hex: nothing to encode
        return PresignedURL(
            url: url.string,
            method: request.method,
            expiration: timestamp.adding(seconds: seconds).date,
            signedHeaders: requestHeaders.isEmpty
                ? []
                : requestHeaders.filter {
                    let name = $0.name.asciiLowercased
                    return OSSV4Signature.isDefaultSignedHeader(name) || additional.contains(name)
                },
            canonicalRequest: canonical.string,
            stringToSign: signature.stringToSign
        )
    }

    /// Whether `name` is a query parameter OSS V4 presigning writes itself (any given are replaced).
    static func isOSSV4QueryParameter(_ name: String) -> Bool {
        switch name {
        case "x-oss-signature-version", "x-oss-date", "x-oss-expires", "x-oss-credential", "x-oss-security-token",
            "x-oss-additional-headers", "x-oss-signature":
            return true
        default:
            return false
        }
    }
}
