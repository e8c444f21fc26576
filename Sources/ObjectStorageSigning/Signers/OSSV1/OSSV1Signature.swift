//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The building blocks of Alibaba Cloud OSS signature V1 (HMAC-SHA1), usable both to sign and to
/// verify a request from its parsed wire parts.
///
/// ```
/// StringToSign = VERB "\n" Content-MD5 "\n" Content-Type "\n" Date "\n"
///                CanonicalizedOSSHeaders CanonicalizedResource
/// Authorization = "OSS " AccessKeyId ":" base64(HMAC-SHA1(secret, StringToSign))
/// ```
///
/// - `Date` is the `x-oss-date` header if present, else the `Date` header (header signing), or
///   the absolute `Expires` Unix time (presigned URLs).
/// - CanonicalizedOSSHeaders: every `x-oss-*` header, lowercase name, `name:value\n`, sorted.
/// - CanonicalizedResource: `/BUCKET/KEY` with the key RAW (UTF-8, spaces, `?`, `#`, `%` all
///   unescaped), then the whitelisted sub-resources (``subresources``) sorted by name, RAW values,
///   `?name=value&name` (an empty or absent value is the bare name).
package enum OSSV1Signature {
    /// Query parameters signed as sub-resources (names are case-sensitive).
    ///
    /// Decision: this is oss2's list, which includes `x-oss-process`. alibabacloud-oss-v2 1.4.1
    /// leaves `x-oss-process` out, so the two official SDKs sign the same image-processing URL
    /// differently; we follow oss2, the older JS SDK and the OSS V1 documentation, which list it.
    package static let subresources: Set<String> = [
        "acl", "append", "asyncFetch", "bucketInfo", "callback", "callback-var", "cloudboxes", "cname", "comp",
        "continuation-token", "cors", "delete", "encryption", "endTime", "group", "inventory", "inventoryId",
        "lifecycle", "link", "live", "location", "logging", "metaQuery", "objectInfo", "objectMeta", "partNumber",
        "policy", "position", "qos", "qosInfo", "referer", "regionList", "replication", "replicationLocation",
        "replicationProgress", "requestPayment", "resourceGroup", "response-cache-control",
        "response-content-disposition", "response-content-encoding", "response-content-language",
        "response-content-type", "response-expires", "restore", "security-token", "sequential", "startTime", "stat",
        "status", "style", "styleName", "symlink", "tagging", "transferAcceleration", "uploadId", "uploads",
        "versionId", "versioning", "versions", "vod", "website", "worm", "wormExtend", "wormId",
        "x-oss-ac-forward-allow", "x-oss-ac-source-ip", "x-oss-ac-subnet-mask", "x-oss-ac-vpc-id",
        "x-oss-async-process", "x-oss-process", "x-oss-request-payer", "x-oss-traffic-limit",
    ]

    /// The CanonicalizedResource: `/BUCKET/KEY?subresources` (or `/` without a bucket).
    ///
    /// - Parameters:
    ///   - bucket: The bucket, if any.
    ///   - key: The object key, decoded (verbatim).
    ///   - query: The query parameters as received, decoded; non-sub-resources are ignored.
    /// - Returns: The canonicalized resource.
    package static func canonicalizedResource(bucket: String?, key: String?, query: [QueryParameter]) -> String {
        var buffer = SigningBuffer(capacity: 64)
        appendResource(bucket: bucket, key: key, query: query, to: &buffer)
        return buffer.string
    }

    static func appendResource(bucket: String?, key: String?, query: [QueryParameter], to buffer: inout SigningBuffer) {
        appendResourcePath(bucket: bucket, key: key, to: &buffer)
        appendSubresources(query, to: &buffer)
    }

    /// Writes `/BUCKET/KEY` (key raw), or `/`.
    static func appendResourcePath(bucket: String?, key: String?, to buffer: inout SigningBuffer) {
        buffer.append(UInt8(ascii: "/"))
        if let bucket, !bucket.isEmpty {
            buffer.append(bucket)
            buffer.append(UInt8(ascii: "/"))
            if let key { buffer.append(key) }
        }
    }

    /// Writes `?name=value&name...` for the sub-resources in `query`, sorted by name, RAW values.
    static func appendSubresources(_ query: [QueryParameter], to buffer: inout SigningBuffer) {
        HMACSHA1Signature.appendSubresources(
            query.filter { subresources.contains($0.name) },
            encodingNames: false,
            omittingEmptyValues: true,
            to: &buffer
        )
    }

    /// The string to sign.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - headers: The request headers as received (only Content-MD5, Content-Type, Date,
    ///     x-oss-date and `x-oss-*` matter).
    ///   - bucket: The bucket, if any.
    ///   - key: The object key, decoded.
    ///   - query: The query parameters, decoded.
    ///   - expires: For a presigned URL, the absolute `Expires` Unix time (replaces the date line).
    /// - Returns: The string to sign.
    package static func stringToSign(
        method: String,
        headers: [HTTPHeader],
        bucket: String?,
        key: String?,
        query: [QueryParameter],
        expires: Int64? = nil
    ) -> String {
        var buffer = SigningBuffer(capacity: 128 + (key?.utf8.count ?? 0))
        appendStringToSign(method: method, headers: headers, bucket: bucket, key: key, expires: expires, to: &buffer) {
            appendSubresources(query, to: &$0)
        }
        return buffer.string
    }

    /// Writes the string to sign; `appendSubresources` writes the resource's `?name=value&...` part.
    static func appendStringToSign(
        method: String,
        headers: [HTTPHeader],
        bucket: String?,
        key: String?,
        expires: Int64?,
        to buffer: inout SigningBuffer,
        appendSubresources: (inout SigningBuffer) -> Void
    ) {
        HMACSHA1Signature.appendHead(method: method, headers: headers, to: &buffer)
        if let expires {
            buffer.append(expires)
        } else {
            let xOSSDate = headers.first(named: "x-oss-date").map(CanonicalHeaders.trim) ?? ""
            buffer.append(xOSSDate.isEmpty ? CanonicalHeaders.trim(headers.first(named: "date") ?? "") : xOSSDate)
        }
        buffer.append(UInt8(ascii: "\n"))
        HMACSHA1Signature.appendPrefixedHeaders(headers, prefix: "x-oss-", to: &buffer)
        appendResourcePath(bucket: bucket, key: key, to: &buffer)
        appendSubresources(&buffer)
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

    /// `OSS AK:signature`.
    ///
    /// - Parameters:
    ///   - accessKeyID: The access key id.
    ///   - signature: The base64 signature.
    /// - Returns: The Authorization header value.
    package static func authorization(accessKeyID: String, signature: String) -> String {
        "OSS \(accessKeyID):\(signature)"
    }
}
