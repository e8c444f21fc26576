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
        self.signHMACSHA1(
            request,
            target: target,
            credentials: credentials,
            timestamp: timestamp,
            tokenHeader: "x-oss-security-token",
            authorizationPrefix: "OSS",
            resourceCapacity: request.key?.utf8.count ?? 0
        ) { headers, stringToSign in
            OSSV1Signature.appendStringToSign(
                method: request.method,
                headers: headers,
                bucket: request.bucket,
                key: request.key,
                expires: nil,
                to: &stringToSign
            ) { OSSV1Signature.appendSubresources(request.query, to: &$0) }
        }
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
        let token = credentials.securityToken
        let headers = request.headers.removing {
            $0.isNamed("host") || $0.isNamed("date") || $0.isNamed("authorization")
        }

        var stringToSign = SigningBuffer(
            capacity: 96 + (request.key?.utf8.count ?? 0) + (request.bucket?.utf8.count ?? 0)
        )
        OSSV1Signature.appendStringToSign(
            method: request.method,
            headers: headers,
            bucket: request.bucket,
            key: request.key,
            expires: expiration.secondsSince1970,
            to: &stringToSign
        ) { buffer in
            if request.query.isEmpty {
                // Only the token is a sub-resource among the parameters presigning adds.
                guard let token else { return }
                buffer.append("?security-token")
                if !token.isEmpty {
                    buffer.append(UInt8(ascii: "="))
                    buffer.append(token)
                }
            } else {
                var signed = request.query.filter { !Self.isOSSV1QueryParameter($0.name) }
                if let token { signed.append(QueryParameter(name: "security-token", value: token)) }
                OSSV1Signature.appendSubresources(signed, to: &buffer)
            }
        }
        var url = SigningBuffer(capacity: target.urlPrefixCapacity + 96 + request.query.count * 48)
        let separator = target.appendURL(query: request.query, to: &url) { !Self.isOSSV1QueryParameter($0) }
        url.append(separator)
        url.append("OSSAccessKeyId=")
        url.appendPercentEncoded(credentials.accessKeyID, style: .component)
        url.append("&Expires=")
        url.append(expiration.secondsSince1970)
        if let token {
            url.append("&security-token=")
            url.appendPercentEncoded(token, style: .component)
        }
        return self.presignedHMACSHA1(
            request,
            url: url,
            stringToSign: stringToSign,
            credentials: credentials,
            expiration: expiration,
            headers: headers,
            headerPrefix: "x-oss-"
        )
    }

    /// Whether `name` is a query parameter OSS V1 presigning writes itself (any given are replaced).
    static func isOSSV1QueryParameter(_ name: String) -> Bool {
        switch name {
        case "OSSAccessKeyId", "Expires", "Signature", "security-token": return true
        default: return false
        }
    }
}
