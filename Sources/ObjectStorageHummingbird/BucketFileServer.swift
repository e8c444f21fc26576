//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Hummingbird
public import ObjectStorage

/// Serves objects of one bucket to the clients of a Hummingbird app, with HTTP's semantics for files.
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// import Hummingbird
/// import ObjectStorageHummingbird
///
/// let files = BucketFileServer(client: client, bucket: "media", keyPrefix: "public/")
/// let router = Router()
/// for method in [HTTPRequest.Method.get, .head] {
///     router.on("files/**", method: method) { request, _ in
///         try await files.response(to: request, pathPrefix: "/files/")
///     }
/// }
/// ```
///
/// The contract, for `GET` and `HEAD` (route both to it, or make the router with `.autoGenerateHeadEndpoints`):
/// - One request to the bucket per client request, in the normal path: a `GET` forwards the client's single
///   `Range` (`bytes=a-b`, `bytes=a-`, `bytes=-n`), `If-None-Match` and `If-Modified-Since`; a `HEAD` is a bucket
///   `HEAD`, and ignores `Range` as RFC 9110 §14.2 asks. A second, pinned request (`If-Match` on the first answer's
///   ETag) is made only when an `If-Range` validator does not hold for a ranged answer (the whole object is then
///   served, 200), when a service ignored a range it could satisfy, or to learn the size for a 416 or the ETag for
///   a 304 the bucket's answer did not carry.
/// - Several ranges are ignored as S3 ignores them, and so is a malformed `Range`: the whole object, 200.
/// - 206 with `Content-Range` for a range; 304 for `If-None-Match` / `If-Modified-Since`; 416 with
///   `Content-Range: bytes */SIZE` for a range outside the object (the same on every vendor, including OSS, which
///   by default answers such a range with the whole object); 404 for a missing key; 405 for other methods.
/// - Headers: `Content-Type` (the object's, else `application/octet-stream`), `Content-Length`,
///   `Accept-Ranges: bytes`, `ETag`, `Last-Modified`, and the object's `Cache-Control`, `Content-Disposition`,
///   `Content-Encoding`, `Content-Language` and `Expires`.
/// - The body is streamed with back-pressure, a chunk written to the client before the next is read from the
///   bucket, so no object is ever held in memory. A client that disconnects ends the writing, which ends the
///   bucket `GET`.
/// - Keys are untrusted: an empty key, a leading `/`, an empty, `.` or `..` segment, a control character
///   (U+0000–U+001F, U+007F) or a key past 1024 bytes is answered with 400 and never reaches the bucket. The
///   ``keyPrefix`` is always prepended, and the bucket is fixed.
/// - A bucket connection pool with every connection held by a body in flight (the client waited its connect
///   timeout for one, `TransportError.Code.connectionPoolExhausted`) is answered with 503 and `Retry-After: 1`.
///   Size the pool (`HTTPConfiguration.maximumConnectionsPerHost`) above the number of downloads served at once:
///   each holds a connection until its client has read it, or until `HTTPConfiguration.unreadBodyTimeout` when its
///   client stops reading.
///
/// Other failures of the bucket (a 403, a 5xx after the client's retries, a connection failure) are thrown as the
/// client threw them; Hummingbird answers them with 500, without their text.
public struct BucketFileServer: Sendable {
    /// The client that reads the bucket.
    public let client: ObjectStorageClient
    /// The bucket every object is served from.
    public let bucket: String
    /// The text prepended to every key a client names, e.g. `public/`; empty for the whole bucket.
    public let keyPrefix: String

    /// Creates a file server for a bucket.
    ///
    /// - Parameters:
    ///   - client: The client that reads the bucket.
    ///   - bucket: The bucket every object is served from.
    ///   - keyPrefix: The text prepended to every key a client names; empty (the default) for the whole bucket.
    public init(client: ObjectStorageClient, bucket: String, keyPrefix: String = "") {
        self.client = client
        self.bucket = bucket
        self.keyPrefix = keyPrefix
    }

    /// Answers a `GET` or `HEAD` for an object, named by a key relative to ``keyPrefix``.
    ///
    /// - Parameters:
    ///   - request: The client's request: its method, `Range` and conditional headers are read.
    ///   - key: The object's key below ``keyPrefix``, already percent-decoded (e.g. a route parameter).
    ///   - logger: The logger for the bucket requests (the client's when `nil`).
    /// - Returns: The response: 200, 206, 304, 400, 404, 405, 416 or 503, its body streamed from the bucket.
    /// - Throws: What `ObjectStorageClient.getObject(_:logger:)` or
    ///   `ObjectStorageClient.headObject(bucket:key:versionID:ifMatch:ifNoneMatch:logger:)` throw for any other
    ///   failure (`ServiceError`, a transport error, `CancellationError`).
    public func response(to request: Request, key: String, logger: Logger? = nil) async throws -> Response {
        guard let bucketKey = ObjectKeyPolicy.bucketKey(for: key, prefix: self.keyPrefix) else {
            return Response(status: .badRequest)
        }
        let conditions = FileRequestConditions(headers: request.headers)
        let read = ObjectRead(client: self.client, bucket: self.bucket, key: bucketKey, logger: logger)
        do {
            switch request.method {
            case .get: return try await read.get(conditions)
            case .head: return try await read.head(conditions)
            default: return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
            }
        } catch let error as TransportError where error.code == .connectionPoolExhausted {
            // Every connection to the bucket is held by a body in flight: the client is told to come back, rather
            // than given a 500 for a fault of its own.
            return Response(status: .serviceUnavailable, headers: [.retryAfter: "1"])
        }
    }

    /// Answers a `GET` or `HEAD` whose URL path names the object after a route's fixed part: `/files/docs/a%20b.txt`
    /// with `pathPrefix` `/files/` serves the key `docs/a b.txt` below ``keyPrefix``.
    ///
    /// The rest of the path is percent-decoded, then checked as ``response(to:key:logger:)`` checks a key: a
    /// malformed escape is a 400, and so is an encoded `..` segment (`%2E%2E`). A path outside `pathPrefix` is a 404.
    ///
    /// - Parameters:
    ///   - request: The client's request.
    ///   - pathPrefix: The route's fixed part, e.g. `/files/`.
    ///   - logger: The logger for the bucket requests (the client's when `nil`).
    /// - Returns: The response, as ``response(to:key:logger:)`` returns it.
    /// - Throws: What ``response(to:key:logger:)`` throws.
    public func response(to request: Request, pathPrefix: String, logger: Logger? = nil) async throws -> Response {
        let path = request.uri.path
        guard path.hasPrefix(pathPrefix) else { return Response(status: .notFound) }
        guard let key = ObjectKeyPolicy.percentDecoded(path.dropFirst(pathPrefix.count)) else {
            return Response(status: .badRequest)
        }
        return try await self.response(to: request, key: key, logger: logger)
    }
}
