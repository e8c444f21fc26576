//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension RequestSigner {
    /// SigV4 header signing: adds `Host`, `X-Amz-Date`, `X-Amz-Content-SHA256`,
    /// `X-Amz-Security-Token` and `Authorization`; signs every header but hop-by-hop ones.
    func signSigV4(
        _ request: SigningRequest,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        region: String,
        payload: PayloadHash
    ) -> SignedRequest {
        let token = credentials.securityToken
        let fields = timestamp.fields
        let service = self.service ?? SigV4Signature.defaultService
        var headers = [HTTPHeader(name: "Host", value: target.host)]
        headers.reserveCapacity(request.headers.count + 5)
        headers += request.headers.removing { name in
            name.isNamed("host") || name.isNamed("authorization") || name.isNamed("x-amz-date")
                || name.isNamed("x-amz-content-sha256") || (token != nil && name.isNamed("x-amz-security-token"))
        }
        headers.append(HTTPHeader(name: "X-Amz-Date", value: timestamp.iso8601Basic))
        headers.append(HTTPHeader(name: "X-Amz-Content-SHA256", value: payload.value))
        if let token { headers.append(HTTPHeader(name: "X-Amz-Security-Token", value: token)) }
        let signedHeaders = SigV4Signature.signedHeaderNames(for: headers)

        var query = EncodedQuery(request.query)
        var url = SigningBuffer(capacity: target.urlPrefixCapacity + query.bytes.count + query.entries.count * 2)
        target.appendURLPrefix(to: &url)
        query.appendURLQuery(to: &url)
        query.sort()

        var canonical = SigningBuffer(capacity: 320 + target.pathCapacity + query.bytes.count + headers.count * 48)
        canonical.append(request.method)
        canonical.append(UInt8(ascii: "\n"))
        target.appendPath(to: &canonical)
        canonical.append(UInt8(ascii: "\n"))
        query.appendCanonical(to: &canonical, bareEmptyValues: false)
        SigV4Signature.appendCanonicalRequestTail(
            headers: headers,
            signedHeaders: signedHeaders,
            payloadHash: payload.value,
            to: &canonical
        )
        let signature = signV4(
            algorithm: SigV4Signature.algorithm,
            terminator: SigV4Signature.scopeTerminator,
            preparedKey: SigV4Signature.preparedKey,
            canonical: canonical,
            fields: fields,
            dateStamp: timestamp.dateStamp,
            region: region,
            service: service,
            secret: credentials.secretAccessKey
        )

        var authorization = SigningBuffer(capacity: 200 + credentials.accessKeyID.utf8.count + region.utf8.count)
        authorization.append(SigV4Signature.algorithm)
        authorization.append(" Credential=")
        authorization.append(credentials.accessKeyID)
        authorization.append(UInt8(ascii: "/"))
        appendV4Scope(
            fields: fields,
            region: region,
            service: service,
            terminator: SigV4Signature.scopeTerminator,
            encoded: false,
            to: &authorization
        )
        authorization.append(", SignedHeaders=")
        SigV4Signature.appendSignedHeaderNames(signedHeaders, to: &authorization)
        authorization.append(", Signature=")
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

    /// SigV4 presigning: the `X-Amz-*` parameters in the query, `UNSIGNED-PAYLOAD`.
    ///
    /// Built in three byte buffers (URL, canonical request, string to sign), every query parameter
    /// encoded once and shared by the URL and the canonical query.
    func presignSigV4(
        _ request: SigningRequest,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        seconds: Int64,
        region: String
    ) -> PresignedURL {
        let service = self.service ?? SigV4Signature.defaultService
        let fields = timestamp.fields
        let requestHeaders = request.headers.removing { $0.isNamed("host") || $0.isNamed("authorization") }
        // Without request headers only `host` is signed; its value is written straight from the target.
        let hostOnly = requestHeaders.isEmpty && !target.endpoint.host.utf8.contains(where: CanonicalHeaders.isSpace)
        var headers: [HTTPHeader] = []
        var signedHeaders: [String] = []
        if !hostOnly {
            headers = [HTTPHeader(name: "Host", value: target.host)] + requestHeaders
            signedHeaders = SigV4Signature.signedHeaderNames(for: headers)
        }

        var query = EncodedQuery(parameterCount: request.query.count + 7, byteCount: 256 + request.query.count * 64)
        for parameter in request.query where !Self.isSigV4QueryParameter(parameter.name) {
            query.append(name: parameter.name, value: parameter.value)
        }
        query.append(name: "X-Amz-Algorithm", value: SigV4Signature.algorithm)
        query.append(name: "X-Amz-Credential") { value in
            value.appendPercentEncoded(credentials.accessKeyID, style: .component)
            value.append("%2F")
            appendV4Scope(
                fields: fields,
                region: region,
                service: service,
                terminator: SigV4Signature.scopeTerminator,
                encoded: true,
                to: &value
            )
        }
        query.append(name: "X-Amz-Date") { SigningTimestamp.appendISO8601Basic(fields, to: &$0) }
        query.append(name: "X-Amz-Expires") { $0.append(seconds) }
        if hostOnly {
            query.append(name: "X-Amz-SignedHeaders", value: "host")
        } else {
            query.append(name: "X-Amz-SignedHeaders", value: signedHeaders.joined(separator: ";"))
        }
        if let token = credentials.securityToken {
            query.append(name: "X-Amz-Security-Token", value: token)
        }

        var url = SigningBuffer(capacity: target.urlPrefixCapacity + query.bytes.count + query.entries.count * 2 + 88)
        target.appendURLPrefix(to: &url)
        query.appendURLQuery(to: &url)
        query.sort()

        var canonical = SigningBuffer(
            capacity: 96 + target.pathCapacity + query.bytes.count + target.urlPrefixCapacity + headers.count * 48
        )
        canonical.append(request.method)
        canonical.append(UInt8(ascii: "\n"))
        target.appendPath(to: &canonical)
        canonical.append(UInt8(ascii: "\n"))
        query.appendCanonical(to: &canonical, bareEmptyValues: false)
        if hostOnly {
            canonical.append("\nhost:")
            target.appendHost(to: &canonical)
            canonical.append("\n\nhost\n")
            canonical.append(PayloadHash.unsigned.value)
        } else {
            SigV4Signature.appendCanonicalRequestTail(
                headers: headers,
                signedHeaders: signedHeaders,
                payloadHash: PayloadHash.unsigned.value,
                to: &canonical
            )
        }
        let signature = signV4(
            algorithm: SigV4Signature.algorithm,
            terminator: SigV4Signature.scopeTerminator,
            preparedKey: SigV4Signature.preparedKey,
            canonical: canonical,
            fields: fields,
            dateStamp: timestamp.dateStamp,
            region: region,
            service: service,
            secret: credentials.secretAccessKey
        )
        url.append("&X-Amz-Signature=")
        url.append(signature.signature)  // lowercase hex: nothing to encode
        return PresignedURL(
            url: url.string,
            method: request.method,
            expiration: timestamp.adding(seconds: seconds).date,
            signedHeaders: requestHeaders.isEmpty
                ? [] : requestHeaders.filter { signedHeaders.contains($0.name.asciiLowercased) },
            canonicalRequest: canonical.string,
            stringToSign: signature.stringToSign
        )
    }

    /// Whether `name` is a query parameter SigV4 presigning writes itself (any given are replaced).
    static func isSigV4QueryParameter(_ name: String) -> Bool {
        switch name {
        case "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders",
            "X-Amz-Security-Token", "X-Amz-Signature":
            return true
        default:
            return false
        }
    }
}
