//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
public import ObjectStorageTransport

/// Runs `body` with a client that owns an HTTP client built from `http`, and shuts that HTTP client down when
/// `body` returns or throws.
///
/// This is the one place to size the connection pool, set the network timeouts, TLS, proxy and bandwidth limit of a
/// client: every setting of `http` configures the HTTP client it creates (which, like every client the SDK sends through, follows no
/// redirect and decompresses nothing), so none is ignored. A server that streams objects to its own clients
/// needs a pool larger than the number of streams it serves at once, because each streamed download holds a
/// connection for as long as its reader takes:
///
/// <!-- snippet: given configuration: ObjectStorageClient.Configuration,
///      runApp: (ObjectStorageClient) async throws -> Void -->
/// ```swift
/// var http = HTTPConfiguration()
/// http.maximumConnectionsPerHost = 512
/// try await withObjectStorageClient(configuration: configuration, http: http) { client in
///     try await runApp(client)  // a web app whose routes stream objects with `client`
/// }
/// ```
///
/// Without this, ``ObjectStorageClient/init(configuration:logger:)`` sends through the SDK's process-wide client
/// (64 connections per host), which needs no shutdown.
///
/// - Parameters:
///   - configuration: The client's configuration.
///   - http: The HTTP client's pool size, timeouts, TLS, proxy and bandwidth limit.
///   - logger: The logger for operations that are not given one.
///   - isolation: The actor `body` runs on; the caller's by default.
///   - body: The work to do with the client. The client must not be used after it returns.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, or the HTTP client's shutdown error.
@discardableResult
public func withObjectStorageClient<Result>(
    configuration: ObjectStorageClient.Configuration,
    http: HTTPConfiguration,
    logger: Logger? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ObjectStorageClient) async throws -> Result
) async throws -> Result {
    try await withAsyncHTTPClientTransport(configuration: http) { httpTransport in
        try await body(ObjectStorageClient(configuration: configuration, transport: httpTransport, logger: logger))
    }
}
