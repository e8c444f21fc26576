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
import Testing

/// The Alibaba Cloud ECS RAM-role provider against a fake metadata service on 127.0.0.1.
struct ECSRoleCredentialsProviderTests {
    typealias Server = MetadataTestServer
    private static let rolesPath = "/latest/meta-data/ram/security-credentials/"
    private static let rolePath = "/latest/meta-data/ram/security-credentials/ecs-test-role"

    @Test func hardenedModeUsesTheTokenToDiscoverTheRoleAndFetchCredentials() async throws {
        let server = try await Server.start()
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = MetadataTestSupport.provider(.alibabaCloudECSRole, endpoint: server.endpoint)

        let credentials = try await provider.credentials(logger: logger)

        #expect(credentials.accessKeyID == "STS.AK1")
        #expect(credentials.secretAccessKey == Server.secret(1))
        #expect(credentials.securityToken == Server.securityToken(1))
        #expect(credentials.expiration == Date(timeIntervalSince1970: 1_893_553_445))  // 2030-01-02T03:04:05Z
        #expect(
            server.requests == [
                .init(method: "PUT", path: "/latest/api/token", token: nil, ttl: "300"),
                .init(method: "GET", path: Self.rolesPath, token: Server.issuedToken, ttl: nil),
                .init(method: "GET", path: Self.rolePath, token: Server.issuedToken, ttl: nil),
            ]
        )
        MetadataTestSupport.expectNoSecrets(in: handler, and: ["\(credentials)", "\(provider)"])
        try await server.stop()
    }

    @Test func aConfiguredRoleSkipsDiscoveryAndTheTokenTTLIsClamped() async throws {
        let server = try await Server.start()
        let (logger, _) = MetadataTestSupport.logger()
        let provider = MetadataTestSupport.provider(
            .alibabaCloudECSRole,
            endpoint: server.endpoint + "/",
            roleName: "ecs-test-role",
            tokenTTL: .seconds(100_000)
        )

        let credentials = try await provider.credentials(logger: logger)

        #expect(credentials.accessKeyID == "STS.AK1")
        #expect(
            server.requests == [
                .init(method: "PUT", path: "/latest/api/token", token: nil, ttl: "21600"),
                .init(method: "GET", path: Self.rolePath, token: Server.issuedToken, ttl: nil),
            ]
        )
        #expect(
            "\(provider)"
                == "alibabaCloudECSRole(role: ecs-test-role, endpoint: 127.0.0.1:\(server.port), token: preferred)"
        )
        try await server.stop()
    }

    @Test(arguments: [Server.TokenReply.status(403), .status(404), .status(500), .close])
    func aRefusedTokenFallsBackToPlainRequests(reply: Server.TokenReply) async throws {
        var behaviour = Server.Behaviour()
        behaviour.token = reply
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()

        let credentials = try await MetadataTestSupport.provider(.alibabaCloudECSRole, endpoint: server.endpoint)
            .credentials(logger: logger)

        #expect(credentials.accessKeyID == "STS.AK1")
        let gets = server.requests.filter { $0.method == "GET" }
        #expect(gets.map(\.path) == [Self.rolesPath, Self.rolePath])
        #expect(gets.allSatisfy { $0.token == nil })
        #expect(MetadataTestSupport.lines(handler).contains { $0.contains("falling back to plain requests") })
        MetadataTestSupport.expectNoSecrets(in: handler)
        try await server.stop()
    }

    @Test func requiredTokenModeNeverSendsAPlainRequest() async throws {
        var behaviour = Server.Behaviour()
        behaviour.token = .status(403)
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()
        let provider = MetadataTestSupport.provider(
            .alibabaCloudECSRole,
            endpoint: server.endpoint,
            tokenMode: .required
        )

        let error = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }

        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("HTTP 403") == true)
        #expect(error?.message.contains("127.0.0.1:\(server.port)/latest/api/token") == true)
        #expect(server.requests.map(\.method) == ["PUT"])
        try await server.stop()
    }

    @Test func disabledTokenModeSendsOnlyPlainRequests() async throws {
        let server = try await Server.start()
        let (logger, _) = MetadataTestSupport.logger()
        let provider = MetadataTestSupport.provider(
            .alibabaCloudECSRole,
            endpoint: server.endpoint,
            tokenMode: .disabled
        )

        _ = try await provider.credentials(logger: logger)

        #expect(server.requests.map(\.method) == ["GET", "GET"])
        #expect(server.requests.allSatisfy { $0.token == nil })
        try await server.stop()
    }

    @Test func aServerThatRequiresTheTokenIsServedInHardenedMode() async throws {
        var behaviour = Server.Behaviour()
        behaviour.requireToken = true
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()

        let credentials = try await MetadataTestSupport.provider(.alibabaCloudECSRole, endpoint: server.endpoint)
            .credentials(logger: logger)
        #expect(credentials.accessKeyID == "STS.AK1")

        let plain = MetadataTestSupport.provider(.alibabaCloudECSRole, endpoint: server.endpoint, tokenMode: .disabled)
        let error = await MetadataTestSupport.credentialsError { _ = try await plain.credentials(logger: logger) }
        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("HTTP 401") == true)
        try await server.stop()
    }

    @Test func anUnattachedRoleIsNotFound() async throws {
        let server = try await Server.start()
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = MetadataTestSupport.provider(
            .alibabaCloudECSRole,
            endpoint: server.endpoint,
            roleName: "other role"
        )

        let error = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }

        #expect(error?.code == .notFound)
        #expect(error?.message.contains("HTTP 404") == true)
        #expect(error?.message.contains("127.0.0.1:\(server.port)\(Self.rolesPath)other%20role") == true)
        #expect(error?.message.contains("not found") == false)  // the response body is never quoted
        MetadataTestSupport.expectNoSecrets(in: handler, and: ["\(error.map { "\($0)" } ?? "")"])
        try await server.stop()
    }

    @Test func noAttachedRoleIsNotFound() async throws {
        var behaviour = Server.Behaviour()
        behaviour.roles = []
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError(
            .alibabaCloudECSRole,
            endpoint: server.endpoint,
            logger: logger
        )

        #expect(error?.code == .notFound)
        #expect(error?.message.contains("no RAM role is attached") == true)
        try await server.stop()
    }

    @Test func malformedJSONIsARefreshFailureThatDoesNotQuoteTheBody() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .raw(status: 200, body: "{\"AccessKeySecret\": \"\(Server.secret(1))\", oops")
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError(
            .alibabaCloudECSRole,
            endpoint: server.endpoint,
            logger: logger
        )

        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("not a credentials document") == true)
        MetadataTestSupport.expectNoSecrets(in: handler, and: ["\(error.map { "\($0)" } ?? "")"])
        try await server.stop()
    }

    @Test func aCodeOtherThanSuccessIsARefreshFailure() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .raw(
            status: 200,
            body: """
                {"Code": "InvalidRole", "AccessKeyId": "STS.AK1", "AccessKeySecret": "\(Server.secret(1))", \
                "SecurityToken": "\(Server.securityToken(1))", "Expiration": "2030-01-02T03:04:05Z"}
                """
        )
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError(
            .alibabaCloudECSRole,
            endpoint: server.endpoint,
            logger: logger
        )

        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("Code InvalidRole instead of Success") == true)
        MetadataTestSupport.expectNoSecrets(in: handler, and: ["\(error.map { "\($0)" } ?? "")"])
        try await server.stop()
    }

    @Test func expiredCredentialsAreRejected() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .valid(expiration: "2001-02-03T04:05:06Z")
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError(
            .alibabaCloudECSRole,
            endpoint: server.endpoint,
            logger: logger
        )

        #expect(error?.code == .expired)
        try await server.stop()
    }

    @Test func aMissingFieldIsIncomplete() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .raw(
            status: 200,
            body: "{\"Code\": \"Success\", \"AccessKeyId\": \"STS.AK1\", \"Expiration\": \"2030-01-02T03:04:05Z\"}"
        )
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError(
            .alibabaCloudECSRole,
            endpoint: server.endpoint,
            logger: logger
        )

        #expect(error?.code == .incomplete)
        #expect(error?.message.contains("AccessKeySecret, SecurityToken") == true)
        try await server.stop()
    }

    @Test func aServerErrorIsARefreshFailureWithTheStatus() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .raw(status: 500, body: "internal error")
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError(
            .alibabaCloudECSRole,
            endpoint: server.endpoint,
            logger: logger
        )

        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("HTTP 500") == true)
        #expect(error?.message.contains("internal error") == false)
        try await server.stop()
    }

    @Test func anUnreachableMetadataServiceIsNotFoundWithoutFallback() async throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let endpoint = "http://127.0.0.1:\(refusing.port)"
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError(.alibabaCloudECSRole, endpoint: endpoint, logger: logger)

        #expect(error?.code == .notFound)
        #expect(error?.message.contains("unreachable") == true, "\(String(describing: error))")
        #expect(error?.message.contains(String(endpoint.dropFirst("http://".count))) == true)
    }

    @Test func aChainMovesOnWhenTheMetadataServiceIsUnreachable() async throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let endpoint = "http://127.0.0.1:\(refusing.port)"
        let (logger, _) = MetadataTestSupport.logger()
        let provider: some CredentialsProvider = .chain(
            .alibabaCloudECSRole(endpoint: endpoint),
            .static(accessKeyID: "AK-fallback", secretAccessKey: "fallback-secret")
        )

        #expect(try await provider.credentials(logger: logger).accessKeyID == "AK-fallback")
    }

    @Test func refreshingRefetchesOnlyNearExpiry() async throws {
        let start = Date()
        let expiration = Date(timeIntervalSince1970: (start.timeIntervalSince1970 + 3600).rounded(.down))
        var behaviour = Server.Behaviour()
        behaviour.credentials = .valid(expiration: MetadataTestSupport.rfc3339(expiration))
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()
        let clock = MetadataTestClock(start)
        // Generous timeouts: a refresh that timed out on a loaded machine would keep the cached pair.
        let provider: some CredentialsProvider = RefreshingCredentialsProvider(
            MetadataTestSupport.provider(.alibabaCloudECSRole, endpoint: server.endpoint),
            now: { clock.now }
        )

        #expect(try await provider.credentials(logger: logger).accessKeyID == "STS.AK1")
        #expect(try await provider.credentials(logger: logger).expiration == expiration)
        clock.advance(by: 30 * 60)
        #expect(try await provider.credentials(logger: logger).accessKeyID == "STS.AK1")
        #expect(server.credentialsFetches == 1)

        // The refresh window is max(5 min, 20 % of the 1 h lifetime) = 12 min before the expiration.
        clock.advance(by: 20 * 60)
        let refreshed = try await provider.credentials(logger: logger)
        #expect(refreshed.accessKeyID == "STS.AK2")
        #expect(refreshed.secretAccessKey == Server.secret(2))
        #expect(server.credentialsFetches == 2)
        MetadataTestSupport.expectNoSecrets(in: handler)
        try await server.stop()
    }
}
