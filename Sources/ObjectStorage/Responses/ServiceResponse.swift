//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorageSigning

/// The 2xx answer to a ``ServiceRequest`` (any other status is thrown as a ``ServiceError``): its status, its
/// headers and its body, streamed.
public struct ServiceResponse: Sendable {
    /// The HTTP status, 200–299.
    public var status: Int
    /// The headers, in the order received.
    public var headers: [(name: String, value: String)]
    /// The body, streamed as it arrives; read it once.
    public var body: ObjectBody

    /// The value of the first header named `name`, compared case-insensitively.
    ///
    /// - Parameter name: The header name.
    /// - Returns: Its value, or `nil` when the answer has no such header.
    public func header(_ name: String) -> String? {
        let name = name.lowercased()
        return self.headers.first { $0.name.lowercased() == name }?.value
    }

    /// Reads the whole body and parses it as XML (namespaces dropped, at most 64 levels deep).
    ///
    /// - Parameter maxBytes: The most bytes to accept (16 MiB by default).
    /// - Returns: The document's root element.
    /// - Throws: ``ObjectStorageError/Code/invalidResponse`` for a body that is not well-formed XML,
    ///   ``/ObjectStorageTransport/TransportError/Code/bodyTooLarge`` past `maxBytes`, what reading the body throws,
    ///   `CancellationError`.
    public func xml(upTo maxBytes: Int = 16 << 20) async throws -> XMLNode {
        let bytes = try await self.body.collect(upTo: maxBytes).readableBytesView
        do {
            return try XMLNode.parse(bytes)
        } catch {
            throw ObjectStorageError.invalidResponse("the answer is not XML: \(error)")
        }
    }
}
