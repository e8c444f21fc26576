//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension ServiceError {
    /// The HTTP status the service answered with, read from any error an operation threw: the ``statusCode`` of
    /// a ``ServiceError`` (the client throws the service's answer unwrapped, after its retries too).
    ///
    /// A server that streams objects out can answer its own client with the service's status, so a missing key
    /// is a 404 rather than a 500:
    ///
    /// <!-- snippet: given client: ObjectStorageClient, key: String -->
    /// ```swift
    /// import Hummingbird
    ///
    /// do {
    ///     let object = try await client.getObject(GetObjectRequest(bucket: "b", key: key))
    ///     _ = object  // answer with object.body
    /// } catch {
    ///     throw HTTPError(.init(code: ServiceError.httpStatus(of: error) ?? 500))
    /// }
    /// ```
    ///
    /// - Parameter error: What an operation threw.
    /// - Returns: The status, or `nil` when the error is not the service's answer (a connection failure, a
    ///   refused redirect, a timeout, a local file error, a cancellation).
    public static func httpStatus(of error: any Error) -> Int? {
        (error as? ServiceError)?.statusCode
    }
}
