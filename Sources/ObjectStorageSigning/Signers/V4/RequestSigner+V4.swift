//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension RequestSigner {
    /// V4 header signing: adds `Host`, the variant's date header (and, for OSS V4, an unsigned `Date`, as
    /// alibabacloud-oss-v2 sends it; oss2 omits it), its payload hash and security token headers, and
    /// `Authorization`; any the request carries are replaced.
    ///
    /// - Throws: ``SigningError/Code/missingRegion`` without a region.
    func signV4(
        _ request: SigningRequest,
        as v4: V4Signature,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        payload: PayloadHash
    ) throws(SigningError) -> SignedRequest {
        let region = try self.requireRegion()
        let token = credentials.securityToken
        let scope = V4Scope(v4, timestamp: timestamp, region: region, service: self.service ?? v4.defaultService)
        var headers = [HTTPHeader(name: "Host", value: target.host)]
        headers.reserveCapacity(request.headers.count + 6)
        headers += request.headers.removing { name in
            name.isNamed("host") || name.isNamed("authorization") || (v4.sendsHTTPDate && name.isNamed("date"))
                || asciiCaseInsensitiveEquals(name, v4.dateHeader)
                || asciiCaseInsensitiveEquals(name, v4.payloadHashHeader)
                || (token != nil && asciiCaseInsensitiveEquals(name, v4.securityTokenHeader))
        }
        headers.append(HTTPHeader(name: v4.dateHeader, value: timestamp.iso8601Basic))
        if v4.sendsHTTPDate { headers.append(HTTPHeader(name: "Date", value: timestamp.httpDate)) }
        headers.append(HTTPHeader(name: v4.payloadHashHeader, value: payload.value))
        if let token { headers.append(HTTPHeader(name: v4.securityTokenHeader, value: token)) }
        let listed = v4.listedHeaders(for: headers, additional: self.additionalHeaders)

        var query = EncodedQuery(request.query)
        var url = SigningBuffer(capacity: target.urlPrefixCapacity + query.bytes.count + query.entries.count * 2)
        target.appendURLPrefix(to: &url)
        query.appendURLQuery(to: &url)
        query.sort()

        var canonical = SigningBuffer(capacity: 320 + target.pathCapacity + query.bytes.count + headers.count * 48)
        v4.appendCanonicalRequestHead(method: request.method, query: query, to: &canonical) {
            v4.appendCanonicalURI(target: target, to: &$0)
        }
        v4.appendCanonicalRequestTail(
            headers: headers,
            listedHeaders: listed,
            payloadHash: payload.value,
            to: &canonical
        )
        let signature = scope.sign(canonical, secret: credentials.secretAccessKey)

        var authorization = SigningBuffer(capacity: 200 + credentials.accessKeyID.utf8.count + region.utf8.count)
        v4.appendAuthorization(
            accessKeyID: credentials.accessKeyID,
            listedHeaders: listed,
            signature: signature.signature,
            to: &authorization
        ) {
            scope.append(encoded: false, to: &$0)
        }
        headers.append(HTTPHeader(name: "Authorization", value: authorization.string))
        return SignedRequest(
            method: request.method,
            url: url.string,
            headers: headers,
            canonicalRequest: canonical.string,
            stringToSign: signature.stringToSign
        )
    }

    /// V4 presigning: the variant's parameters in the query (any the request carries are replaced), the
    /// validity relative to the signing time, `UNSIGNED-PAYLOAD`.
    ///
    /// Built in three byte buffers (URL, canonical request, string to sign), every query parameter encoded
    /// once and shared by the URL and the canonical query.
    ///
    /// - Throws: ``SigningError/Code/missingRegion`` without a region.
    func presignV4(
        _ request: SigningRequest,
        as v4: V4Signature,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        seconds: Int64
    ) throws(SigningError) -> PresignedURL {
        let region = try self.requireRegion()
        let scope = V4Scope(v4, timestamp: timestamp, region: region, service: self.service ?? v4.defaultService)
        let names = v4.presignNames
        let requestHeaders = request.headers.removing { $0.isNamed("host") || $0.isNamed("authorization") }
        // SigV4 always signs `host`: without request headers it is the only one, and its value is written
        // straight from the target. OSS V4 signs it only as an additional header.
        let hostOnly =
            v4.headerListing == .signedHeaders && requestHeaders.isEmpty
            && !target.endpoint.host.utf8.contains(where: CanonicalHeaders.isSpace)
        var headers = requestHeaders
        var listed: [String] = []
        if !hostOnly && (v4.headerListing == .signedHeaders || !self.additionalHeaders.isEmpty) {
            headers = [HTTPHeader(name: "Host", value: target.host)] + requestHeaders
            listed = v4.listedHeaders(for: headers, additional: self.additionalHeaders)
        }

        var query = EncodedQuery(parameterCount: request.query.count + 7, byteCount: 256 + request.query.count * 64)
        for parameter in request.query where !names.contains(parameter.name) {
            query.append(name: parameter.name, value: parameter.value)
        }
        for field in v4.presignOrder {
            switch field {
            case .algorithm:
                query.append(name: names.algorithm, value: v4.algorithm)
            case .credential:
                query.append(name: names.credential) { value in
                    value.appendPercentEncoded(credentials.accessKeyID, style: .component)
                    value.append("%2F")
                    scope.append(encoded: true, to: &value)
                }
            case .date:
                query.append(name: names.date) { SigningTimestamp.appendISO8601Basic(scope.fields, to: &$0) }
            case .expires:
                query.append(name: names.expires) { $0.append(seconds) }
            case .headerList:
                if hostOnly {
                    query.append(name: names.headerList, value: "host")
                } else if v4.headerListing == .signedHeaders || !listed.isEmpty {
                    query.append(name: names.headerList, value: listed.joined(separator: ";"))
                }
            case .securityToken:
                if let token = credentials.securityToken { query.append(name: names.securityToken, value: token) }
            }
        }

        var url = SigningBuffer(capacity: target.urlPrefixCapacity + query.bytes.count + query.entries.count * 2 + 88)
        target.appendURLPrefix(to: &url)
        query.appendURLQuery(to: &url)
        query.sort()

        var canonical = SigningBuffer(
            capacity: 96 + target.pathCapacity + query.bytes.count + target.urlPrefixCapacity + headers.count * 48
        )
        v4.appendCanonicalRequestHead(method: request.method, query: query, to: &canonical) {
            v4.appendCanonicalURI(target: target, to: &$0)
        }
        if hostOnly {
            canonical.append("\nhost:")
            target.appendHost(to: &canonical)
            canonical.append("\n\nhost\n")
            canonical.append(PayloadHash.unsigned.value)
        } else {
            v4.appendCanonicalRequestTail(
                headers: headers,
                listedHeaders: listed,
                payloadHash: PayloadHash.unsigned.value,
                to: &canonical
            )
        }
        let signature = scope.sign(canonical, secret: credentials.secretAccessKey)
        url.append(UInt8(ascii: "&"))
        url.append(names.signature)  // unreserved characters: nothing to encode
        url.append(UInt8(ascii: "="))
        url.append(signature.signature)  // lowercase hex: nothing to encode
        return PresignedURL(
            url: url.string,
            method: request.method,
            expiration: timestamp.adding(seconds: seconds).date,
            signedHeaders: requestHeaders.isEmpty
                ? [] : requestHeaders.filter { v4.signs($0.name.asciiLowercased, listedHeaders: listed) },
            canonicalRequest: canonical.string,
            stringToSign: signature.stringToSign
        )
    }
}
