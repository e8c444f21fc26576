//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOHTTP1
import ObjectStorageSigning

extension ObjectStorageClient {
    /// Sends any request of the vendor's REST API through the client's one request path, as every wrapped operation
    /// is sent: signed for the configured vendor and signature version, with the clock skew corrected, retried
    /// under the client's ``/ObjectStorageTransport/RetryPolicy`` (a stream body is sent once), and a non-2xx answer
    /// thrown as a ``ServiceError`` with the vendor's code and request id.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// var tagging = ServiceRequest(method: "PUT", bucket: "media", key: "a.jpg", query: ["tagging": ""])
    /// tagging.body = .bytes(Array("<Tagging><TagSet><Tag><Key>team</Key><Value>web</Value></Tag></TagSet></Tagging>".utf8))
    /// _ = try await client.send(tagging)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The 2xx answer, its body still streaming from the connection: read it once.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` before sending, for a method other than `GET`, `HEAD`,
    ///   `PUT`, `POST`, `DELETE` or `OPTIONS`, or a header the client sets itself (`Host`, `Authorization`,
    ///   `Content-Length`, `Transfer-Encoding`, `Expect`); ``ServiceError``; transport errors; `CancellationError`.
    public func send(_ request: ServiceRequest, logger: Logger? = nil) async throws -> ServiceResponse {
        let operation = try Self.operation(for: request)
        // OSS's CRC-64 in the answer describes the object: it is the body's only when the request writes the
        // object's bytes (PutObject, UploadPart).
        let names = Set(operation.query.map(\.name))
        let writesContent = operation.method == .PUT && (names.isEmpty || names == ["partNumber", "uploadId"])
        let response = try await self.execute(operation, logger: logger, checksUploadCRC: writesContent)
        return ServiceResponse(
            status: Int(response.status.code),
            headers: response.headers.map { ($0.name, $0.value) },
            body: ObjectBody(
                base: response.body,
                check: try ResponseBodyCheck(
                    // A HEAD's Content-Length describes the body a GET would have; it has none.
                    headers: operation.method == .HEAD ? HTTPHeaders() : response.headers,
                    isWholeObject: false,
                    verifiesETag: false,
                    operation: operation.name
                )
            )
        )
    }

    /// The methods the vendors' REST APIs use.
    private static let sendableMethods: Set<String> = ["GET", "HEAD", "PUT", "POST", "DELETE", "OPTIONS"]

    /// Headers the request path writes itself: one set by the caller would contradict the signature or the body.
    private static let reservedHeaders: Set<String> = [
        "host", "authorization", "content-length", "transfer-encoding", "expect",
    ]

    /// The operation for `request`, named for logs and errors after its method and sub-resources (`GET ?cors`).
    private static func operation(for request: ServiceRequest) throws(ObjectStorageError) -> OperationRequest {
        let method = request.method.uppercased()
        guard Self.sendableMethods.contains(method) else {
            throw .invalidArgument(
                "the method '\(request.method)' is not one of GET, HEAD, PUT, POST, DELETE or OPTIONS"
            )
        }
        if let reserved = request.headers.keys.first(where: { Self.reservedHeaders.contains($0.lowercased()) }) {
            throw .invalidArgument("the header '\(reserved)' is set by the client, not by a request")
        }
        let query = request.query.sorted { $0.key < $1.key }
        let subresources = query.filter { $0.value.isEmpty }.map(\.key)
        var operation = OperationRequest(
            name: subresources.isEmpty ? method : "\(method) ?\(subresources.joined(separator: "&"))",
            method: HTTPMethod(rawValue: method),
            bucket: request.bucket,
            key: request.key
        )
        operation.query = query.map { QueryParameter(name: $0.key, value: $0.value.isEmpty ? nil : $0.value) }
        operation.headers = request.headers.sorted { $0.key < $1.key }.map { HTTPHeader(name: $0.key, value: $0.value) }
        operation.body = request.body
        return operation
    }
}
