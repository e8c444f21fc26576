//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension RequestSigner {
    /// OSS V1 header signing: adds `Host`, `Date`, `x-oss-security-token` and `Authorization`.
    ///
    /// Decision: the STS token travels in the signed `x-oss-security-token` header, as oss2 and the
    /// OSS documentation do. alibabacloud-oss-v2 1.4.1 sends it in an unsigned header literally named
    /// `security-token`, which is a bug in that SDK (vector `ossv2-v1-header-get-token`).
    func signOSSV1(
        _ request: SigningRequest,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp
    ) -> SignedRequest {
        let token = credentials.securityToken
        var replaced: Set<String> = ["host", "date", "authorization"]
        if token != nil { replaced.insert("x-oss-security-token") }
        var headers = [HTTPHeader(name: "Host", value: target.host)]
        headers += request.headers.removing(replaced)
        headers.append(HTTPHeader(name: "Date", value: timestamp.httpDate))
        if let token { headers.append(HTTPHeader(name: "x-oss-security-token", value: token)) }
        let stringToSign = OSSV1Signature.stringToSign(
            method: request.method,
            headers: headers,
            bucket: request.bucket,
            key: request.key,
            query: request.query
        )
        let signature = OSSV1Signature.signature(secret: credentials.secretAccessKey, stringToSign: stringToSign)
        headers.append(
            HTTPHeader(
                name: "Authorization",
                value: OSSV1Signature.authorization(accessKeyID: credentials.accessKeyID, signature: signature)
            )
        )
        return SignedRequest(
            method: request.method,
            url: target.url(scheme: request.endpoint.scheme, query: request.query),
            headers: headers,
            canonicalRequest: stringToSign,
            stringToSign: stringToSign
        )
    }

    /// OSS V1 presigning: `OSSAccessKeyId`, absolute `Expires`, `security-token` (a signed
    /// sub-resource) and `Signature` in the query.
    func presignOSSV1(
        _ request: SigningRequest,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        seconds: Int64
    ) -> PresignedURL {
        let expiration = timestamp.adding(seconds: seconds)
        var query =
            request.query.isEmpty ? [] : request.query.filter { !Self.ossV1QueryParameters.contains($0.name) }
        query.append(QueryParameter(name: "OSSAccessKeyId", value: credentials.accessKeyID))
        query.append(QueryParameter(name: "Expires", value: String(expiration.secondsSince1970)))
        if let token = credentials.securityToken {
            query.append(QueryParameter(name: "security-token", value: token))
        }
        let headers = request.headers.isEmpty ? [] : request.headers.removing(["host", "date", "authorization"])
        let stringToSign = OSSV1Signature.stringToSign(
            method: request.method,
            headers: headers,
            bucket: request.bucket,
            key: request.key,
            query: query,
            expires: expiration.secondsSince1970
        )
        let signature = OSSV1Signature.signature(secret: credentials.secretAccessKey, stringToSign: stringToSign)
        query.append(QueryParameter(name: "Signature", value: signature))
        return PresignedURL(
            url: target.url(scheme: request.endpoint.scheme, query: query),
            method: request.method,
            expiration: expiration.date,
            signedHeaders: headers.filter {
                let name = $0.name.asciiLowercased
                return name == "content-type" || name == "content-md5" || name.hasPrefix("x-oss-")
            },
            canonicalRequest: stringToSign,
            stringToSign: stringToSign
        )
    }

    /// The query parameters OSS V1 presigning writes itself (any given are replaced).
    static let ossV1QueryParameters: Set<String> = ["OSSAccessKeyId", "Expires", "Signature", "security-token"]
}
