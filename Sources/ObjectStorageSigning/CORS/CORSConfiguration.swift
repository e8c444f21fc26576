//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One rule of a bucket's CORS configuration: which origins may send which methods and headers, and what the
/// browser may read of the answer.
///
/// An origin or allowed header may hold one `*`, which matches any run of characters (`https://*.example.com`);
/// header names match without regard to case. Methods are `GET`, `PUT`, `POST`, `DELETE` and `HEAD`.
public struct CORSRule: Sendable, Hashable {
    /// The rule's name (S3 and OBS; at most 255 characters).
    public var id: String?
    /// The origins the rule admits (`https://app.example.com`, `*`).
    public var allowedOrigins: [String]
    /// The methods the rule admits.
    public var allowedMethods: [String]
    /// The request headers a preflight may ask for (`*` for any).
    public var allowedHeaders: [String]
    /// The response headers a browser lets the page read (`ETag`, `x-amz-version-id`); no wildcard.
    public var exposeHeaders: [String]
    /// How long a browser may cache the preflight's answer, in seconds.
    public var maxAgeSeconds: Int?

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - id: The rule's name.
    ///   - allowedOrigins: The origins it admits.
    ///   - allowedMethods: The methods it admits.
    ///   - allowedHeaders: The request headers a preflight may ask for.
    ///   - exposeHeaders: The response headers a page may read.
    ///   - maxAgeSeconds: How long a preflight's answer may be cached.
    public init(
        id: String? = nil,
        allowedOrigins: [String],
        allowedMethods: [String],
        allowedHeaders: [String] = [],
        exposeHeaders: [String] = [],
        maxAgeSeconds: Int? = nil
    ) {
        self.id = id
        self.allowedOrigins = allowedOrigins
        self.allowedMethods = allowedMethods
        self.allowedHeaders = allowedHeaders
        self.exposeHeaders = exposeHeaders
        self.maxAgeSeconds = maxAgeSeconds
    }
}

/// A bucket's CORS configuration: its rules, tried in order (the first that admits a request answers it).
public struct CORSConfiguration: Sendable, Hashable {
    /// The rules, in order.
    public var rules: [CORSRule]
    /// OSS only: whether every response carries `Vary: Origin`, so that caches keep one answer per origin.
    public var responseVary: Bool?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - rules: The rules, in order.
    ///   - responseVary: OSS only: `Vary: Origin` on every response.
    public init(rules: [CORSRule], responseVary: Bool? = nil) {
        self.rules = rules
        self.responseVary = responseVary
    }
}
