//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension RequestSigner {
    /// The headers an OSS V1, OBS or AWS V2 signed request carries before `Authorization`: `Host`, the
    /// request's own (any `Host`, `Date` or `Authorization`, and the token header when there is a token,
    /// replaced), `Date`, and the security token.
    ///
    /// - Parameter tokenHeader: The scheme's security token header, lowercase.
    func hmacSHA1Headers(
        _ request: SigningRequest,
        target: RequestTarget,
        timestamp: SigningTimestamp,
        tokenHeader: String,
        token: String?
    ) -> [HTTPHeader] {
        var headers = [HTTPHeader(name: "Host", value: target.host)]
        headers.reserveCapacity(request.headers.count + 4)
        headers += request.headers.removing { name in
            name.isNamed("host") || name.isNamed("date") || name.isNamed("authorization")
                || (token != nil && name.isNamed(tokenHeader))
        }
        headers.append(HTTPHeader(name: "Date", value: timestamp.httpDate))
        if let token { headers.append(HTTPHeader(name: tokenHeader, value: token)) }
        return headers
    }

    /// The last step of OSS V1, OBS and AWS V2 header signing: signs `stringToSign` (base64 HMAC-SHA1) and
    /// adds `Authorization: PREFIX AK:SIGNATURE` to `headers`.
    func signedHMACSHA1(
        _ request: SigningRequest,
        target: RequestTarget,
        headers: [HTTPHeader],
        stringToSign: borrowing SigningBuffer,
        authorizationPrefix: String,
        credentials: Credentials
    ) -> SignedRequest {
        let signature = HMACSHA1Signature.sign(stringToSign, secret: credentials.secretAccessKey)
        var authorization = SigningBuffer(capacity: 8 + credentials.accessKeyID.utf8.count + signature.utf8.count)
        authorization.append(authorizationPrefix)
        authorization.append(UInt8(ascii: " "))
        authorization.append(credentials.accessKeyID)
        authorization.append(UInt8(ascii: ":"))
        authorization.append(signature)
        let stringToSignText = stringToSign.string
        return SignedRequest(
            method: request.method,
            url: target.url(query: request.query),
            headers: headers + [HTTPHeader(name: "Authorization", value: authorization.string)],
            canonicalRequest: stringToSignText,
            stringToSign: stringToSignText
        )
    }

    /// The last step of OSS V1, OBS and AWS V2 presigning: signs `stringToSign` and appends `&Signature=` and
    /// the encoded signature to `url`, which holds everything else.
    ///
    /// - Parameters:
    ///   - headers: The request's headers (without `Host`); those the signature covers are the ones the caller
    ///     must send.
    ///   - headerPrefix: The scheme's header prefix, e.g. `x-oss-`.
    func presignedHMACSHA1(
        _ request: SigningRequest,
        url: consuming SigningBuffer,
        stringToSign: borrowing SigningBuffer,
        credentials: Credentials,
        expiration: SigningTimestamp,
        headers: [HTTPHeader],
        headerPrefix: String
    ) -> PresignedURL {
        url.append("&Signature=")
        url.appendPercentEncoded(
            HMACSHA1Signature.sign(stringToSign, secret: credentials.secretAccessKey),
            style: .component
        )
        let stringToSign = stringToSign.string
        return PresignedURL(
            url: url.string,
            method: request.method,
            expiration: expiration.date,
            signedHeaders: headers.isEmpty
                ? [] : headers.filter { HMACSHA1Signature.signs($0.name.asciiLowercased, prefix: headerPrefix) },
            canonicalRequest: stringToSign,
            stringToSign: stringToSign
        )
    }
}
