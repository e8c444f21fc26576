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
        var replaced: Set<String> = ["host", "date", "authorization", "x-oss-date", "x-oss-content-sha256"]
        if token != nil { replaced.insert("x-oss-security-token") }
        var headers = [HTTPHeader(name: "Host", value: target.host)]
        headers += request.headers.removing(replaced)
        headers.append(HTTPHeader(name: "x-oss-date", value: timestamp.iso8601Basic))
        headers.append(HTTPHeader(name: "Date", value: timestamp.httpDate))
        headers.append(HTTPHeader(name: "x-oss-content-sha256", value: payload.value))
        if let token { headers.append(HTTPHeader(name: "x-oss-security-token", value: token)) }
        let additional = OSSV4Signature.additionalHeaders(self.additionalHeaders, presentIn: headers)
        let canonicalRequest = OSSV4Signature.canonicalRequest(
            method: request.method,
            bucket: request.bucket,
            key: request.key,
            query: request.query,
            headers: headers,
            additionalHeaders: additional,
            payloadHash: payload.value
        )
        let product = self.service ?? OSSV4Signature.defaultProduct
        let dateStamp = timestamp.dateStamp
        let scope = OSSV4Signature.scope(date: dateStamp, region: region, product: product)
        let stringToSign = OSSV4Signature.stringToSign(
            canonicalRequest: canonicalRequest,
            timestamp: timestamp,
            scope: scope
        )
        let key = OSSV4Signature.signingKey(
            secret: credentials.secretAccessKey,
            date: dateStamp,
            region: region,
            product: product
        )
        let signature = OSSV4Signature.signature(signingKey: key, stringToSign: stringToSign)
        headers.append(
            HTTPHeader(
                name: "Authorization",
                value: OSSV4Signature.authorization(
                    accessKeyID: credentials.accessKeyID,
                    scope: scope,
                    additionalHeaders: additional,
                    signature: signature
                )
            )
        )
        return SignedRequest(
            method: request.method,
            url: target.url(scheme: request.endpoint.scheme, query: request.query),
            headers: headers,
            canonicalRequest: canonicalRequest,
            stringToSign: stringToSign
        )
    }

    /// OSS V4 presigning: `x-oss-signature-version`, `x-oss-date`, relative `x-oss-expires`,
    /// `x-oss-credential`, `x-oss-security-token`, `x-oss-additional-headers` and `x-oss-signature`.
    func presignOSSV4(
        _ request: SigningRequest,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        seconds: Int64,
        region: String
    ) -> PresignedURL {
        let product = self.service ?? OSSV4Signature.defaultProduct
        let dateStamp = timestamp.dateStamp
        let scope = OSSV4Signature.scope(date: dateStamp, region: region, product: product)
        let requestHeaders = request.headers.isEmpty ? [] : request.headers.removing(["host", "authorization"])
        let headers = [HTTPHeader(name: "Host", value: target.host)] + requestHeaders
        let additional = OSSV4Signature.additionalHeaders(self.additionalHeaders, presentIn: headers)

        var query =
            request.query.isEmpty ? [] : request.query.filter { !Self.ossV4QueryParameters.contains($0.name) }
        query.reserveCapacity(query.count + 7)
        query.append(QueryParameter(name: "x-oss-signature-version", value: OSSV4Signature.algorithm))
        query.append(QueryParameter(name: "x-oss-date", value: timestamp.iso8601Basic))
        query.append(QueryParameter(name: "x-oss-expires", value: String(seconds)))
        query.append(QueryParameter(name: "x-oss-credential", value: "\(credentials.accessKeyID)/\(scope)"))
        if let token = credentials.securityToken {
            query.append(QueryParameter(name: "x-oss-security-token", value: token))
        }
        if !additional.isEmpty {
            query.append(QueryParameter(name: "x-oss-additional-headers", value: additional.joined(separator: ";")))
        }
        let canonicalRequest = OSSV4Signature.canonicalRequest(
            method: request.method,
            bucket: request.bucket,
            key: request.key,
            query: query,
            headers: headers,
            additionalHeaders: additional,
            payloadHash: PayloadHash.unsigned.value
        )
        let stringToSign = OSSV4Signature.stringToSign(
            canonicalRequest: canonicalRequest,
            timestamp: timestamp,
            scope: scope
        )
        let key = OSSV4Signature.signingKey(
            secret: credentials.secretAccessKey,
            date: dateStamp,
            region: region,
            product: product
        )
        query.append(
            QueryParameter(
                name: "x-oss-signature",
                value: OSSV4Signature.signature(signingKey: key, stringToSign: stringToSign)
            )
        )
        return PresignedURL(
            url: target.url(scheme: request.endpoint.scheme, query: query),
            method: request.method,
            expiration: timestamp.adding(seconds: seconds).date,
            signedHeaders: requestHeaders.filter {
                let name = $0.name.asciiLowercased
                return OSSV4Signature.isDefaultSignedHeader(name) || additional.contains(name)
            },
            canonicalRequest: canonicalRequest,
            stringToSign: stringToSign
        )
    }

    /// The query parameters OSS V4 presigning writes itself (any given are replaced).
    static let ossV4QueryParameters: Set<String> = [
        "x-oss-signature-version", "x-oss-date", "x-oss-expires", "x-oss-credential", "x-oss-security-token",
        "x-oss-additional-headers", "x-oss-signature",
    ]
}
