//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension RequestSigner {
    /// OSS V1, OBS and AWS V2 header signing: the headers the request carries (`Host`, the request's own with any
    /// `Host`, `Date` and `Authorization`, and the token header when there is a token, replaced, then `Date` and the
    /// security token), the string to sign the scheme writes over them, signed with base64 HMAC-SHA1, and
    /// `Authorization: PREFIX AK:SIGNATURE`.
    ///
    /// - Parameters:
    ///   - tokenHeader: The scheme's security token header, lowercase.
    ///   - authorizationPrefix: The scheme's `Authorization` prefix (`OSS`, `OBS`, `AWS`).
    ///   - resourceCapacity: Bytes to reserve for the resource, beyond the method and headers.
    ///   - appendStringToSign: Writes the scheme's string to sign for the headers.
    func signHMACSHA1(
        _ request: SigningRequest,
        target: RequestTarget,
        credentials: Credentials,
        timestamp: SigningTimestamp,
        tokenHeader: String,
        authorizationPrefix: String,
        resourceCapacity: Int,
        appendStringToSign: (_ headers: [HTTPHeader], _ stringToSign: inout SigningBuffer) -> Void
    ) -> SignedRequest {
        let token = credentials.securityToken
        var headers = [HTTPHeader(name: "Host", value: target.host)]
        headers.reserveCapacity(request.headers.count + 4)
        headers += request.headers.removing { name in
            name.isNamed("host") || name.isNamed("date") || name.isNamed("authorization")
                || (token != nil && name.isNamed(tokenHeader))
        }
        headers.append(HTTPHeader(name: "Date", value: timestamp.httpDate))
        if let token { headers.append(HTTPHeader(name: tokenHeader, value: token)) }
        var stringToSign = SigningBuffer(capacity: 160 + resourceCapacity + headers.count * 48)
        appendStringToSign(headers, &stringToSign)
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
