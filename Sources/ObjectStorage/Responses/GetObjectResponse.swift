//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import NIOCore
import ObjectStorageSigning
import ObjectStorageTransport

/// The answer to ``ObjectStorageClient/getObject(_:logger:)``: the headers, and the body to stream.
///
/// Read the body once, soon (it holds a connection until then):
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// let response = try await client.getObject(GetObjectRequest(bucket: "b", key: "k"))
/// for try await chunk in response.body { print(chunk.readableBytes) }
/// ```
@dynamicMemberLookup
public struct GetObjectResponse: Sendable {
    /// The object's headers.
    public var attributes: ObjectAttributes
    /// The content.
    public var body: ObjectBody

    /// Reads an attribute, e.g. `response.etag`.
    ///
    /// - Parameter keyPath: The attribute.
    /// - Returns: The attribute's value in ``attributes``.
    public subscript<Value>(dynamicMember keyPath: KeyPath<ObjectAttributes, Value>) -> Value {
        self.attributes[keyPath: keyPath]
    }
}

/// An object's content as an async sequence of buffers, with backpressure.
///
/// For a whole-object read, the bytes are checked as they pass against the CRC-64 the service reports (OSS's
/// `x-oss-hash-crc64ecma`, OBS's when the object's upload sent one, S3's full-object CRC-64/NVME when the answer
/// carries it); a mismatch is thrown by the iteration that reaches the end
/// (``ObjectStorageError/Code/integrityMismatch``).
public struct ObjectBody: AsyncSequence, Sendable {
    /// A buffer of bytes.
    public typealias Element = ByteBuffer

    let base: TransportResponse.Body
    let check: ResponseBodyCheck

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: TransportResponse.Body.AsyncIterator
        var check: ResponseBodyCheck?

        /// The next buffer, or `nil` at the end.
        ///
        /// - Returns: The next buffer.
        /// - Throws: A ``/ObjectStorageTransport/TransportError`` when the connection fails, an
        ///   ``ObjectStorageError`` with ``ObjectStorageError/Code/integrityMismatch`` at the end when
        ///   the checksum does not match, `CancellationError` when the task is cancelled.
        public mutating func next() async throws -> ByteBuffer? {
            let next: ByteBuffer?
            do {
                next = try await self.base.next()
            } catch {
                // Cancellation has one shape everywhere, as in the operations and transfers.
                if ObjectStorageClient.isCancellation(error) { throw CancellationError() }
                throw error
            }
            guard let chunk = next else {
                if var check = self.check {
                    self.check = nil
                    try check.finish()
                }
                return nil
            }
            if self.check != nil {
                try chunk.withUnsafeReadableBytes { (bytes) throws(ObjectStorageError) in try self.check?.update(bytes)
                }
            }
            return chunk
        }
    }

    /// Makes the iterator (iterate once).
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: self.base.makeAsyncIterator(), check: self.check.isEmpty ? nil : self.check)
    }

    /// Reads the whole body into one buffer.
    ///
    /// - Parameter maxBytes: The most bytes accepted.
    /// - Returns: The bytes.
    /// - Throws: ``/ObjectStorageTransport/TransportError/Code/bodyTooLarge`` past `maxBytes`, or what the
    ///   iteration throws.
    public func collect(upTo maxBytes: Int) async throws -> ByteBuffer {
        var result = ByteBuffer()
        for try await var chunk in self {
            guard result.readableBytes + chunk.readableBytes <= maxBytes else {
                throw TransportError(code: .bodyTooLarge, message: "the object exceeds the limit of \(maxBytes) bytes")
            }
            result.writeBuffer(&chunk)
        }
        return result
    }
}
