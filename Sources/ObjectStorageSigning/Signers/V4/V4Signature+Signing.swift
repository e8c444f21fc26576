//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension V4Signature {
    /// The credential scope, `DATE/REGION/SERVICE/TERMINATOR`.
    ///
    /// - Parameters:
    ///   - date: The `YYYYMMDD` date stamp.
    ///   - region: The region, e.g. `us-east-1` or `cn-hangzhou`.
    ///   - service: The service (product), e.g. `s3` or `oss`.
    /// - Returns: The credential scope.
    package func scope(date: String, region: String, service: String) -> String {
        "\(date)/\(region)/\(service)/\(self.scopeTerminator)"
    }

    /// The string to sign: `ALGORITHM\nTIMESTAMP\nSCOPE\nhex(SHA256(canonicalRequest))`.
    ///
    /// - Parameters:
    ///   - canonicalRequest: The canonical request.
    ///   - timestamp: The signing time (the date header or parameter).
    ///   - scope: The credential scope.
    /// - Returns: The string to sign.
    package func stringToSign(canonicalRequest: String, timestamp: SigningTimestamp, scope: String) -> String {
        var buffer = SigningBuffer(capacity: 160)
        var canonicalRequest = canonicalRequest
        canonicalRequest.withUTF8 { canonicalRequest in
            self.appendStringToSign(canonicalRequest: canonicalRequest, fields: timestamp.fields, to: &buffer) {
                $0.append(scope)
            }
        }
        return buffer.string
    }

    /// Writes the string to sign; `appendScope` writes the scope.
    func appendStringToSign(
        canonicalRequest: UnsafeBufferPointer<UInt8>,
        fields: SigningTimestamp.Fields,
        to buffer: inout SigningBuffer,
        appendScope: (inout SigningBuffer) -> Void
    ) {
        buffer.append(self.algorithm)
        buffer.append(UInt8(ascii: "\n"))
        SigningTimestamp.appendISO8601Basic(fields, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        appendScope(&buffer)
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(ByteEncoding.hex(Hashing.SHA256.hash(bufferPointer: UnsafeRawBufferPointer(canonicalRequest))))
    }

    /// The derived signing key: `HMAC(HMAC(HMAC(HMAC(secretPrefix + secret, date), region), service),
    /// scopeTerminator)`, cached per secret, date, region, service and variant.
    ///
    /// - Parameters:
    ///   - secret: The secret access key.
    ///   - date: The `YYYYMMDD` date stamp.
    ///   - region: The region.
    ///   - service: The service (product).
    /// - Returns: The 32-byte signing key.
    package func signingKey(secret: String, date: String, region: String, service: String) -> [UInt8] {
        self.preparedKey(secret: secret, date: date, region: region, service: service).bytes
    }

    /// The derived signing key with its keyed HMAC state (cached).
    func preparedKey(secret: String, date: String, region: String, service: String) -> SigningKeyCache.Key {
        SigningMAC.deriveV4Key(
            secretPrefix: self.secretPrefix,
            secret: secret,
            dateStamp: date,
            region: region,
            service: service,
            terminator: self.scopeTerminator
        )
    }

    /// The signature: lowercase hex HMAC-SHA256 of `stringToSign` under `signingKey`.
    ///
    /// - Parameters:
    ///   - signingKey: The derived key.
    ///   - stringToSign: The string to sign.
    /// - Returns: 64 hex digits.
    package func signature(signingKey: [UInt8], stringToSign: String) -> String {
        SigningMAC.hmacSHA256Hex(key: signingKey, message: stringToSign)
    }

    /// The `Authorization` header value: `ALGORITHM Credential=AK/SCOPE, SignedHeaders=a;b, Signature=HEX`
    /// (SigV4) or `ALGORITHM Credential=AK/SCOPE,AdditionalHeaders=a;b,Signature=HEX` (OSS V4, without
    /// `AdditionalHeaders` when there are none).
    ///
    /// Decision (OSS V4): the alibabacloud-oss-v2 and OSS documentation layout. oss2 writes `, ` separators
    /// with AdditionalHeaders last; the server accepts both and the signature is the same.
    ///
    /// - Parameters:
    ///   - accessKeyID: The access key id.
    ///   - scope: The credential scope.
    ///   - listedHeaders: The `SignedHeaders` or `AdditionalHeaders` names.
    ///   - signature: The hex signature.
    /// - Returns: The Authorization header value.
    package func authorization(
        accessKeyID: String,
        scope: String,
        listedHeaders: [String],
        signature: String
    ) -> String {
        var buffer = SigningBuffer(capacity: 160 + accessKeyID.utf8.count + scope.utf8.count)
        self.appendAuthorization(
            accessKeyID: accessKeyID,
            listedHeaders: listedHeaders,
            signature: signature,
            to: &buffer
        ) {
            $0.append(scope)
        }
        return buffer.string
    }

    /// Writes the `Authorization` header value; `appendScope` writes the scope.
    func appendAuthorization(
        accessKeyID: String,
        listedHeaders: [String],
        signature: String,
        to buffer: inout SigningBuffer,
        appendScope: (inout SigningBuffer) -> Void
    ) {
        buffer.append(self.algorithm)
        buffer.append(" Credential=")
        buffer.append(accessKeyID)
        buffer.append(UInt8(ascii: "/"))
        appendScope(&buffer)
        buffer.append(self.authorizationSeparator)
        if self.headerListing == .signedHeaders || !listedHeaders.isEmpty {
            buffer.append(self.headerListing == .signedHeaders ? "SignedHeaders=" : "AdditionalHeaders=")
            Self.appendHeaderList(listedHeaders, to: &buffer)
            buffer.append(self.authorizationSeparator)
        }
        buffer.append("Signature=")
        buffer.append(signature)
    }
}

