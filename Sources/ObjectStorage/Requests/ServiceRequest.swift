//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Any request of the vendor's REST API, for ``ObjectStorageClient/send(_:logger:)``: the operations the client
/// does not wrap (a bucket's CORS rules, an object's tags, an archive restore…) sent through the same request path
/// as every wrapped one.
///
/// The client adds `Host`, the date and the signature (and the session token), and sets `Content-Length` from
/// ``body``; those headers cannot be set here. Everything in ``query`` and ``headers`` is signed as the vendor's
/// scheme signs it.
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// let rules = try await client.send(ServiceRequest(method: "GET", bucket: "media", query: ["cors": ""]))
/// for rule in try await rules.xml().children("CORSRule") {
///     print(rule.children("AllowedOrigin").map(\.text))
/// }
/// ```
public struct ServiceRequest: Sendable {
    /// The HTTP method: `GET`, `HEAD`, `PUT`, `POST`, `DELETE` or `OPTIONS`.
    public var method: String
    /// The bucket, or `nil` for a service-level request (such as ListBuckets).
    public var bucket: String?
    /// The object key, or `nil` for a bucket-level request.
    public var key: String?
    /// Query parameters, sub-resources included; an empty value sends the name alone (`?cors`, `?tagging`).
    public var query: [String: String]
    /// Request headers, such as `Content-Type`, `Content-MD5` or the vendor's `x-oss-` / `x-obs-` / `x-amz-` ones.
    public var headers: [String: String]
    /// The body, if any: bytes, a file, or a stream (sent once: a stream cannot be replayed for a retry).
    public var body: UploadBody?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - bucket: The bucket, if any.
    ///   - key: The object key, if any.
    ///   - query: Query parameters; an empty value sends the name alone.
    ///   - headers: Request headers.
    ///   - body: The body (none by default).
    public init(
        method: String,
        bucket: String? = nil,
        key: String? = nil,
        query: [String: String] = [:],
        headers: [String: String] = [:],
        body: UploadBody? = nil
    ) {
        self.method = method
        self.bucket = bucket
        self.key = key
        self.query = query
        self.headers = headers
        self.body = body
    }
}
