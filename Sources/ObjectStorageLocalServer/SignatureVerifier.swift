//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// Checks a request's signature against the configured credentials.
///
/// It canonicalizes what arrived on the wire — the method, the percent-decoded path (bucket and key
/// as addressed, path-style or virtual-hosted), every query parameter as received and every header
/// as received, `Host` included — with the signing layer's per-scheme building blocks, then compares
/// signatures in constant time.
struct SignatureVerifier: Sendable {
    let authentication: LocalObjectServer.Authentication
    let clockSkewLimit: Duration
    /// The region each vendor's V4 credential scopes must name.
    let regions: @Sendable (StorageVendor) -> String

    /// The regions a V4 credential scope may name: OSS V4's own, or for AWS V4, which S3 and OBS sign alike (with
    /// `x-amz-` headers, so the server cannot tell the two dialects apart), S3's or OBS's.
    func v4Regions(oss: Bool) -> [String] {
        oss ? [self.regions(.oss)] : [self.regions(.s3), self.regions(.obs)]
    }

    /// The parts of a request every scheme canonicalizes, and the scheme it was signed with.
    struct WireParts {
        var kind: SignatureKind
        var method: String
        var bucket: String?
        var key: String?
        var path: String
        var query: [QueryParameter]
        var headers: [HTTPHeader]

        init(_ request: IncomingRequest, kind: SignatureKind) {
            self.kind = kind
            method = request.method
            bucket = request.bucket
            key = request.key
            path = IncomingRequest.decode(request.rawPath)
            query = request.query.map { QueryParameter(name: $0.name, value: $0.value) }
            headers = request.headers.map { HTTPHeader(name: $0.name, value: $0.value) }
            if !request.host.isEmpty { headers.append(HTTPHeader(name: "host", value: request.host)) }
        }

        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value }

