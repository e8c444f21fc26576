//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The form fields one signature scheme's POST policy uses.
///
/// | scheme | key id | signature | token |
/// |---|---|---|---|
/// | OSS V1 | `OSSAccessKeyId` | `Signature` = base64 HMAC-SHA1 | `x-oss-security-token` |
/// | OSS V4 | `x-oss-credential` (+ `x-oss-signature-version`, `x-oss-date`) | `x-oss-signature` = hex HMAC-SHA256 | `x-oss-security-token` |
/// | OBS | `AccessKeyId` | `signature` = base64 HMAC-SHA1 | `x-obs-security-token` |
/// | AWS V2 | `AWSAccessKeyId` | `signature` = base64 HMAC-SHA1 | `x-amz-security-token` |
/// | SigV4 | `x-amz-credential` (+ `x-amz-algorithm`, `x-amz-date`) | `x-amz-signature` = hex HMAC-SHA256 | `x-amz-security-token` |
///
/// Every scheme signs the `policy` field's value (base64 of the JSON) itself; the V4 schemes derive their
/// key as their header signing does (`aliyun_v4`/`AWS4` + secret → date → region → service → terminator).
package struct PostFormScheme: Sendable, Hashable {
    /// The signature version.
    package var version: SignatureVersion

    /// Creates the scheme of `version`.
    package init(_ version: SignatureVersion) { self.version = version }

    /// The field naming the access key (V1/OBS/V2), or `nil` for the V4 schemes, which name it in the credential.
    package var accessKeyField: String? {
        switch self.version.base {
        case .ossV1: "OSSAccessKeyId"
        case .obs: "AccessKeyId"
        case .awsV2: "AWSAccessKeyId"
        case .ossV4, .sigV4: nil
        }
    }

    /// The field carrying the signature.
    package var signatureField: String {
        switch self.version.base {
        case .ossV1: "Signature"
        case .obs, .awsV2: "signature"
        case .ossV4: "x-oss-signature"
        case .sigV4: "x-amz-signature"
        }
    }

    /// The field carrying the security token of temporary credentials.
    package var tokenField: String {
        switch self.version.base {
        case .ossV1, .ossV4: "x-oss-security-token"
        case .obs: "x-obs-security-token"
        case .awsV2, .sigV4: "x-amz-security-token"
        }
    }

    /// For the V4 schemes: the algorithm, credential and date fields and the algorithm's name.
    package var v4Fields: (algorithm: String, credential: String, date: String, algorithmName: String)? {
        switch self.version.base {
        case .ossV4:
            ("x-oss-signature-version", "x-oss-credential", "x-oss-date", V4Signature.ossV4.algorithm)
        case .sigV4:
            ("x-amz-algorithm", "x-amz-credential", "x-amz-date", V4Signature.sigV4.algorithm)
        default: nil
        }
    }

    /// The V4 credential scope's terminator (SigV4's for a scheme that is not V4).
    package var v4Terminator: String { (self.version.v4Signature ?? .sigV4).scopeTerminator }

    /// The default V4 service: `oss` or `s3` (SigV4's for a scheme that is not V4).
    package var v4DefaultService: String { (self.version.v4Signature ?? .sigV4).defaultService }

    /// The signature of a policy.
    ///
    /// - Parameters:
    ///   - policy: The `policy` field's value (base64 of the JSON), signed as it is.
    ///   - secret: The secret access key.
    ///   - dateStamp: The V4 scope's `YYYYMMDD` (ignored by the other schemes).
    ///   - region: The V4 scope's region.
    ///   - service: The V4 scope's service.
    /// - Returns: Base64 (V1/OBS/V2) or lowercase hex (V4).
    package func signature(
        policy: String,
        secret: String,
        dateStamp: String,
        region: String,
        service: String
    )
        -> String
    {
        guard let v4 = self.version.v4Signature else {
            return SigningMAC.hmacSHA1Base64(secret: secret, message: policy)
        }
        let key = v4.signingKey(secret: secret, date: dateStamp, region: region, service: service)
        return v4.signature(signingKey: key, stringToSign: policy)
    }
}

extension RequestSigner {
    /// The longest validity of a POST policy: 7 days, the V4 schemes' limit, for every scheme.
    package static let maximumPostExpiry: Int64 = 604_800

