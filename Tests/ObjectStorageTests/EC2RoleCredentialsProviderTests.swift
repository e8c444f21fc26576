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

/// The AWS EC2 instance-role provider (IMDSv2) against the fake metadata service on 127.0.0.1 and against
/// moto_server, and the fast failure of every instance-metadata provider on an endpoint that never answers.
struct EC2RoleCredentialsProviderTests {
    typealias Server = MetadataTestServer
    private static let rolesPath = "/latest/meta-data/iam/security-credentials/"
    private static let rolePath = "/latest/meta-data/iam/security-credentials/ec2-test-role"

    private static func provider(
        _ server: Server,
        roleName: String? = nil,
        tokenMode: InstanceMetadataTokenMode = InstanceMetadataCredentialsProvider.defaultTokenMode
    ) -> InstanceMetadataCredentialsProvider {
        MetadataTestSupport.provider(.awsEC2Role, endpoint: server.endpoint, roleName: roleName, tokenMode: tokenMode)
    }

    @Test func imdsV2AsksForATokenThenTheRoleThenTheCredentials() async throws {
        let server = try await Server.start()
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = Self.provider(server)

        let credentials = try await provider.credentials(logger: logger)

        #expect(credentials.accessKeyID == "ASIAAK1")
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
        #expect("\(provider)" == "awsEC2Role(role: <discovered>, endpoint: 127.0.0.1:\(server.port), token: preferred)")
        MetadataTestSupport.expectNoSecrets(in: handler, and: ["\(credentials)", "\(provider)"])
        try await server.stop()
    }

    @Test func theFactoryUsesTheIMDSAddressAndANamedRoleSkipsDiscovery() async throws {
        let factoryDefault: InstanceMetadataCredentialsProvider = .awsEC2Role()
        #expect("\(factoryDefault)" == "awsEC2Role(role: <discovered>, endpoint: 169.254.169.254, token: preferred)")
        let server = try await Server.start()
        let (logger, _) = MetadataTestSupport.logger()

        let credentials = try await MetadataTestSupport.provider(
            .awsEC2Role,
            endpoint: server.endpoint,
            roleName: "ec2-test-role",
            tokenTTL: .seconds(100_000)
        )
        .credentials(logger: logger)

        #expect(credentials.accessKeyID == "ASIAAK1")
        #expect(
            server.requests == [
                .init(method: "PUT", path: "/latest/api/token", token: nil, ttl: "21600"),
                .init(method: "GET", path: Self.rolePath, token: Server.issuedToken, ttl: nil),
            ]
        )
        try await server.stop()
    }

    @Test(arguments: [403, 404, 405])
    func aTokenRefusedAsBotocoreExpectsFallsBackToIMDSv1(status: Int) async throws {
        var behaviour = Server.Behaviour()
        behaviour.token = .status(status)
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()

        let credentials = try await Self.provider(server).credentials(logger: logger)

        #expect(credentials.accessKeyID == "ASIAAK1")
        #expect(
            server.requests == [
                .init(method: "PUT", path: "/latest/api/token", token: nil, ttl: "300"),
                .init(method: "GET", path: Self.rolesPath, token: nil, ttl: nil),
                .init(method: "GET", path: Self.rolePath, token: nil, ttl: nil),
            ]
        )
        #expect(MetadataTestSupport.lines(handler).contains { $0.contains("falling back to plain requests") })
        MetadataTestSupport.expectNoSecrets(in: handler)
        try await server.stop()
    }

    @Test func aTokenRequestAnswered400FailsWithoutFallbackAsInBotocore() async throws {
        var behaviour = Server.Behaviour()
        behaviour.token = .status(400)
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await Self.provider(server).credentials(logger: logger)
        }

        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("127.0.0.1:\(server.port)/latest/api/token answered HTTP 400") == true)
        #expect(server.requests.map(\.method) == ["PUT"])
        try await server.stop()
    }

    @Test func requiredTokenModeFailsWhenNoTokenIsIssued() async throws {
        var behaviour = Server.Behaviour()
        behaviour.token = .status(404)
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await Self.provider(server, tokenMode: .required).credentials(logger: logger)
        }

        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("AWS EC2 instance role") == true)
        #expect(error?.message.contains("HTTP 404") == true)
        #expect(server.requests.map(\.method) == ["PUT"])
        MetadataTestSupport.expectNoSecrets(in: handler, and: ["\(error.map { "\($0)" } ?? "")"])
        try await server.stop()
    }

    @Test func anErrorCodeInTheDocumentIsARefreshFailureThatDoesNotQuoteTheBody() async throws {
        var behaviour = Server.Behaviour()
        behaviour.credentials = .raw(
            status: 200,
            body: """
                {"Code": "AssumeRoleUnauthorizedAccess", "Message": "EC2 cannot assume the role \(Server.secret(1))", \
                "LastUpdated": "2024-01-01T00:00:00Z"}
                """
        )
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await Self.provider(server).credentials(logger: logger)
        }

        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("Code AssumeRoleUnauthorizedAccess instead of Success") == true)
        MetadataTestSupport.expectNoSecrets(in: handler, and: ["\(error.map { "\($0)" } ?? "")"])
        try await server.stop()
    }

    @Test func noAttachedRoleIsNotFound() async throws {
        var behaviour = Server.Behaviour()
        behaviour.iamRoles = []
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await Self.provider(server).credentials(logger: logger)
        }

        #expect(error?.code == .notFound)
        #expect(error?.message.contains("no IAM role is attached") == true)
        try await server.stop()
    }

    /// Every instance-metadata provider, on an endpoint that accepts the connection and never answers, fails
    /// with a `CredentialsError` naming the host within about twice its timeout (the token `PUT` times out, the
    /// plain `GET` it falls back to times out too), not after the transport's idle timeouts.
    @Test(arguments: ["awsEC2Role", "alibabaCloudECSRole", "huaweiCloudECS"])
    func aMetadataServiceThatNeverAnswersFailsFast(serviceName: String) async throws {
        let service: InstanceMetadataService =
            switch serviceName {
            case "awsEC2Role": .awsEC2Role
            case "alibabaCloudECSRole": .alibabaCloudECSRole
            default: .huaweiCloudECS
            }
        var behaviour = Server.Behaviour()
        behaviour.hang = true
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()
        // The test transport's 30 s idle and connect timeouts: only the provider's timeout can end the wait.
        let provider = InstanceMetadataCredentialsProvider(
            service: service,
            endpoint: server.endpoint,
            timeout: .seconds(1),
            transport: MetadataTestSupport.transport
        )

        let start = ContinuousClock.now
        let error = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }
        let elapsed = ContinuousClock.now - start

        #expect(elapsed < .seconds(5), "took \(elapsed)")
        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("127.0.0.1:\(server.port)") == true)
        #expect(error?.message.contains("did not answer within 1 s") == true, "\(String(describing: error))")
        #expect(server.requests.map(\.method) == ["PUT", "GET"])
        MetadataTestSupport.expectNoSecrets(in: handler, and: ["\(error.map { "\($0)" } ?? "")"])
        try await server.stop()
    }

    @Test func requiredTokenModeOnAServiceThatNeverAnswersCostsOneTimeout() async throws {
        var behaviour = Server.Behaviour()
        behaviour.hang = true
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()
        let provider = InstanceMetadataCredentialsProvider(
            service: .awsEC2Role,
            endpoint: server.endpoint,
            tokenMode: .required,
            timeout: .seconds(1),
            transport: MetadataTestSupport.transport
        )

        let start = ContinuousClock.now
        let error = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }

        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("requesting a metadata token") == true)
        #expect(server.requests.map(\.method) == ["PUT"])
        try await server.stop()
    }

    @Test func fetchesCredentialsFromMotoServer() async throws {
        let moto = try await MotoServer.start()
        defer { moto.stop() }
        let (logger, handler) = MetadataTestSupport.logger()

        let credentials = try await InstanceMetadataCredentialsProvider.awsEC2Role(
            endpoint: "http://127.0.0.1:\(moto.port)",
            tokenMode: .required,
            timeout: MetadataTestSupport.timeout
        )
        .credentials(logger: logger)

        #expect(credentials.accessKeyID == "test-key")
        #expect(credentials.secretAccessKey == MotoServer.secretAccessKey)
        #expect(credentials.securityToken == MotoServer.sessionToken)
        #expect((credentials.expiration ?? .distantPast) > Date())
        let lines = MetadataTestSupport.lines(handler)
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(
                !line.contains(MotoServer.secretAccessKey) && !line.contains(MotoServer.sessionToken),
                "\(line)"
            )
        }
    }
}

