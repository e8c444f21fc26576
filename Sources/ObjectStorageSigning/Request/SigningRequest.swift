//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A request to sign: method, where it goes, and the headers and query parameters it carries.
///
/// The object key is used verbatim, whatever its bytes: it is never percent-decoded, trimmed,
/// Unicode-normalized, or cleaned of `//`, `./` and `../`. `"a//b"`, `"/x"`, `"dir/"` and `café`
/// in NFC and in NFD are all different keys.
///
/// ```swift
/// let request = SigningRequest(
///     method: "GET",
///     endpoint: .oss(region: "cn-hangzhou"),
///     bucket: "examplebucket",
///     key: "reports/2024 Q1.pdf",
///     query: [QueryParameter(name: "response-content-disposition", value: "attachment")]
/// )
/// ```
package struct SigningRequest: Sendable {
    /// The HTTP method, e.g. `GET`.
    package var method: String
    /// The service endpoint.
    package var endpoint: Endpoint
    /// Virtual-hosted or path-style addressing.
    package var addressing: AddressingStyle
    /// The bucket, or `nil` for service-level requests (list buckets).
    package var bucket: String?
    /// The object key, verbatim, or `nil` (or empty) for bucket-level requests.
    package var key: String?
    /// Query parameters, RAW (unencoded), in the order they should appear in the URL.
    package var query: [QueryParameter]
    /// Headers the request carries. `Host`, `Authorization` and the scheme's date, token and
    /// payload-hash headers are set by the signer and replace any given here (except `x-oss-date`
    /// under OSS V1 and `x-obs-date`/`x-amz-date` under OBS/AWS V2, which those schemes honour).
    package var headers: [HTTPHeader]

    /// Creates a request to sign.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - endpoint: The service endpoint.
    ///   - addressing: The addressing style; by default path-style for IP/`localhost` endpoints,
    ///     virtual-hosted otherwise.
    ///   - bucket: The bucket, if any.
    ///   - key: The object key, verbatim, if any.
    ///   - query: Unencoded query parameters.
    ///   - headers: Headers the request carries.
    package init(
        method: String,
        endpoint: Endpoint,
        addressing: AddressingStyle? = nil,
        bucket: String? = nil,
        key: String? = nil,
        query: [QueryParameter] = [],
        headers: [HTTPHeader] = []
    ) {
        self.method = method
        self.endpoint = endpoint
        self.addressing = addressing ?? .default(for: endpoint)
        self.bucket = bucket
        self.key = key
        self.query = query
        self.headers = headers
    }
}
