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
        let canonical = V4Signature.sigV4.canonicalRequest(
            method: method,
            path: path,
            bucket: nil,
            key: nil,
            query: query,
            headers: headers,
            listedHeaders: names,
            payloadHash: payloadHash ?? ""
        )
        let scope = V4Signature.sigV4.scope(date: timestamp.dateStamp, region: region, service: service)
        let signature = signature(canonical, timestamp: timestamp, scope: scope)
        let authorization = V4Signature.sigV4.authorization(
            accessKeyID: credentials.accessKeyID,
            scope: scope,
            listedHeaders: names,
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
        let scope = V4Signature.sigV4.scope(date: timestamp.dateStamp, region: region, service: service)
        let names = signed.map { $0.lowercased() }.sorted()
        let query = [
            QueryParameter(name: "X-Amz-Algorithm", value: "AWS4-HMAC-SHA256"),
            QueryParameter(name: "X-Amz-Credential", value: "\(credentials.accessKeyID)/\(scope)"),
            QueryParameter(name: "X-Amz-Date", value: timestamp.iso8601Basic),
            QueryParameter(name: "X-Amz-Expires", value: expires),
            QueryParameter(name: "X-Amz-SignedHeaders", value: names.joined(separator: ";")),
        ]
        let canonical = V4Signature.sigV4.canonicalRequest(
            method: method,
            path: path,
            bucket: nil,
            key: nil,
            query: query,
            headers: [HTTPHeader(name: "host", value: host)],
            listedHeaders: names,
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
        let oss = V4Signature.ossV4
        let scope = oss.scope(date: timestamp.dateStamp, region: region, service: oss.defaultService)
        var query = [
            QueryParameter(name: "x-oss-signature-version", value: oss.algorithm),
            QueryParameter(name: "x-oss-date", value: timestamp.iso8601Basic),
            QueryParameter(name: "x-oss-credential", value: "\(credentials.accessKeyID)/\(scope)"),
        ]
        if let expires { query.append(QueryParameter(name: "x-oss-expires", value: expires)) }
        let canonical = oss.canonicalRequest(
            method: method,
            path: "/" + bucket + "/" + key,
            bucket: bucket,
            key: key,
            query: query,
            headers: [],
            listedHeaders: [],
            payloadHash: "UNSIGNED-PAYLOAD"
        )
        let stringToSign = oss.stringToSign(canonicalRequest: canonical, timestamp: timestamp, scope: scope)
        let signingKey = oss.signingKey(
            secret: credentials.secretAccessKey,
            date: timestamp.dateStamp,
            region: region,
            service: oss.defaultService
        )
        let signature = oss.signature(signingKey: signingKey, stringToSign: stringToSign)
        let all = query + [QueryParameter(name: "x-oss-signature", value: signature)]
        let encoded = all.map { "\($0.name)=\(PercentEncoding.encode($0.value ?? "", style: .component))" }
        return "/\(bucket)/\(key)?" + encoded.joined(separator: "&")
    }

    private func signature(_ canonical: String, timestamp: SigningTimestamp, scope: String) -> String {
        let stringToSign = V4Signature.sigV4.stringToSign(
            canonicalRequest: canonical,
            timestamp: timestamp,
            scope: scope
        )
        let key = V4Signature.sigV4.signingKey(
            secret: credentials.secretAccessKey,
            date: timestamp.dateStamp,
            region: region,
            service: service
        )
        return V4Signature.sigV4.signature(signingKey: key, stringToSign: stringToSign)
    }
}
