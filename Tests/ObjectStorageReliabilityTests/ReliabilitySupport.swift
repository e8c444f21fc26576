//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import InMemoryLogging
import Logging
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// The secrets every test here uses: distinctive strings a scan can look for.
enum TestSecrets {
    static let accessKeyID = "RELIABILITYACCESSKEY"
    static let secret = "reliability-secret-9f8e7d6c5b4a"
    static let sessionToken = "reliability-session-token-1a2b3c4d5e6f"

    static let credentials = Credentials(accessKeyID: accessKeyID, secretAccessKey: secret)
    static let sessionCredentials = Credentials(
        accessKeyID: accessKeyID,
        secretAccessKey: secret,
        securityToken: sessionToken
    )

    /// The strings that must never appear in a log line, an error description or a checkpoint.
    static let forbidden = [secret, sessionToken]

    /// `objstore`'s S3 credentials for the fixture server.
    static let s3Environment = ["AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secret]
    /// `objstore`'s OSS credentials for the fixture server.
    static let ossEnvironment = ["OSS_ACCESS_KEY_ID": accessKeyID, "OSS_ACCESS_KEY_SECRET": secret]
}

/// An in-process local server holding bucket `bkt` with `obj` (1,000 bytes) and a client for it.
struct ServerFixture: Sendable {
    static let objectBytes = generatedBytes(count: 1000) { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    let server: LocalObjectServer
    let endpoint: String
    /// The region of the S3 dialect, which the CLI's S3 commands name.
    let region: String

    /// Starts a memory server that accepts ``TestSecrets/credentials`` and uploads the fixture object.
    static func start(
        faults: FaultInjector = FaultInjector(),
        logger: Logger = .scanning(label: "server")
    ) async throws -> ServerFixture {
        let server = LocalObjectServer(
            configuration: .init(storage: .memory, authentication: .credentials([TestSecrets.credentials])),
            faults: faults,
            logger: logger
        )
        let port = try await server.start()
        let fixture = ServerFixture(
            server: server,
            endpoint: "http://127.0.0.1:\(port)",
            region: server.configuration.region(for: .s3)
        )
        let client = try fixture.client(.s3)
        try await client.createBucket(bucket: "bkt")
        try await client.putObject(PutObjectRequest(bucket: "bkt", key: "obj", body: .bytes(objectBytes)))
        return fixture
    }

    /// A client in `vendor`'s default dialect.
    func client(
        _ vendor: StorageVendor,
        credentials: Credentials = TestSecrets.credentials,
        logger: Logger? = nil
    ) throws -> ObjectStorageClient {
        var configuration = ObjectStorageClient.Configuration(
            vendor: vendor,
            endpoint: try Endpoint(url: endpoint),
            region: server.configuration.region(for: vendor),
            credentials: StaticCredentialsProvider(credentials)
        )
        configuration.retry = .exponentialJitter(maxAttempts: 2, base: .milliseconds(1), cap: .milliseconds(5))
        configuration.timeout = .seconds(20)
        return ObjectStorageClient(configuration: configuration, logger: logger ?? .scanning)
    }

    /// An anonymous client.
    func anonymousClient(_ vendor: StorageVendor) throws -> ObjectStorageClient {
        ObjectStorageClient(
            configuration: .init(vendor: vendor, endpoint: try Endpoint(url: endpoint), credentials: nil),
            logger: .scanning
        )
    }

    func stop() async { await server.shutdown() }
}

extension Logger {
    /// A trace-level logger into `handler`, whose lines the suite-wide secret scan also sees.
    static func capturing(_ handler: InMemoryLogHandler, label: String = "reliability") -> Logger {
        var logger = Logger.scanning(label: label, alsoTo: handler)
        logger.logLevel = .trace
        return logger
    }
}

/// A scratch directory with one pre-existing file whose bytes must survive every case.
final class Scratch: Sendable {
    static let existingBytes = Data("precious bytes that must survive\n".utf8)

    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("objstore-reliability-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Self.existingBytes.write(to: URL(fileURLWithPath: existing))
    }

    /// `existing.bin`, present before each case.
    var existing: String { file("existing.bin") }

    func file(_ name: String) -> String { path + "/" + name }

    /// Whether `existing.bin` still holds exactly its original bytes.
    var existingIsIntact: Bool { FileManager.default.contents(atPath: existing) == Self.existingBytes }

    /// Every file under the directory, recursively, relative to it.
    func listing() -> [String] {
        (FileManager.default.subpaths(atPath: path) ?? []).sorted()
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