        func without(_ names: Set<String>) -> [QueryParameter] { query.filter { !names.contains($0.name) } }
    }

    func verify(_ request: IncomingRequest, kind: SignatureKind, dialect: StorageVendor, now: Int64) throws(ServerError)
    {
        guard case .credentials = authentication.backing else { return }
        try Self.checkSingleAuthentication(request, kind: kind)
        let wire = WireParts(request, kind: kind)
        switch kind {
        case .none:
            throw ServerError.accessDenied("Anonymous access is forbidden for this operation.")
        case .ossV1Header, .obsHeader, .awsV2Header, .ossV1Query, .obsQuery, .awsV2Query:
            try verifyHMACSHA1(wire, dialect: dialect, now: now)
        case .ossV4Header, .ossV4Query, .awsV4Header, .awsV4Query:
            try verifyV4(wire, dialect: dialect, now: now)
        }
    }

    // MARK: OSS V1, OBS and AWS V2 (HMAC-SHA1 over a string to sign)

    /// Verifies an HMAC-SHA1 signature: of the `Authorization` header (with the request's date within the clock
    /// skew limit) or of a presigned URL's query (before its `Expires`).
    private func verifyHMACSHA1(_ wire: WireParts, dialect: StorageVendor, now: Int64) throws(ServerError) {
        let kind = wire.kind
        let keyID: String
        let provided: String
        var query = wire.query
        var expires: Int64?
        if kind.isPresigned {
            let keyName =
                switch kind {
                case .ossV1Query: "OSSAccessKeyId"
                case .obsQuery: "AccessKeyId"
                default: "AWSAccessKeyId"
                }
            let value = { (name: String) in wire.query.first { $0.name == name }?.value }
            guard let key = value(keyName), let expiresText = value("Expires"), let signature = value("Signature")
            else {
                throw ServerError.accessDenied(
                    "Query-string authentication requires the Signature, Expires and \(keyName) parameters"
                )
            }
            (keyID, provided) = (key, signature)
            expires = try Self.absoluteExpiry(expiresText, dialect: dialect)
            query = wire.without([keyName, "Expires", "Signature"])
        } else {
            let authorization = wire.header("authorization") ?? ""
            guard let space = authorization.firstIndex(of: " ") else { throw malformedAuthorization() }
            let credential = authorization[authorization.index(after: space)...]
            guard let colon = credential.lastIndex(of: ":") else { throw malformedAuthorization() }
            keyID = String(credential[..<colon]).trimmingWhitespace()
            provided = String(credential[credential.index(after: colon)...]).trimmingWhitespace()
        }
        let secretKey = try secret(of: keyID, dialect: dialect)
        if let expires {
            guard now <= expires else {
                throw ServerError.accessDenied(
                    "Request has expired",
                    details: [("Expires", HTTPDate.iso8601(expires)), ("ServerTime", HTTPDate.iso8601(now))]
                )
            }
        } else {
            let dateHeader = dialect.headerPrefix + "date"
            guard let dateText = wire.header(dateHeader) ?? wire.header("date"),
                let requestTime = HTTPDate.parseHTTPDate(dateText.trimmingWhitespace())
            else {
                throw ServerError.accessDenied("The request must contain a valid Date or \(dateHeader) header.")
            }
            try checkSkew(requestTime: requestTime, now: now)
        }
        let stringToSign = hmacSHA1StringToSign(wire, kind: kind, query: query, expires: expires)
        let expected =
            switch kind {
            case .ossV1Header, .ossV1Query: OSSV1Signature.signature(secret: secretKey, stringToSign: stringToSign)
            default: OBSSignature.signature(secret: secretKey, stringToSign: stringToSign)
            }
        guard constantTimeEquals(expected, provided) else {
            throw mismatch(
                dialect: dialect,
                keyID: keyID,
                provided: provided,
                stringToSign: stringToSign,
                canonical: nil
            )
        }
    }

    private func hmacSHA1StringToSign(
        _ wire: WireParts,
        kind: SignatureKind,
        query: [QueryParameter],
        expires: Int64?
    )
        -> String
    {
        switch kind {
        case .ossV1Header, .ossV1Query:
            return OSSV1Signature.stringToSign(
                method: wire.method,
                headers: wire.headers,
                bucket: wire.bucket,
                key: wire.key,
                query: query,
                expires: expires
            )
        default:
            let flavor: OBSSignature.Flavor = kind == .obsHeader || kind == .obsQuery ? .obs : .awsV2
            return OBSSignature.stringToSign(
                flavor: flavor,
                method: wire.method,
                headers: wire.headers,
                bucket: wire.bucket,
                key: wire.key,
                query: query,
                expires: expires
            )
        }
    }

    // MARK: OSS V4 and SigV4

    private struct V4Credential {
        var keyID: String
        var date: String
        var region: String
        var service: String
        var terminator: String

        init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 5 else { return nil }
            (keyID, date, region, service, terminator) = (parts[0], parts[1], parts[2], parts[3], parts[4])
        }

        var scope: String { "\(date)/\(region)/\(service)/\(terminator)" }
    }

    private func verifyV4(_ wire: WireParts, dialect: StorageVendor, now: Int64) throws(ServerError) {
        let kind = wire.kind
        let oss = kind == .ossV4Header || kind == .ossV4Query
        let prefix = oss ? "x-oss-" : "x-amz-"
        var fields: [String: String] = [:]
        var query = wire.query
        var payloadHash: String
        var requestTime: Int64?
        var expiresText: String?
        let provided: String
        let credentialText: String
        if kind == .ossV4Header || kind == .awsV4Header {
            let authorization = wire.header("authorization") ?? ""
            guard let space = authorization.firstIndex(of: " ") else { throw malformedAuthorization() }
            for component in authorization[authorization.index(after: space)...].split(separator: ",") {
                let pair = component.split(separator: "=", maxSplits: 1).map { String($0).trimmingWhitespace() }
                if pair.count == 2 { fields[pair[0]] = pair[1] }
            }
            guard let credential = fields["Credential"], let signature = fields["Signature"] else {
                throw malformedAuthorization()
            }
            credentialText = credential
            provided = signature
            let dateText = wire.header(prefix + "date") ?? wire.header("date") ?? ""
            requestTime = HTTPDate.parseBasicISO8601(dateText.trimmingWhitespace())
            payloadHash =
                oss
                ? wire.header("x-oss-content-sha256")?.trimmingWhitespace() ?? "UNSIGNED-PAYLOAD"
                : try Self.sigV4PayloadHash(wire.header("x-amz-content-sha256"), headerSigned: true)
        } else {
            let value = { (name: String) in wire.query.first { $0.name.lowercased() == name.lowercased() }?.value }
            let names =
                oss
                ? ["x-oss-credential", "x-oss-signature", "x-oss-date", "x-oss-expires", "x-oss-additional-headers"]
                : ["X-Amz-Credential", "X-Amz-Signature", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders"]
            guard let credential = value(names[0]), let signature = value(names[1]), let date = value(names[2]) else {
                throw ServerError.accessDenied(
                    "Query-string authentication requires the credential, date and signature parameters"
                )
            }
            credentialText = credential
            provided = signature
            requestTime = HTTPDate.parseBasicISO8601(date)
            expiresText = value(names[3])
            fields["SignedHeaders"] = value(names[4])
            fields["AdditionalHeaders"] = value(names[4])
            query = wire.query.filter { $0.name != names[1] }
            payloadHash =
                oss
                ? "UNSIGNED-PAYLOAD"
                : try Self.sigV4PayloadHash(wire.header("x-amz-content-sha256"), headerSigned: false)
            if expiresText == nil {
                throw oss ? ServerError.missingOSSExpires : ServerError.accessDenied("X-Amz-Expires must be set")
            }
        }
        guard let credential = V4Credential(credentialText) else { throw malformedAuthorization() }
        let secretKey = try secret(of: credential.keyID, dialect: dialect)
        let expectedRegions = self.v4Regions(oss: oss)
        guard expectedRegions.contains(credential.region) else {
            throw ServerError.wrongRegion(credential.region, expected: expectedRegions[0], kind: kind)
        }
        try Self.checkScope(service: credential.service, terminator: credential.terminator, kind: kind)
        guard let requestTime else {
            throw ServerError.accessDenied("The request must contain a valid \(prefix)date.")
        }
        if let expiresText {
            guard requestTime <= now.addingSaturating(clockSkewLimit.components.seconds) else {
                throw ServerError.accessDenied(
                    "Request is not valid yet",
                    details: [("RequestTime", HTTPDate.iso8601(requestTime)), ("ServerTime", HTTPDate.iso8601(now))]
                )
            }
            let expiresIn = try Self.presignValidity(expiresText, oss: oss)
            let expiry = requestTime.addingSaturating(expiresIn)
            guard now <= expiry else {
                throw ServerError.accessDenied(
                    "Request has expired",
                    // S3 names the validity (X-Amz-Expires) and the instant (Expires); OSS only the instant.
                    details: (oss ? [] : [("X-Amz-Expires", String(expiresIn))]) + [
                        ("Expires", HTTPDate.iso8601(expiry)), ("ServerTime", HTTPDate.iso8601(now)),
                    ]
                )
            }
        } else {
            try checkSkew(requestTime: requestTime, now: now)
        }
        let timestamp = SigningTimestamp(secondsSince1970: requestTime)
        let v4: V4Signature = oss ? .ossV4 : .sigV4
        var listed = (fields[oss ? "AdditionalHeaders" : "SignedHeaders"] ?? "").split(separator: ";")
            .map { String($0).lowercased() }
        if oss {
            listed.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        } else {
            let unsigned = Self.unsignedHeaders(wire.headers, signedHeaders: listed)
            guard unsigned.isEmpty else { throw ServerError.headersNotSigned(unsigned) }
        }
        let canonical = v4.canonicalRequest(
            method: wire.method,
            path: wire.path,
            bucket: wire.bucket,
            key: wire.key,
            query: query,
            headers: wire.headers,
            listedHeaders: listed,
            payloadHash: payloadHash
        )
        let stringToSign = v4.stringToSign(canonicalRequest: canonical, timestamp: timestamp, scope: credential.scope)
        let signingKey = v4.signingKey(
            secret: secretKey,
            date: credential.date,
            region: credential.region,
            service: credential.service
        )
        let expected = v4.signature(signingKey: signingKey, stringToSign: stringToSign)
        guard constantTimeEquals(expected, provided.lowercased()) else {
            throw mismatch(
                dialect: dialect,
                keyID: credential.keyID,
                provided: provided,
                stringToSign: stringToSign,
                canonical: canonical
            )
        }
    }

    // MARK: Helpers

    /// The secret of the access key `keyID`; throws `InvalidAccessKeyId` for a key the server does not know.
    private func secret(of keyID: String, dialect: StorageVendor) throws(ServerError) -> String {
        guard case .credentials(let credentials) = authentication.backing,
            let match = credentials.first(where: { $0.accessKeyID == keyID })
        else {
            throw ServerError.invalidAccessKeyID(keyID, dialect: dialect)
        }
        return match.secretAccessKey
    }

    private func checkSkew(requestTime: Int64, now: Int64) throws(ServerError) {
        let limit = max(0, clockSkewLimit.components.seconds)
        guard requestTime.absoluteDifference(now) <= UInt64(limit) else {
            throw ServerError.requestTimeTooSkewed(
                requestTime: HTTPDate.imfFixdate(requestTime),
                serverTime: HTTPDate.imfFixdate(now),
                maximumMilliseconds: limit.multipliedSaturating(by: 1000)
            )
        }
    }

    private func malformedAuthorization() -> ServerError {
        ServerError(
            status: 400,
            code: "InvalidArgument",
            message: "Authorization header is invalid.",
            details: [("ArgumentName", "Authorization")]
        )
    }

    func mismatch(
        dialect: StorageVendor,
        keyID: String,
        provided: String,
        stringToSign: String,
        canonical: String?
    )
        -> ServerError
    {
        let bytes = stringToSign.utf8.map { ByteEncoding.hex([$0], uppercase: true) }.joined(separator: " ")
        var details: [(String, String)]
        switch dialect.kind {
        case .oss:
            details = [
                ("OSSAccessKeyId", keyID), ("SignatureProvided", provided), ("StringToSign", stringToSign),
                ("StringToSignBytes", bytes),
            ]
            if let canonical { details.append(("CanonicalRequest", canonical)) }
            return .signatureDoesNotMatch(details: details, ossEC: canonical == nil ? "0002-00000040" : nil)
        case .obs:
            details = [("AccessKeyId", keyID), ("SignatureProvided", provided), ("StringToSign", stringToSign)]
            return .signatureDoesNotMatch(details: details)
        case .s3:
            details = [
                ("AWSAccessKeyId", keyID), ("StringToSign", stringToSign), ("SignatureProvided", provided),
                ("StringToSignBytes", bytes),
            ]
            if let canonical {
                details.append(("CanonicalRequest", canonical))
                details.append(
                    ("CanonicalRequestBytes", canonical.utf8.map { ByteEncoding.hex([$0]) }.joined(separator: " "))
                )
            }
            return .signatureDoesNotMatch(details: details)
        }
    }

    /// Compares two signatures without an early exit on the first differing byte.
    func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? left[index] : 0
            let y = index < right.count ? right[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
