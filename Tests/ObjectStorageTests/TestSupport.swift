//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// A provider and signature scheme the client is tested in.
struct ClientDialect: Sendable, CustomTestStringConvertible {
    var name: String
    var provider: StorageProvider
    var signature: SignatureVersion

    var testDescription: String { self.name }

    static let ossV4 = ClientDialect(name: "OSS V4", provider: .oss, signature: .ossV4)
    static let ossV1 = ClientDialect(name: "OSS V1", provider: .oss, signature: .ossV1)
    static let obs = ClientDialect(name: "OBS", provider: .obs, signature: .obs)
    static let s3 = ClientDialect(name: "S3 SigV4", provider: .s3, signature: .sigV4)

    static let all: [ClientDialect] = [.ossV4, .ossV1, .obs, .s3]

    /// The smallest non-final part the local server accepts in this dialect.
    var minimumPartSize: Int { self.provider == .s3 ? 5 * 1024 * 1024 : 100 * 1024 }
}

/// Fast retries for tests.
let testRetry = RetryPolicy.exponentialJitter(maxAttempts: 3, base: .milliseconds(1), cap: .milliseconds(5))

/// Runs `body` with a fresh in-memory server (credentials checked) and a client in `dialect`.
func withClient<T>(
    _ dialect: ClientDialect,
    faults: FaultInjector = FaultInjector(),
    credentials: Credentials = LocalObjectServer.developmentCredentials,
    logger: Logger? = nil,
    transport: (@Sendable (any HTTPTransport) -> any HTTPTransport)? = nil,
    configure: (inout ObjectStorageClient.Configuration) -> Void = { _ in },
    server configureServer: (inout LocalObjectServer.Configuration) -> Void = { _ in },
    _ body: (ObjectStorageClient, LocalObjectServer) async throws -> T
) async throws -> T {
    var serverConfiguration = LocalObjectServer.Configuration(storage: .memory)
    configureServer(&serverConfiguration)
    let server = LocalObjectServer(
        configuration: serverConfiguration,
        faults: faults,
        logger: .scanning(label: "test-server")
    )
    let port = try await server.start()
    do {
        var configuration = ObjectStorageClient.Configuration(
            provider: dialect.provider,
            endpoint: try Endpoint(url: "http://127.0.0.1:\(port)"),
            region: dialect.provider == .oss ? server.configuration.ossRegion : server.configuration.region,
            credentials: .static(
                accessKeyID: credentials.accessKeyID,
                secretAccessKey: credentials.secretAccessKey
            ),
            signatureVersion: dialect.signature
        )
        configuration.retry = testRetry
        configuration.timeout = .seconds(20)
        configure(&configuration)
        let base = AsyncHTTPClientTransport.shared
        let client = ObjectStorageClient(
            configuration: configuration,
            transport: transport?(base) ?? base,
            logger: logger ?? .scanning
        )
        let result = try await body(client, server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// Expects `body` to throw a ``ServiceError`` and returns it.
func expectServiceError(
    _ code: ServiceError.Code,
    status: Int,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async -> ServiceError? {
    do {
        try await body()
        Issue.record("expected \(code), got success", sourceLocation: sourceLocation)
        return nil
    } catch let error as ServiceError {
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(error.statusCode == status, sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A unique temporary path.
func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("os-tests-\(UUID().uuidString)-\(name)").path
}

extension ByteBuffer {
    var bytes: [UInt8] { Array(self.readableBytesView) }
}