/// A fresh moto_server (`moto[server]`, installed by Scripts/prefetch-peers before the tests run) on a free port
/// of 127.0.0.1, stopped with ``stop()``. Among moto's APIs it serves IMDSv2 (`PUT /latest/api/token`, then role
/// `default-role` with access key id `test-key`); MotoSTSTests uses it for STS.
struct MotoServer {
    /// The secret and session token moto hands out.
    static let secretAccessKey = "test-secret-key"
    static let sessionToken = "test-session-token"

    let port: Int
    private let process: ChildProcess

    /// `moto_server`'s path on `PATH`, or `nil`.
    static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/moto_server" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    static func start() async throws -> MotoServer {
        let executable = try #require(
            Self.executable,
            "moto_server is not on PATH (Scripts/prefetch-peers installs it)"
        )
        for _ in 0..<3 {
            let reserved = try RefusingPort()
            let port = reserved.port
            reserved.release()
            let process = try ChildProcess(
                executable: executable,
                arguments: ["-H", "127.0.0.1", "-p", "\(port)"],
                environment: ProcessInfo.processInfo.environment,
                standardOutput: .discard,
                standardError: .discard
            )
            // Python's start-up on a loaded machine: allow up to a minute.
            for _ in 0..<600 {
                if let response = try? await HTTPClientFetch.get("http://127.0.0.1:\(port)/latest/meta-data/"),
                    response.status > 0
                {
                    return MotoServer(port: port, process: process)
                }
                if !process.isRunning { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            process.stop()
        }
        throw MotoStartFailed()
    }

    func stop() {
        self.process.stop()
    }

    struct MotoStartFailed: Error {}
}
