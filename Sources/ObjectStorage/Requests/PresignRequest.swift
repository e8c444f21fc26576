//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorageSigning

/// A request to turn into a presigned URL with ``ObjectStorageClient/presign(_:logger:)``.
public struct PresignRequest: Sendable {
    /// The HTTP method the URL is for, e.g. `GET` or `PUT`.
    public var method: String
    /// The bucket.
    public var bucket: String
    /// The object key.
    public var key: String
    /// How long the URL stays valid.
    public var expires: Duration
    /// Extra query parameters to sign (`versionId`, `response-content-type`...), unencoded.
    public var query: [QueryParameter] = []
    /// Headers the caller will send with the URL, signed (e.g. `Content-Type` of a PUT).
    public var headers: [HTTPHeader] = []

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - expires: How long the URL stays valid (default 15 minutes).
    public init(method: String = "GET", bucket: String, key: String, expires: Duration = .seconds(900)) {
        self.method = method
        self.bucket = bucket
        self.key = key
        self.expires = expires
    }
}