/// The credential scope of one request being signed: the variant, the signing time, the region and the service.
struct V4Scope {
    let v4: V4Signature
    let fields: SigningTimestamp.Fields
    let dateStamp: String
    let region: String
    let service: String

    init(_ v4: V4Signature, timestamp: SigningTimestamp, region: String, service: String) {
        self.v4 = v4
        self.fields = timestamp.fields
        self.dateStamp = timestamp.dateStamp
        self.region = region
        self.service = service
    }

    /// The string to sign for `canonical` and its signature under the (cached) derived key.
    func sign(_ canonical: borrowing SigningBuffer, secret: String) -> (stringToSign: String, signature: String) {
        var stringToSign = SigningBuffer(capacity: 160 + self.region.utf8.count + self.service.utf8.count)
        canonical.withUnsafeBytes { canonical in
            self.v4.appendStringToSign(canonicalRequest: canonical, fields: self.fields, to: &stringToSign) {
                self.append(encoded: false, to: &$0)
            }
        }
        let key = self.v4.preparedKey(
            secret: secret,
            date: self.dateStamp,
            region: self.region,
            service: self.service
        )
        let signature = stringToSign.withUnsafeBytes { key.mac.hex(for: $0) }
        return (stringToSign.string, signature)
    }

    /// Writes `DATE/REGION/SERVICE/TERMINATOR`, raw or (`encoded`) as a query component (each `/` as `%2F`).
    func append(encoded: Bool, to buffer: inout SigningBuffer) {
        SigningTimestamp.appendDateStamp(self.fields, to: &buffer)
        appendScopePart(self.region, encoded: encoded, to: &buffer)
        appendScopePart(self.service, encoded: encoded, to: &buffer)
        appendScopePart(self.v4.scopeTerminator, encoded: encoded, to: &buffer)
    }
}

@inline(__always)
private func appendScopePart(_ part: String, encoded: Bool, to buffer: inout SigningBuffer) {
    if encoded {
        buffer.append("%2F")
        buffer.appendPercentEncoded(part, style: .component)
    } else {
        buffer.append(UInt8(ascii: "/"))
        buffer.append(part)
    }
}
