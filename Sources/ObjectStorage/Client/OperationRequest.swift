//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorageSigning
import ObjectStorageTransport

/// One service call before signing: what every operation builds, and what one attempt of the request path sends.
struct OperationRequest: Sendable {
    /// The S3-style operation name, for logs and errors (`GetObject`).
    var name: String
    var method: HTTPMethod
    var bucket: String?
    var key: String?
    var query: [QueryParameter] = []
    var headers: [HTTPHeader] = []
    var body: UploadBody? = nil
    /// A URL signed elsewhere (a presigned URL), sent as it is with ``headers``: no signature, no query added.
    var presignedURL: String? = nil
    /// The checksum the request carries for the service to check and echo (``SentChecksum``): the request path
    /// checks the echo.
    var sentChecksum: SentChecksum? = nil
    /// Takes the body of a 2xx answer buffer by buffer, on the network thread when the transport can (a part of a
    /// resumable download); `nil` to stream the body to the caller.
    var consumer: (any ResponseBodyConsumer)? = nil

    init(name: String, method: HTTPMethod, bucket: String? = nil, key: String? = nil) {
        self.name = name
        self.method = method
        self.bucket = bucket
        self.key = key
    }

    /// A GET of a presigned URL.
    static func presignedGET(_ url: String) -> OperationRequest {
        var operation = OperationRequest(name: "GetObject", method: .GET, bucket: nil, key: nil)
        operation.presignedURL = url
        return operation
    }

    mutating func header(_ name: String, _ value: String?) {
        guard let value else { return }
        self.headers.append(HTTPHeader(name: name, value: value))
    }

    /// Makes `document` the body, with its `Content-Type` and `Content-MD5` (which several services require of a
    /// configuration document).
    mutating func xmlBody(_ document: [UInt8]) {
        self.header("Content-Type", "application/xml")
        self.header("Content-MD5", ByteEncoding.base64(Hashing.MD5.hash(document)))
        self.body = .bytes(document)
    }

    mutating func query(_ name: String, _ value: String?) {
        guard let value else { return }
        self.query.append(QueryParameter(name: name, value: value))
    }

    /// Carries `checksum` (its header, and the check of its echo), or nothing when `nil`.
    mutating func carry(_ checksum: SentChecksum?) {
        guard let checksum else { return }
        checksum.add(to: &self)
        self.sentChecksum = checksum
    }
}
