//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageLocalServer
import ObjectStorageSigning

/// SigV4 requests signed by hand from the signing layer's building blocks, with choices the SDK's signer never
/// makes (which headers to list, any payload-hash text), so that a refusal is the rule under test and not a
/// signature mismatch.
struct HandSignedV4 {
    var port: Int
    var credentials = LocalObjectServer.developmentCredentials
    var region = "us-east-1"
    var service = "s3"

    var host: String { "127.0.0.1:\(port)" }

    /// Headers for a header-signed request of `path`: `extra` plus `host`, `x-amz-date` and (unless `nil`)
    /// `x-amz-content-sha256`, with `signed` listed in `SignedHeaders`. `Host` is left to the HTTP client.
    func headers(
        _ method: String,
        _ path: String,
        query: [QueryParameter] = [],
        extra: [HTTPHeader] = [],
        payloadHash: String?,
        signed: [String],
        at date: Date = Date()
    ) -> [(String, String)] {
        let timestamp = SigningTimestamp(date)
        var headers =
            extra + [
                HTTPHeader(name: "host", value: host), HTTPHeader(name: "x-amz-date", value: timestamp.iso8601Basic),
            ]
        if let payloadHash { headers.append(HTTPHeader(name: "x-amz-content-sha256", value: payloadHash)) }
        let names = signed.map { $0.lowercased() }.sorted()
        let canonical = SigV4Signature.canonicalRequest(
            method: method,
            path: path,
            query: query,
            headers: headers,
            signedHeaders: names,
            payloadHash: payloadHash ?? ""
        )
        let scope = SigV4Signature.scope(date: timestamp.dateStamp, region: region, service: service)
        let signature = signature(canonical, timestamp: timestamp, scope: scope)
        let authorization = SigV4Signature.authorization(
            accessKeyID: credentials.accessKeyID,
            scope: scope,
            signedHeaders: names,
            signature: signature
        )
        return headers.filter { $0.name != "host" }.map { ($0.name, $0.value) } + [("Authorization", authorization)]
    }

    /// A presigned path-and-query for `path` whose `X-Amz-SignedHeaders` is `signed` (which may be empty) and whose
    /// `X-Amz-Expires` is `expires`, any text (the SDK's signer accepts only 1...604800).
    func presigned(
        _ method: String,
        _ path: String,
        signed: [String],
        expires: String = "300",
        at date: Date = Date()
    ) -> String {
        let timestamp = SigningTimestamp(date)
        let scope = SigV4Signature.scope(date: timestamp.dateStamp, region: region, service: service)
        let names = signed.map { $0.lowercased() }.sorted()
        let query = [
            QueryParameter(name: "X-Amz-Algorithm", value: "AWS4-HMAC-SHA256"),
            QueryParameter(name: "X-Amz-Credential", value: "\(credentials.accessKeyID)/\(scope)"),
            QueryParameter(name: "X-Amz-Date", value: timestamp.iso8601Basic),
            QueryParameter(name: "X-Amz-Expires", value: expires),
            QueryParameter(name: "X-Amz-SignedHeaders", value: names.joined(separator: ";")),
        ]
        let canonical = SigV4Signature.canonicalRequest(
            method: method,
            path: path,
            query: query,
            headers: [HTTPHeader(name: "host", value: host)],
            signedHeaders: names,
            payloadHash: "UNSIGNED-PAYLOAD"
        )
        let signature = signature(canonical, timestamp: timestamp, scope: scope)
        let all = query + [QueryParameter(name: "X-Amz-Signature", value: signature)]
        let encoded = all.map {
            "\($0.name)=\(PercentEncoding.encode($0.value ?? "", style: .component))"
        }
        return path + "?" + encoded.joined(separator: "&")
    }

    /// An OSS V4 presigned path-and-query for `bucket`/`key` in region `cn-hangzhou`, signed over no header, with
    /// `x-oss-expires` set to `expires` (any text) or left out when it is `nil`.
    func ossPresigned(
        _ method: String,
        bucket: String,
        key: String,
        expires: String?,
        at date: Date = Date()
    ) -> String {
        let timestamp = SigningTimestamp(date)
        let region = "cn-hangzhou"
        let scope = OSSV4Signature.scope(date: timestamp.dateStamp, region: region)
        var query = [
            QueryParameter(name: "x-oss-signature-version", value: OSSV4Signature.algorithm),
            QueryParameter(name: "x-oss-date", value: timestamp.iso8601Basic),
            QueryParameter(name: "x-oss-credential", value: "\(credentials.accessKeyID)/\(scope)"),
        ]
        if let expires { query.append(QueryParameter(name: "x-oss-expires", value: expires)) }
        let canonical = OSSV4Signature.canonicalRequest(
            method: method,
            bucket: bucket,
            key: key,
            query: query,
            headers: [],
            additionalHeaders: [],
            payloadHash: "UNSIGNED-PAYLOAD"
        )
        let stringToSign = OSSV4Signature.stringToSign(canonicalRequest: canonical, timestamp: timestamp, scope: scope)
        let signingKey = OSSV4Signature.signingKey(
            secret: credentials.secretAccessKey,
            date: timestamp.dateStamp,
            region: region,
            product: OSSV4Signature.defaultProduct
        )
        let signature = OSSV4Signature.signature(signingKey: signingKey, stringToSign: stringToSign)
        let all = query + [QueryParameter(name: "x-oss-signature", value: signature)]
        let encoded = all.map { "\($0.name)=\(PercentEncoding.encode($0.value ?? "", style: .component))" }
        return "/\(bucket)/\(key)?" + encoded.joined(separator: "&")
    }

    private func signature(_ canonical: String, timestamp: SigningTimestamp, scope: String) -> String {
        let stringToSign = SigV4Signature.stringToSign(canonicalRequest: canonical, timestamp: timestamp, scope: scope)
        let key = SigV4Signature.signingKey(
            secret: credentials.secretAccessKey,
            date: timestamp.dateStamp,
            region: region,
            service: service
        )
        return SigV4Signature.signature(signingKey: key, stringToSign: stringToSign)
    }
}
