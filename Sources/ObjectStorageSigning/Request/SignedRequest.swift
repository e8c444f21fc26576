//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A request signed in its headers: send `method` to `url` with exactly `headers`.
package struct SignedRequest: Sendable {
    /// The HTTP method.
    package var method: String
    /// The full URL, path and query percent-encoded.
    package var url: String
    /// Every header to send: the request's own plus `Host`, the date headers, the token header,
    /// the payload hash header (V4) and `Authorization`.
    package var headers: [HTTPHeader]
    /// The canonical request (V4 schemes) or the string to sign (V1/OBS/V2 schemes, which have no
    /// separate canonical request). For `--explain` and for comparing with a server's error.
    package var canonicalRequest: String
    /// The string to sign.
    package var stringToSign: String

    /// Creates a signed request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The URL.
    ///   - headers: The headers to send.
    ///   - canonicalRequest: The canonical request.
    ///   - stringToSign: The string to sign.
    package init(method: String, url: String, headers: [HTTPHeader], canonicalRequest: String, stringToSign: String) {
        self.method = method
        self.url = url
        self.headers = headers
        self.canonicalRequest = canonicalRequest
        self.stringToSign = stringToSign
    }
}

/// A presigned URL: anyone holding it may send `method` to `url` until `expiration`.
public struct PresignedURL: Sendable {
    /// The URL, with the signature in its query.
    public var url: String
    /// The HTTP method the URL is valid for.
    public var method: String
    /// When the URL stops working.
    public var expiration: Date
    /// Headers that were signed and so must be sent, with the same values, along with the URL
    /// (for example `Content-Type` of a presigned PUT), by name. `Host` is implied by the URL and not listed.
    public var signedHeaders: [String: String] {
        Dictionary(self.signedHeaderFields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
    /// ``signedHeaders`` in the order they were given.
    package var signedHeaderFields: [HTTPHeader]
    /// The canonical request (V4 schemes) or the string to sign (V1/OBS/V2).
    package var canonicalRequest: String
    /// The string to sign.
    package var stringToSign: String

    /// Creates a presigned URL value.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - method: The HTTP method.
    ///   - expiration: When the URL stops working.
    ///   - signedHeaders: Headers to send with the URL.
    ///   - canonicalRequest: The canonical request.
    ///   - stringToSign: The string to sign.
    package init(
        url: String,
        method: String,
        expiration: Date,
        signedHeaders: [HTTPHeader],
        canonicalRequest: String,
        stringToSign: String
    ) {
        self.url = url
        self.method = method
        self.expiration = expiration
        self.signedHeaderFields = signedHeaders
        self.canonicalRequest = canonicalRequest
        self.stringToSign = stringToSign
    }
}
