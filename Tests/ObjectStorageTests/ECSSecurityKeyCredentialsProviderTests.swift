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
import Testing

/// The Huawei Cloud (OBS) ECS security-key provider against a fake metadata service on 127.0.0.1.
struct ECSSecurityKeyCredentialsProviderTests {
    typealias Server = MetadataTestServer
    private static let securityKeyPath = "/openstack/latest/securitykey"

    @Test func fetchesTheSecurityKeyWithASessionToken() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .valid(expiration: "2030-01-02T03:04:05.583000Z")
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = MetadataTestSupport.provider(.huaweiCloudECS, endpoint: server.endpoint)
        let credentials = try await provider.credentials(logger: logger)

        #expect(credentials.accessKeyID == "STS.AK1")
        #expect(credentials.secretAccessKey == Server.secret(1))
        #expect(credentials.securityToken == Server.securityToken(1))
        let expiration = try #require(credentials.expiration)
        #expect(abs(expiration.timeIntervalSince1970 - 1_893_553_445.583) < 0.0005)  // 2030-01-02T03:04:05.583Z
        #expect(
            server.requests == [
                .init(method: "PUT", path: "/meta-data/latest/api/token", token: nil, ttl: "300"),
                .init(method: "GET", path: Self.securityKeyPath, token: Server.issuedToken, ttl: nil),
            ]
        )
        #expect("\(provider)" == "huaweiCloudECS(endpoint: 127.0.0.1:\(server.port), token: preferred)")
        MetadataTestSupport.expectNoSecrets(in: handler, and: ["\(credentials)"])
        try await server.stop()
    }

    @Test func theTokenTTLIsClampedToTheServicesRange() async throws {
        let server = try await Server.start()
        let (logger, _) = MetadataTestSupport.logger()

        _ = try await MetadataTestSupport.provider(.huaweiCloudECS, endpoint: server.endpoint, tokenTTL: .seconds(5))
            .credentials(logger: logger)

        #expect(server.requests.first?.ttl == "60")
        try await server.stop()
    }

    @Test(arguments: [Server.TokenReply.status(404), .status(405), .close])
    func aRefusedTokenFallsBackToAPlainRequest(reply: Server.TokenReply) async throws {
        var behaviour = Server.Behaviour()
        behaviour.token = reply
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()

        let credentials = try await MetadataTestSupport.provider(.huaweiCloudECS, endpoint: server.endpoint)
            .credentials(logger: logger)

        #expect(credentials.accessKeyID == "STS.AK1")
        #expect(server.requests.last == .init(method: "GET", path: Self.securityKeyPath, token: nil, ttl: nil))
        MetadataTestSupport.expectNoSecrets(in: handler)
        try await server.stop()
    }

    @Test func requiredTokenModeFailsWhenNoTokenIsIssued() async throws {
        var behaviour = Server.Behaviour()
        behaviour.token = .status(404)
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()
        let provider = MetadataTestSupport.provider(.huaweiCloudECS, endpoint: server.endpoint, tokenMode: .required)

        let error = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }

        #expect(error?.code == .refreshFailed)
        #expect(server.requests.map(\.method) == ["PUT"])
        try await server.stop()
    }

    @Test func noAgencyIsNotFound() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .raw(status: 404, body: "Please configure Cloud Service Agency first")
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError(
            .huaweiCloudECS,
            endpoint: server.endpoint,
            logger: logger
        )

        #expect(error?.code == .notFound)
        #expect(error?.message.contains("127.0.0.1:\(server.port)\(Self.securityKeyPath) answered HTTP 404") == true)
        #expect(error?.message.contains("Agency") == false)
        try await server.stop()
    }

    @Test func malformedJSONIsARefreshFailureThatDoesNotQuoteTheBody() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .raw(status: 200, body: "{\"credential\": {\"secret\": \"\(Server.secret(1))\"")
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError(
            .huaweiCloudECS,
            endpoint: server.endpoint,
            logger: logger
        )

        #expect(error?.code == .refreshFailed)
        MetadataTestSupport.expectNoSecrets(in: handler, and: ["\(error.map { "\($0)" } ?? "")"])
        try await server.stop()
    }

    @Test func aMissingCredentialObjectOrFieldIsIncomplete() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .raw(status: 200, body: "{\"other\": 1}")
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()
        let provider = MetadataTestSupport.provider(.huaweiCloudECS, endpoint: server.endpoint)

        let noObject = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }
        #expect(noObject?.code == .incomplete)
        #expect(noObject?.message.contains("no credential object") == true)

        server.update {
            $0.credentials = .raw(status: 200, body: "{\"credential\": {\"access\": \"AK\", \"secret\": \"s\"}}")
        }
        let noField = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }
        #expect(noField?.code == .incomplete)
        #expect(noField?.message.contains("securitytoken, expires_at") == true)
        try await server.stop()
    }

    @Test func expiredCredentialsAreRejected() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .valid(expiration: "2001-02-03T04:05:06.000000Z")
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError(
            .huaweiCloudECS,
            endpoint: server.endpoint,
            logger: logger
        )

        #expect(error?.code == .expired)
        try await server.stop()
    }

    @Test func refreshingRefetchesOnlyNearExpiry() async throws {
        let start = Date()
        let expiration = Date(timeIntervalSince1970: (start.timeIntervalSince1970 + 3600).rounded(.down))
        var behaviour = Server.Behaviour()
        behaviour.credentials = .valid(expiration: MetadataTestSupport.rfc3339(expiration))
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()
        let clock = MetadataTestClock(start)
        let provider: some CredentialsProvider = RefreshingCredentialsProvider(
            InstanceMetadataCredentialsProvider(
                service: .huaweiCloudECS,
                endpoint: server.endpoint,
                transport: MetadataTestSupport.transport
            ),
            now: { clock.now }
        )

        #expect(try await provider.credentials(logger: logger).accessKeyID == "STS.AK1")
        clock.advance(by: 40 * 60)
        #expect(try await provider.credentials(logger: logger).accessKeyID == "STS.AK1")
        #expect(server.credentialsFetches == 1)

        clock.advance(by: 10 * 60)  // 10 min before the expiration: inside the 12-minute refresh window
        #expect(try await provider.credentials(logger: logger).accessKeyID == "STS.AK2")
        #expect(server.credentialsFetches == 2)
        MetadataTestSupport.expectNoSecrets(in: handler)
        try await server.stop()
    }
}
