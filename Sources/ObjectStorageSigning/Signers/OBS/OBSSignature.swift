//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The building blocks of Huawei Cloud OBS's own signature (`OBS AK:signature`) and of the AWS
/// signature V2 OBS also accepts (`AWS AK:signature`): the same HMAC-SHA1 algorithm with
/// `x-obs-*` or `x-amz-*` headers.
///
/// ```
/// StringToSign = VERB "\n" Content-MD5 "\n" Content-Type "\n" Date "\n"
///                CanonicalizedHeaders CanonicalizedResource
/// ```
///
/// - `Date` is empty when an `x-obs-date` (`x-amz-date`) header is present, else the `Date` header,
///   or the absolute `Expires` Unix time for a presigned URL.
/// - CanonicalizedHeaders: every `x-obs-*` (`x-amz-*`) header, lowercase, `name:value\n`, sorted.
/// - CanonicalizedResource: `/BUCKET/KEY` with the key percent-encoded (RFC 3986, `/` kept; the
///   OSS V1 scheme signs it raw instead), then the sub-resources sorted by name with RAW values:
///   ``subresources`` (compared lowercased) and any parameter named `x-obs-*` (`x-amz-*`).
///   A valueless parameter is the bare name; an empty value is `name=`.
package enum OBSSignature {
    /// The two header families.
    package struct Flavor: Hashable, Sendable {
        /// `x-obs-` or `x-amz-`.
        package let headerPrefix: String
        /// `OBS` or `AWS`.
        package let authorizationPrefix: String
        /// The presigned URL's access key parameter: `AccessKeyId` or `AWSAccessKeyId`.
        package let accessKeyQueryName: String

        /// Huawei Cloud OBS's own scheme: `x-obs-*`, `OBS AK:sig`.
        package static let obs = Flavor(
            headerPrefix: "x-obs-",
            authorizationPrefix: "OBS",
            accessKeyQueryName: "AccessKeyId"
        )
        /// AWS signature V2: `x-amz-*`, `AWS AK:sig`.
        package static let awsV2 = Flavor(
            headerPrefix: "x-amz-",
            authorizationPrefix: "AWS",
            accessKeyQueryName: "AWSAccessKeyId"
        )

        /// The security token header / query parameter: `x-obs-security-token` or `x-amz-security-token`.
        package let securityTokenName: String
        /// The alternative date header: `x-obs-date` or `x-amz-date`.
        package let dateHeaderName: String

        private init(headerPrefix: String, authorizationPrefix: String, accessKeyQueryName: String) {
            self.headerPrefix = headerPrefix
            self.authorizationPrefix = authorizationPrefix
            self.accessKeyQueryName = accessKeyQueryName
            self.securityTokenName = headerPrefix + "security-token"
            self.dateHeaderName = headerPrefix + "date"
        }
    }

    /// Query parameters signed as sub-resources, lowercase (esdk-obs-python's list).
    package static let subresources: Set<String> = [
        "acl", "append", "backtosource", "cors", "delete", "deletebucket", "directcoldaccess", "encryption",
        "fileinterface", "length", "lifecycle", "location", "logging", "metadata", "modify", "name",
        "notification", "obsalias", "obsbucketalias", "obsworkflowtriggerpolicy", "partnumber", "policy",
        "position", "quota", "rename", "replication", "requestpayment", "response-cache-control",
        "response-content-disposition", "response-content-encoding", "response-content-language",
        "response-content-type", "response-expires", "restore", "storageclass", "storageinfo", "storagepolicy",
        "tagging", "torrent", "truncate", "uploadid", "uploads", "versionid", "versioning", "versions", "website",
        "x-image-process", "x-image-save-bucket", "x-image-save-object", "x-oss-process",
        "x-workflow-execution-state", "x-workflow-execution-type", "x-workflow-graph-name", "x-workflow-limit",
        "x-workflow-next-marker", "x-workflow-prefix", "x-workflow-start", "x-workflow-template-name",
    ]

    /// The CanonicalizedResource.
    ///
    /// - Parameters:
    ///   - flavor: OBS or AWS V2.
    ///   - bucket: The bucket, if any.
    ///   - key: The object key, decoded.
    ///   - query: The query parameters, decoded; non-sub-resources are ignored.
    /// - Returns: The canonicalized resource.
    package static func canonicalizedResource(
        flavor: Flavor,
        bucket: String?,
        key: String?,
        query: [QueryParameter]
    ) -> String {
        var buffer = SigningBuffer(capacity: 64)
        appendResource(flavor: flavor, bucket: bucket, key: key, query: query, to: &buffer)
        return buffer.string
    }

    static func appendResource(
        flavor: Flavor,
        bucket: String?,
        key: String?,
        query: [QueryParameter],
        to buffer: inout SigningBuffer
    ) {
        appendResourcePath(bucket: bucket, key: key, to: &buffer)
        appendSubresources(flavor: flavor, query, to: &buffer)
    }

    /// Writes `/BUCKET/KEY` (key encoded, `/` kept), or `/`.
    static func appendResourcePath(bucket: String?, key: String?, to buffer: inout SigningBuffer) {
        buffer.append(UInt8(ascii: "/"))
        if let bucket, !bucket.isEmpty {
            buffer.append(bucket)
            buffer.append(UInt8(ascii: "/"))
            if let key { buffer.appendPercentEncoded(key, style: .path) }
        }
    }

    /// Writes `?name=value&name...` for the sub-resources in `query`, sorted by name, RAW values.
    static func appendSubresources(flavor: Flavor, _ query: [QueryParameter], to buffer: inout SigningBuffer) {
        // Decision: sorted by name only. esdk-obs-python lists valueless parameters before valued
        // ones; AWS V2 (which OBS implements) sorts by name. No real request mixes the two so
        // that the orders differ.
        HMACSHA1Signature.appendSubresources(
            query.filter {
                let name = $0.name.asciiLowercased
                return subresources.contains(name) || name.hasPrefix(flavor.headerPrefix)
            },
            encodingNames: true,
            omittingEmptyValues: false,
            to: &buffer
        )
    }

    /// The string to sign.
    ///
    /// - Parameters:
    ///   - flavor: OBS or AWS V2.
    ///   - method: The HTTP method.
    ///   - headers: The headers as received.
    ///   - bucket: The bucket, if any.
    ///   - key: The object key, decoded.
    ///   - query: The query parameters, decoded.
    ///   - expires: For a presigned URL, the absolute `Expires` Unix time (replaces the date line).
    /// - Returns: The string to sign.
    package static func stringToSign(
        flavor: Flavor,
        method: String,
        headers: [HTTPHeader],
        bucket: String?,
        key: String?,
        query: [QueryParameter],
        expires: Int64? = nil
    ) -> String {
        var buffer = SigningBuffer(capacity: 128 + (key?.utf8.count ?? 0) * 3)
        appendStringToSign(flavor: flavor, method: method, headers: headers, expires: expires, to: &buffer)
        appendResource(flavor: flavor, bucket: bucket, key: key, query: query, to: &buffer)
        return buffer.string
    }

    /// Writes the string to sign up to (not including) the canonicalized resource.
    static func appendStringToSign(
        flavor: Flavor,
        method: String,
        headers: [HTTPHeader],
        expires: Int64?,
        to buffer: inout SigningBuffer
    ) {
        HMACSHA1Signature.appendHead(method: method, headers: headers, to: &buffer)
        if let expires {
            buffer.append(expires)
        } else if headers.first(named: flavor.dateHeaderName) == nil, let date = headers.first(named: "date") {
            buffer.appendTrimmed(date)
        }
        buffer.append(UInt8(ascii: "\n"))
        HMACSHA1Signature.appendPrefixedHeaders(headers, prefix: flavor.headerPrefix, to: &buffer)
    }

    /// The signature: base64 of HMAC-SHA1 of `stringToSign` under `secret`.
    ///
    /// - Parameters:
    ///   - secret: The secret access key.
    ///   - stringToSign: The string to sign.
    /// - Returns: The base64 signature.
    package static func signature(secret: String, stringToSign: String) -> String {
        SigningMAC.hmacSHA1Base64(secret: secret, message: stringToSign)
    }

    /// `OBS AK:signature` or `AWS AK:signature`.
    ///
    /// - Parameters:
    ///   - flavor: OBS or AWS V2.
    ///   - accessKeyID: The access key id.
    ///   - signature: The base64 signature.
    /// - Returns: The Authorization header value.
    package static func authorization(flavor: Flavor, accessKeyID: String, signature: String) -> String {
        "\(flavor.authorizationPrefix) \(accessKeyID):\(signature)"
    }
}
