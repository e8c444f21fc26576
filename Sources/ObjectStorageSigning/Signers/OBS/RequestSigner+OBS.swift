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
        var headers = [HTTPHeader(name: "Host", value: target.host)]
        headers.reserveCapacity(request.headers.count + 4)
        headers += request.headers.removing { name in
            name.isNamed("host") || name.isNamed("date") || name.isNamed("authorization")
                || (token != nil && name.isNamed(flavor.securityTokenName))
        }
        headers.append(HTTPHeader(name: "Date", value: timestamp.httpDate))
        if let token { headers.append(HTTPHeader(name: flavor.securityTokenName, value: token)) }
        var stringToSign = SigningBuffer(capacity: 160 + (request.key?.utf8.count ?? 0) * 3 + headers.count * 48)
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
        let signature = stringToSign.withUnsafeBytes {
            SigningMAC.sha1(secret: credentials.secretAccessKey).base64(for: $0)
        }
        var authorization = SigningBuffer(capacity: 8 + credentials.accessKeyID.utf8.count + signature.utf8.count)
        authorization.append(flavor.authorizationPrefix)
        authorization.append(UInt8(ascii: " "))
        authorization.append(credentials.accessKeyID)
        authorization.append(UInt8(ascii: ":"))
        authorization.append(signature)
        headers.append(HTTPHeader(name: "Authorization", value: authorization.string))
        let stringToSignText = stringToSign.string
        return SignedRequest(
            method: request.method,
            url: target.url(query: request.query),
            headers: headers,
            canonicalRequest: stringToSignText,
            stringToSign: stringToSignText
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
        let signature = stringToSign.withUnsafeBytes {
            SigningMAC.sha1(secret: credentials.secretAccessKey).base64(for: $0)
        }

        var url = SigningBuffer(capacity: target.urlPrefixCapacity + 96 + request.query.count * 48)
        target.appendURLPrefix(to: &url)
        var separator = UInt8(ascii: "?")
        for parameter in request.query where !isAuthParameter(parameter.name) {
            url.append(separator)
            separator = UInt8(ascii: "&")
            url.appendPercentEncoded(parameter.name, style: .component)
            if let value = parameter.value {
                url.append(UInt8(ascii: "="))
                url.appendPercentEncoded(value, style: .component)
            }
        }
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
        url.append("&Signature=")
        url.appendPercentEncoded(signature, style: .component)

        let stringToSignText = stringToSign.string
        return PresignedURL(
            url: url.string,
            method: request.method,
            expiration: expiration.date,
            signedHeaders: headers.isEmpty
                ? []
                : headers.filter {
                    let name = $0.name.asciiLowercased
                    return name == "content-type" || name == "content-md5" || name.hasPrefix(flavor.headerPrefix)
                },
            canonicalRequest: stringToSignText,
            stringToSign: stringToSignText
        )
    }
}
