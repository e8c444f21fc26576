//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
public import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTransport

extension LocalObjectServer {
    /// Runs `body` with a client configured for a fresh server, then stops the server and removes its data,
    /// whether `body` returns or throws.
    ///
    /// The server listens on an ephemeral port of `127.0.0.1`, keeps its objects in a new temporary directory
    /// (mode 0700) and accepts ``developmentCredentials``, which the client signs with in `vendor`'s default
    /// scheme (OSS V4, OBS or SigV4, in the region the server expects of that vendor). The client retries with a backoff of a
    /// few milliseconds, so a fault that fails the first attempts costs a test almost no time. Each call gets its
    /// own server, so tests using it run in parallel.
    ///
    /// ```swift
    /// import ObjectStorage
    /// import ObjectStorageLocalServer
    /// import Testing
    ///
    /// @Test func retriesThrottling() async throws {
    ///     try await LocalObjectServer.withRunning(vendor: .oss) { client, server in
    ///         try await client.createBucket(bucket: "test")
    ///         server.faults.add(FaultRule(operations: ["PutObject"], trigger: .first(2), fault: .slowDown))
    ///         try await client.putObject(PutObjectRequest(bucket: "test", key: "k", body: .bytes([1, 2, 3])))
    ///     }
    /// }
    /// ```
    ///
    /// To test what the defaults do not cover, adjust the server's configuration (its key pairs, its regions) or the
    /// client's (another signature scheme such as OSS V1, other credentials, a retry policy) before either starts:
    ///
    /// ```swift
    /// let ossV1: (inout ObjectStorageClient.Configuration) -> Void = { $0.signatureVersion = .ossV1 }
    /// try await LocalObjectServer.withRunning(vendor: .oss, configureClient: ossV1) { client, _ in
    ///     try await client.createBucket(bucket: "test")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - vendor: The vendor the client speaks to, and the dialect of unsigned requests.
    ///   - faults: The fault rules the server applies; ``faults`` of the server passed to `body` is this injector.
    ///   - logger: Where the server and the client log (never a secret); the server's default label and a silent
    ///     client when `nil`.
    ///   - configureServer: Adjusts the server's configuration, whose ``Configuration/storage`` is the new
    ///     temporary directory, before the server starts.
    ///   - configureClient: Adjusts the client's configuration (endpoint, region, ``developmentCredentials`` and
    ///     retry policy set as described above) before the client is made.
    ///   - isolation: The caller's actor, on which `body` runs.
    ///   - body: The test, given the client and the running server.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or why the server could not start (the data directory could not be made, or
    ///   no port could be bound).
    public static func withRunning<Result>(
        vendor: StorageVendor = .s3,
        faults: FaultInjector = FaultInjector(),
        logger: Logger? = nil,
        configureServer: (inout Configuration) -> Void = { _ in },
        configureClient: (inout ObjectStorageClient.Configuration) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation,
        _ body: (_ client: ObjectStorageClient, _ server: LocalObjectServer) async throws -> Result
    ) async throws -> Result {
        let directory = try TemporaryDataDirectory.create()
        defer { directory.remove() }
        var configuration = Configuration(storage: .directory(directory.path))
        configuration.defaultVendor = vendor
        configureServer(&configuration)
        let server = LocalObjectServer(
            configuration: configuration,
            faults: faults,
            logger: logger ?? Logger(label: "objstore.local-server")
        )
        do {
            let port = try await server.start()
            let client = server.client(vendor: vendor, port: port, logger: logger, configure: configureClient)
            let result = try await body(client, server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// A client for this server, listening on `port`, that signs with ``developmentCredentials`` for `vendor`.
    private func client(
        vendor: StorageVendor,
        port: Int,
        logger: Logger?,
        configure: (inout ObjectStorageClient.Configuration) -> Void
    ) -> ObjectStorageClient {
        let credentials = Self.developmentCredentials
        var clientConfiguration = ObjectStorageClient.Configuration(
            vendor: vendor,
            endpoint: Endpoint(scheme: configuration.scheme, host: configuration.host, port: port),
            region: configuration.region(for: vendor),
            credentials: .static(accessKeyID: credentials.accessKeyID, secretAccessKey: credentials.secretAccessKey)
        )
        clientConfiguration.retry = .exponentialJitter(maxAttempts: 3, base: .milliseconds(1), cap: .milliseconds(10))
        configure(&clientConfiguration)
        return ObjectStorageClient(configuration: clientConfiguration, logger: logger)
    }
}
