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
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

/// A trace-level logger whose lines the test can search, and helpers shared by the metadata provider tests.
enum MetadataTestSupport {
    /// The metadata providers' transport in tests: the product's 1 s connect timeout fails fast off-cloud, but a
    /// loopback connect on a loaded 2-core machine running the whole suite has taken longer.
    static let transport = AsyncHTTPClientTransport(
        configuration: HTTPConfiguration(
            connectTimeout: .seconds(30),
            readIdleTimeout: .seconds(30),
            maximumConnectionsPerHost: 2
        )
    )

    /// The providers' per-request timeout in tests: the product's 5 s, on a loaded 2-core machine running the whole
    /// suite, was once not enough for a loopback answer.
    static let timeout = Duration.seconds(30)

    static func logger() -> (Logger, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let logger = Logger.scanning(label: "metadata-tests", alsoTo: handler)
        return (logger, handler)
    }

    /// Every logged line, message and metadata, as text.
    static func lines(_ handler: InMemoryLogHandler) -> [String] {
        handler.entries.map { entry in
            let metadata = entry.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let error = entry.error.map { "\($0)" } ?? ""
            return "\(entry.level) \(entry.message) \(metadata.joined(separator: " ")) \(error)"
        }
    }

    /// The strings that must never appear in a log line or an error: the metadata token and every secret and
    /// security token the fake server may have handed out.
    static var secrets: [String] {
        [MetadataTestServer.issuedToken]
            + (1...5).flatMap {
                [MetadataTestServer.secret($0), MetadataTestServer.securityToken($0)]
            }
    }

    /// Asserts that nothing logged (and no given text) contains a secret.
    static func expectNoSecrets(
        in handler: InMemoryLogHandler,
        and texts: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let all = Self.lines(handler) + texts
        #expect(!all.isEmpty, sourceLocation: sourceLocation)
        for secret in Self.secrets {
            for text in all {
                #expect(!text.contains(secret), "leaked into: \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    /// `date` formatted as `2030-01-02T03:04:05Z` (whole seconds).
    static func rfc3339(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// A provider of `service` that asks `endpoint`, with the tests' timeout and transport; the token mode and
    /// lifetime are the product's defaults unless given.
    static func provider(
        _ service: InstanceMetadataService,
        endpoint: String,
        roleName: String? = nil,
        tokenMode: InstanceMetadataTokenMode = InstanceMetadataCredentialsProvider.defaultTokenMode,
        tokenTTL: Duration = InstanceMetadataCredentialsProvider.defaultTokenTTL
    ) -> InstanceMetadataCredentialsProvider {
        InstanceMetadataCredentialsProvider(
            service: service,
            roleName: roleName,
            endpoint: endpoint,
            tokenMode: tokenMode,
            tokenTTL: tokenTTL,
            timeout: Self.timeout,
            transport: Self.transport
        )
    }

    /// The ``CredentialsError`` one request for credentials from ``provider(_:endpoint:roleName:tokenMode:tokenTTL:)``
    /// throws.
    static func credentialsError(
        _ service: InstanceMetadataService,
        endpoint: String,
        logger: Logger,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> CredentialsError? {
        await Self.credentialsError(sourceLocation: sourceLocation) {
            _ = try await Self.provider(service, endpoint: endpoint).credentials(logger: logger)
        }
    }

    /// Runs `body` and returns the ``CredentialsError`` it throws.
    static func credentialsError(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async -> CredentialsError? {
        do {
            try await body()
            Issue.record("expected a CredentialsError, got success", sourceLocation: sourceLocation)
            return nil
        } catch let error as CredentialsError {
            return error
        } catch {
            Issue.record("expected a CredentialsError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

/// A clock the test moves by hand.
final class MetadataTestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date) {
        self.current = Mutex(start)
    }

    var now: Date {
        self.current.withLock { $0 }
    }

    func advance(by seconds: TimeInterval) {
        self.current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
