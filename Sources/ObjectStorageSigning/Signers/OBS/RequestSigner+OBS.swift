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
        self.signHMACSHA1(
            request,
            target: target,
            credentials: credentials,
            timestamp: timestamp,
            tokenHeader: flavor.securityTokenName,
            authorizationPrefix: flavor.authorizationPrefix,
            resourceCapacity: (request.key?.utf8.count ?? 0) * 3
        ) { headers, stringToSign in
            OBSSignature.appendStringToSign(
                flavor: flavor,
                method: request.method,
                headers: headers,
                expires: nil,
                to: &stringToSign
            )
            OBSSignature.appendResource(
                flavor: flavor,
                bucket: request.bucket,
                key: request.key,
                query: request.query,
                to: &stringToSign
            )
        }
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
        let token = credentials.securityToken
        let headers = request.headers.removing {
            $0.isNamed("host") || $0.isNamed("date") || $0.isNamed("authorization")
        }
        func isAuthParameter(_ name: String) -> Bool {
            name == flavor.securityTokenName || name == "Expires" || name == flavor.accessKeyQueryName
                || name == "Signature"
        }

        var stringToSign = SigningBuffer(
            capacity: 128 + (request.key?.utf8.count ?? 0) * 3 + (request.bucket?.utf8.count ?? 0)
        )
        OBSSignature.appendStringToSign(
            flavor: flavor,
            method: request.method,
            headers: headers,
            expires: expiration.secondsSince1970,
            to: &stringToSign
        )
        OBSSignature.appendResourcePath(bucket: request.bucket, key: request.key, to: &stringToSign)
        if request.query.isEmpty {
            // Only the token is a sub-resource among the parameters presigning adds.
            if let token {
                stringToSign.append(UInt8(ascii: "?"))
                stringToSign.appendPercentEncoded(flavor.securityTokenName, style: .path)
                stringToSign.append(UInt8(ascii: "="))
                stringToSign.append(token)
            }
        } else {
            var signed = request.query.filter { !isAuthParameter($0.name) }
            if let token { signed.append(QueryParameter(name: flavor.securityTokenName, value: token)) }
            OBSSignature.appendSubresources(flavor: flavor, signed, to: &stringToSign)
        }
        var url = SigningBuffer(capacity: target.urlPrefixCapacity + 96 + request.query.count * 48)
        var separator = target.appendURL(query: request.query, to: &url) { !isAuthParameter($0) }
        if let token {
            url.append(separator)
            separator = UInt8(ascii: "&")
            url.appendPercentEncoded(flavor.securityTokenName, style: .component)
            url.append(UInt8(ascii: "="))
            url.appendPercentEncoded(token, style: .component)
        }
        url.append(separator)
        url.append("Expires=")
        url.append(expiration.secondsSince1970)
        url.append(UInt8(ascii: "&"))
        url.appendPercentEncoded(flavor.accessKeyQueryName, style: .component)
        url.append(UInt8(ascii: "="))
        url.appendPercentEncoded(credentials.accessKeyID, style: .component)
        return self.presignedHMACSHA1(
            request,
            url: url,
            stringToSign: stringToSign,
            credentials: credentials,
            expiration: expiration,
            headers: headers,
            headerPrefix: flavor.headerPrefix
        )
    }
}