    /// Signs a POST policy form for uploads to `request`'s bucket.
    ///
    /// The policy holds, in order: the bucket; the key (exact, or `starts-with` the part before a trailing
    /// `${filename}`); an exact condition for each of `fields`; `conditions`; then the scheme's own fields
    /// (V4 algorithm, credential and date) and the security token, so that every field the form carries is
    /// covered. The form fields are `key`, `fields`, the scheme's fields, `policy` and the signature.
    ///
    /// - Parameters:
    ///   - request: The bucket, endpoint and addressing (method and key are not used).
    ///   - key: The object key, or a prefix followed by `${filename}` (`${filename}` alone: any key).
    ///   - fields: Fields to post with fixed values (content type, metadata, ACL...), each also a condition.
    ///   - conditions: Further conditions (a content-length range, a content-type prefix...).
    ///   - credentials: The credentials.
    ///   - expires: How long the policy stays valid: 1 s ... 7 days.
    ///   - date: The signing time.
    /// - Returns: The form's URL and fields.
    /// - Throws: ``SigningError/Code/invalidExpiry``, ``SigningError/Code/missingRegion``,
    ///   ``SigningError/Code/invalidRequest`` (no bucket, or an empty key).
    package func presignPost(
        _ request: SigningRequest,
        key: String,
        fields: [PresignedPost.Field],
        conditions: [PostPolicy.Condition],
        credentials: Credentials,
        expires: Duration,
        at date: Date
    ) throws(SigningError) -> PresignedPost {
        let seconds = expires.components.seconds
        let range: ClosedRange<Int64> = 1...Self.maximumPostExpiry
        guard range.contains(seconds) else {
            throw .invalidExpiry(seconds: seconds, range: range, scheme: self.version.description)
        }
        guard let bucket = request.bucket, !bucket.isEmpty else {
            throw .invalidRequest("a POST policy needs a bucket")
        }
        guard !key.isEmpty else {
            throw .invalidRequest("a POST policy needs a key or a key prefix")
        }
        var bucketRequest = request
        bucketRequest.key = nil
        bucketRequest.query = []
        bucketRequest.headers = []
        let target = try RequestTarget(validating: bucketRequest)
        let timestamp = SigningTimestamp(date)
        let scheme = PostFormScheme(self.version)

        var policyConditions: [PostPolicy.Condition] = [.equals(field: "bucket", value: bucket)]
        if key.hasSuffix(Self.filenameVariable) {
            policyConditions.append(
                .startsWith(field: "key", prefix: String(key.dropLast(Self.filenameVariable.count)))
            )
        } else {
            policyConditions.append(.equals(field: "key", value: key))
        }
        var formFields = [PresignedPost.Field(name: "key", value: key)]
        for field in fields {
            policyConditions.append(.equals(field: field.name, value: field.value))
            formFields.append(field)
        }
        policyConditions += conditions

        var region = ""
        var service = ""
        if let v4 = scheme.v4Fields, let v4Signature = self.version.v4Signature {
            region = try self.requireRegion()
            service = self.service ?? v4Signature.defaultService
            let credential =
                credentials.accessKeyID + "/"
                + v4Signature.scope(date: timestamp.dateStamp, region: region, service: service)
            for (name, value) in [
                (v4.algorithm, v4.algorithmName), (v4.credential, credential), (v4.date, timestamp.iso8601Basic),
            ] {
                policyConditions.append(.equals(field: name, value: value))
                formFields.append(PresignedPost.Field(name: name, value: value))
            }
        } else if let accessKeyField = scheme.accessKeyField {
            formFields.append(PresignedPost.Field(name: accessKeyField, value: credentials.accessKeyID))
        }
        if let token = credentials.securityToken {
            policyConditions.append(.equals(field: scheme.tokenField, value: token))
            formFields.append(PresignedPost.Field(name: scheme.tokenField, value: token))
        }
        let expiration = timestamp.adding(seconds: seconds)
        let policy = PostPolicy(expiration: expiration, conditions: policyConditions).base64
        formFields.append(PresignedPost.Field(name: "policy", value: policy))
        let signature = scheme.signature(
            policy: policy,
            secret: credentials.secretAccessKey,
            dateStamp: timestamp.dateStamp,
            region: region,
            service: service
        )
        formFields.append(PresignedPost.Field(name: scheme.signatureField, value: signature))
        // Path-style: `scheme://host/BUCKET`, as boto3 writes it; virtual-hosted: `scheme://BUCKET.host/`.
        var url = target.url(query: [])
        if bucketRequest.addressing == .path, url.hasSuffix("/") { url.removeLast() }
        return PresignedPost(url: url, fields: formFields, expiration: expiration.date)
    }

    /// The variable the services replace with the posted file's name.
    package static let filenameVariable = "${filename}"
}
