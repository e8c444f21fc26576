//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension RequestSigner {
    /// OBS / AWS V2 header signing: adds `Host`, `Date`, the token header and `Authorization`.
    func signOBS(
        _ request: SigningRequest,
        flavor: OBSSignature.Flavor,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp
    ) -> SignedRequest {
        let token = credentials.securityToken
        var replaced: Set<String> = ["host", "date", "authorization"]
        if token != nil { replaced.insert(flavor.securityTokenName) }
        var headers = [HTTPHeader(name: "Host", value: target.host)]
        headers += request.headers.removing(replaced)
        headers.append(HTTPHeader(name: "Date", value: timestamp.httpDate))
        if let token { headers.append(HTTPHeader(name: flavor.securityTokenName, value: token)) }
        let stringToSign = OBSSignature.stringToSign(
            flavor: flavor,
            method: request.method,
            headers: headers,
            bucket: request.bucket,
            key: request.key,
            query: request.query
        )
        let signature = OBSSignature.signature(secret: credentials.secretAccessKey, stringToSign: stringToSign)
        headers.append(
            HTTPHeader(
                name: "Authorization",
                value: OBSSignature.authorization(
                    flavor: flavor,
                    accessKeyID: credentials.accessKeyID,
                    signature: signature
                )
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

    /// OBS / AWS V2 presigning: the token (a signed sub-resource), absolute `Expires`,
    /// `AccessKeyId` / `AWSAccessKeyId` and `Signature` in the query.
    func presignOBS(
        _ request: SigningRequest,
        flavor: OBSSignature.Flavor,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        seconds: Int64
    ) -> PresignedURL {
        let expiration = timestamp.adding(seconds: seconds)
        let authParameters: Set<String> = [flavor.securityTokenName, "Expires", flavor.accessKeyQueryName, "Signature"]
        var query = request.query.filter { !authParameters.contains($0.name) }
        if let token = credentials.securityToken {
            query.append(QueryParameter(name: flavor.securityTokenName, value: token))
        }
        query.append(QueryParameter(name: "Expires", value: String(expiration.secondsSince1970)))
        query.append(QueryParameter(name: flavor.accessKeyQueryName, value: credentials.accessKeyID))
        let headers = request.headers.removing(["host", "date", "authorization"])
        let stringToSign = OBSSignature.stringToSign(
            flavor: flavor,
            method: request.method,
            headers: headers,
            bucket: request.bucket,
            key: request.key,
            query: query,
            expires: expiration.secondsSince1970
        )
        let signature = OBSSignature.signature(secret: credentials.secretAccessKey, stringToSign: stringToSign)
        query.append(QueryParameter(name: "Signature", value: signature))
        return PresignedURL(
            url: target.url(scheme: request.endpoint.scheme, query: query),
            method: request.method,
            expiration: expiration.date,
            signedHeaders: headers.filter {
                let name = $0.name.asciiLowercased
                return name == "content-type" || name == "content-md5" || name.hasPrefix(flavor.headerPrefix)
            },
            canonicalRequest: stringToSign,
            stringToSign: stringToSign
        )
    }
}
