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
        var replaced: Set<String> = ["host", "authorization", "x-amz-date", "x-amz-content-sha256"]
        if token != nil { replaced.insert("x-amz-security-token") }
        var headers = [HTTPHeader(name: "Host", value: target.host)]
        headers += request.headers.removing(replaced)
        headers.append(HTTPHeader(name: "X-Amz-Date", value: timestamp.iso8601Basic))
        headers.append(HTTPHeader(name: "X-Amz-Content-SHA256", value: payload.value))
        if let token { headers.append(HTTPHeader(name: "X-Amz-Security-Token", value: token)) }
        let signedHeaders = SigV4Signature.signedHeaderNames(for: headers)
        let canonicalRequest = SigV4Signature.canonicalRequest(
            method: request.method,
            encodedPath: target.path,
            query: request.query,
            headers: headers,
            signedHeaders: signedHeaders,
            payloadHash: payload.value
        )
        let service = self.service ?? SigV4Signature.defaultService
        let dateStamp = timestamp.dateStamp
        let scope = SigV4Signature.scope(date: dateStamp, region: region, service: service)
        let stringToSign = SigV4Signature.stringToSign(
            canonicalRequest: canonicalRequest,
            timestamp: timestamp,
            scope: scope
        )
        let key = SigV4Signature.signingKey(
            secret: credentials.secretAccessKey,
            date: dateStamp,
            region: region,
            service: service
        )
        let signature = SigV4Signature.signature(signingKey: key, stringToSign: stringToSign)
        headers.append(
            HTTPHeader(
                name: "Authorization",
                value: SigV4Signature.authorization(
                    accessKeyID: credentials.accessKeyID,
                    scope: scope,
                    signedHeaders: signedHeaders,
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

    /// SigV4 presigning: the `X-Amz-*` parameters in the query, `UNSIGNED-PAYLOAD`.
    func presignSigV4(
        _ request: SigningRequest,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        seconds: Int64,
        region: String
    ) -> PresignedURL {
        let service = self.service ?? SigV4Signature.defaultService
        let dateStamp = timestamp.dateStamp
        let scope = SigV4Signature.scope(date: dateStamp, region: region, service: service)
        let requestHeaders = request.headers.isEmpty ? [] : request.headers.removing(["host", "authorization"])
        let headers = [HTTPHeader(name: "Host", value: target.host)] + requestHeaders
        let signedHeaders = SigV4Signature.signedHeaderNames(for: headers)

        var query =
            request.query.isEmpty ? [] : request.query.filter { !Self.sigV4QueryParameters.contains($0.name) }
        query.reserveCapacity(query.count + 7)
        query.append(QueryParameter(name: "X-Amz-Algorithm", value: SigV4Signature.algorithm))
        query.append(QueryParameter(name: "X-Amz-Credential", value: "\(credentials.accessKeyID)/\(scope)"))
        query.append(QueryParameter(name: "X-Amz-Date", value: timestamp.iso8601Basic))
        query.append(QueryParameter(name: "X-Amz-Expires", value: String(seconds)))
        query.append(QueryParameter(name: "X-Amz-SignedHeaders", value: signedHeaders.joined(separator: ";")))
        if let token = credentials.securityToken {
            query.append(QueryParameter(name: "X-Amz-Security-Token", value: token))
        }
        let canonicalRequest = SigV4Signature.canonicalRequest(
            method: request.method,
            encodedPath: target.path,
            query: query,
            headers: headers,
            signedHeaders: signedHeaders,
            payloadHash: PayloadHash.unsigned.value
        )
        let stringToSign = SigV4Signature.stringToSign(
            canonicalRequest: canonicalRequest,
            timestamp: timestamp,
            scope: scope
        )
        let key = SigV4Signature.signingKey(
            secret: credentials.secretAccessKey,
            date: dateStamp,
            region: region,
            service: service
        )
        query.append(
            QueryParameter(
                name: "X-Amz-Signature",
                value: SigV4Signature.signature(signingKey: key, stringToSign: stringToSign)
            )
        )
        return PresignedURL(
            url: target.url(scheme: request.endpoint.scheme, query: query),
            method: request.method,
            expiration: timestamp.adding(seconds: seconds).date,
            signedHeaders: requestHeaders.filter { signedHeaders.contains($0.name.asciiLowercased) },
            canonicalRequest: canonicalRequest,
            stringToSign: stringToSign
        )
    }

    /// The query parameters SigV4 presigning writes itself (any given are replaced).
    static let sigV4QueryParameters: Set<String> = [
        "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders",
        "X-Amz-Security-Token", "X-Amz-Signature",
    ]
}
