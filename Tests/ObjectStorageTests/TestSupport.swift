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
    var provider: StorageVendor
    var signature: SignatureVersion

    var testDescription: String { self.name }

    static let ossV4 = ClientDialect(name: "OSS V4", provider: .oss, signature: .ossV4)
    static let ossV1 = ClientDialect(name: "OSS V1", provider: .oss, signature: .ossV1)
    static let obs = ClientDialect(name: "OBS", provider: .obs, signature: .obs)
    static let s3 = ClientDialect(name: "S3 SigV4", provider: .s3, signature: .sigV4)

    static let all: [ClientDialect] = [.ossV4, .ossV1, .obs, .s3]

    /// The smallest non-final part the local server accepts in this dialect.
    var minimumPartSize: Int { self.provider == .s3 ? 5 * 1024 * 1024 : 100 * 1024 }

    /// The dialect to give `LocalObjectServer.withRunning`, whose client then speaks this provider.
    var wire: StorageVendor {
        switch self.provider {
        case .oss: .oss
        case .obs: .obs
        default: .s3
        }
    }

    /// Makes the client sign in this dialect's scheme (`withRunning` picks the provider's default, never OSS V1).
    func configure(_ configuration: inout ObjectStorageClient.Configuration) {
        configuration.signatureVersion = self.signature
    }
}

extension ObjectStorageClient {
    /// A client with this one's configuration that logs to `logger` and sends through `wrap` applied to the SDK's
    /// shared transport: to watch or alter what a test's client sends, or to keep its log to the client's lines.
    func derived(
        logger: Logger = .scanning,
        transport wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }
    ) -> ObjectStorageClient {
        ObjectStorageClient(
            configuration: self.configuration,
            transport: wrap(AsyncHTTPClientTransport.shared),
            logger: logger
        )
    }
}

extension RawHTTPServer {
    /// An unsigned S3 client of this server (`us-east-1`), after `configure`: for tests whose server scripts the
    /// replies and checks no signature.
    func anonymousS3Client(
        _ configure: (inout ObjectStorageClient.Configuration) -> Void = { _ in }
    ) throws -> ObjectStorageClient {
        var configuration = ObjectStorageClient.Configuration(
            vendor: .s3,
            endpoint: try Endpoint(url: self.url("")),
            region: "us-east-1",
            credentials: nil
        )
        configure(&configuration)
        return ObjectStorageClient(configuration: configuration, logger: .scanning)
    }
}

/// Fast retries for tests.
let testRetry = RetryPolicy.exponentialJitter(maxAttempts: 3, base: .milliseconds(1), cap: .milliseconds(5))

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
