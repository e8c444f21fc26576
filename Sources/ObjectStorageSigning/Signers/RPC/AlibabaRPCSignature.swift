//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Alibaba Cloud's RPC-style signature (`SignatureMethod=HMAC-SHA1`, `SignatureVersion=1.0`), which its STS and the
/// other RPC APIs check; the object services sign differently (OSS V1/V4).
///
/// The parameters (every query parameter but `Signature`, with `AccessKeyId`, `SignatureNonce`, `Timestamp` and
/// `SecurityToken` among them) are sorted by name in byte order; names and values are percent-encoded with
/// ``PercentEncoding/Style/component`` (space `%20`, `*` `%2A`, `~` kept) and joined as `name=value&...`. The
/// string to sign is `METHOD&%2F&` followed by that query, percent-encoded again; the signature is the base64 of
/// its HMAC-SHA1 under the secret followed by `&`.
///
/// Alibaba's documented encoding, which its core SDK and its OpenAPI runtime follow. Its Python credentials
/// library encodes a space as `+` instead, so its signature of a value with a space (a JSON policy) differs;
/// Fixtures/sts/README.md records both.
package enum AlibabaRPCSignature {
    /// The string to sign of a request with `parameters`.
    ///
    /// - Parameters:
    ///   - method: The HTTP method, e.g. `GET`.
    ///   - parameters: The request's parameters without `Signature`, in any order.
    /// - Returns: `METHOD&%2F&` and the percent-encoded canonical query.
    package static func stringToSign(method: String, parameters: [(name: String, value: String)]) -> String {
        let sorted = parameters.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let query = sorted.map {
            PercentEncoding.encode($0.name, style: .component) + "="
                + PercentEncoding.encode($0.value, style: .component)
        }.joined(separator: "&")
        return method + "&" + PercentEncoding.encode("/", style: .component) + "&"
            + PercentEncoding.encode(query, style: .component)
    }

    /// The `Signature` parameter of a request with `parameters`.
    ///
    /// - Parameters:
    ///   - method: The HTTP method, e.g. `GET`.
    ///   - parameters: The request's parameters without `Signature`, in any order.
    ///   - secret: The access key secret.
    /// - Returns: The base64 HMAC-SHA1 of ``stringToSign(method:parameters:)`` under `secret&`.
    package static func signature(
        method: String,
        parameters: [(name: String, value: String)],
        secret: String
    ) -> String {
        SigningMAC.hmacSHA1Base64(
            secret: secret + "&",
            message: stringToSign(method: method, parameters: parameters)
        )
    }
}
