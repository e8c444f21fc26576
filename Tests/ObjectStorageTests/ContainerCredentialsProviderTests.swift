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

/// The AWS container (ECS, EKS Pod Identity) and Alibaba Cloud credentials-URI providers against the fake
/// metadata service on 127.0.0.1.
struct ContainerCredentialsProviderTests {
    typealias Server = MetadataTestServer
    private static let relativeURI = "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"
    private static let fullURI = "AWS_CONTAINER_CREDENTIALS_FULL_URI"
    private static let tokenVariable = "AWS_CONTAINER_AUTHORIZATION_TOKEN"
    private static let tokenFileVariable = "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"
    private static let credentialsURI = "ALIBABA_CLOUD_CREDENTIALS_URI"

    /// Authorization tokens; like the server's secrets they must never reach a log line or an error.
    private static let environmentToken = "Bearer container-env-token-DO-NOT-LOG"
    private static let firstFileToken = "container-file-token-1-DO-NOT-LOG"
    private static let secondFileToken = "container-file-token-2-DO-NOT-LOG"

    private static func aws(
        _ environment: [String: String],
        base: String = "http://169.254.170.2",
        timeout: Duration = MetadataTestSupport.timeout
    ) -> ContainerCredentialsProvider {
        ContainerCredentialsProvider(
            .awsContainer,
            environment: environment,
            timeout: timeout,
            transport: MetadataTestSupport.transport,
            awsContainerBase: base
        )
    }

    private static func alibaba(
        _ environment: [String: String],
        timeout: Duration = MetadataTestSupport.timeout
    ) -> ContainerCredentialsProvider {
        ContainerCredentialsProvider(
            .alibabaCloudCredentialsURI,
            environment: environment,
            timeout: timeout,
            transport: MetadataTestSupport.transport
        )
    }

    /// Asserts that no secret, security token or authorization token is in the log or in `texts`.
    private static func expectNoSecrets(
        in handler: InMemoryLogHandler,
        and texts: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        MetadataTestSupport.expectNoSecrets(in: handler, and: texts, sourceLocation: sourceLocation)
        for text in MetadataTestSupport.lines(handler) + texts {
            for token in [Self.environmentToken, Self.firstFileToken, Self.secondFileToken] {
                #expect(!text.contains(token), "leaked into: \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aRelativeURIIsAskedOnTheContainerHostWithTheAuthorizationToken() async throws {
        let server = try await Server.start()
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = Self.aws(
            [Self.relativeURI: "/v2/credentials/task-id", Self.tokenVariable: Self.environmentToken],
            base: server.endpoint
        )

        let credentials = try await provider.credentials(logger: logger)

        #expect(credentials.accessKeyID == "ASIAAK1")
        #expect(credentials.secretAccessKey == Server.secret(1))
        #expect(credentials.securityToken == Server.securityToken(1))
        #expect(credentials.expiration == Date(timeIntervalSince1970: 1_893_553_445))  // 2030-01-02T03:04:05Z
        #expect(
            server.requests == [
                .init(
                    method: "GET",
                    path: "/v2/credentials/task-id",
                    token: nil,
                    ttl: nil,
                    authorization: Self.environmentToken,
                    accept: "application/json"
                )
            ]
        )
        #expect("\(provider)" == "awsContainer(endpoint: 127.0.0.1:\(server.port))")
        Self.expectNoSecrets(in: handler, and: ["\(credentials)", "\(provider)"])
        try await server.stop()
    }

    @Test func theRelativeURIWinsOverTheFullURIAndGetsItsSlash() async throws {
        let server = try await Server.start()
        let (logger, _) = MetadataTestSupport.logger()
        let provider = Self.aws(
            [Self.relativeURI: "v2/credentials/task-id", Self.fullURI: "http://127.0.0.1:9/elsewhere"],
            base: server.endpoint
        )

        _ = try await provider.credentials(logger: logger)

        #expect(server.requests.map(\.path) == ["/v2/credentials/task-id"])
        #expect(server.requests.map(\.authorization) == [nil])
        try await server.stop()
    }

    @Test func descriptionsNameTheHostOnly() {
        let relative: ContainerCredentialsProvider = .awsContainer(environment: [Self.relativeURI: "/v2/creds/id"])
        let full: ContainerCredentialsProvider = .awsContainer(
            environment: [Self.fullURI: "https://auth.example.com:8443/v1/credentials?secret=query"]
        )
        let unset: ContainerCredentialsProvider = .awsContainer(environment: [:])
        let invalid: ContainerCredentialsProvider = .awsContainer(environment: [Self.fullURI: "file:///etc/passwd"])
        let uri: ContainerCredentialsProvider = .alibabaCloudCredentialsURI(
            environment: [Self.credentialsURI: "http://10.0.0.1:8080/credentials?role=a"]
        )
        let uriUnset: ContainerCredentialsProvider = .alibabaCloudCredentialsURI(environment: [:])

        #expect("\(relative)" == "awsContainer(endpoint: 169.254.170.2)")
        #expect("\(full)" == "awsContainer(endpoint: auth.example.com:8443)")
        #expect("\(unset)" == "awsContainer(not configured)")
        #expect("\(invalid)" == "awsContainer(unsupported endpoint)")
        #expect("\(uri)" == "alibabaCloudCredentialsURI(endpoint: 10.0.0.1:8080)")
        #expect("\(uriUnset)" == "alibabaCloudCredentialsURI(not configured)")
    }

    @Test func aFullURIOnLoopbackSendsTheTokenFileReadAtEveryFetch() async throws {
        let scratch = try ScratchDirectory()
        let tokenFile = scratch.file("eks-pod-identity-token")
        try Data((Self.firstFileToken + "\n").utf8).write(to: URL(fileURLWithPath: tokenFile))
        let server = try await Server.start()
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = Self.aws([
            Self.fullURI: server.endpoint + "/v2/credentials/pod",
            Self.tokenFileVariable: tokenFile,
            Self.tokenVariable: Self.environmentToken,  // the file wins
        ])

        let first = try await provider.credentials(logger: logger)
        try Data(Self.secondFileToken.utf8).write(to: URL(fileURLWithPath: tokenFile))
        let second = try await provider.credentials(logger: logger)

        #expect(first.accessKeyID == "ASIAAK1")
        #expect(second.accessKeyID == "ASIAAK2")
        #expect(server.requests.map(\.authorization) == [Self.firstFileToken, Self.secondFileToken])
        #expect(server.requests.map(\.accept) == ["application/json", "application/json"])
        Self.expectNoSecrets(in: handler, and: ["\(provider)"])
        try await server.stop()
    }

    @Test func theServerRefusingTheTokenIsARefreshFailureWithoutTheToken() async throws {
        var behaviour = Server.Behaviour()
        behaviour.containerAuthorization = "another token"
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await Self.aws([
                Self.fullURI: server.endpoint + "/v2/credentials/pod?id=1",
                Self.tokenVariable: Self.environmentToken,
            ])
            .credentials(logger: logger)
        }

        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("127.0.0.1:\(server.port)/v2/credentials/pod answered HTTP 401") == true)
        #expect(error?.message.contains("id=1") == false)
        Self.expectNoSecrets(in: handler, and: ["\(error.map { "\($0)" } ?? "")"])
        try await server.stop()
    }

    @Test(arguments: [
        "http://192.0.2.1/v2/credentials",
        "http://169.254.169.254/latest/meta-data/iam/security-credentials/role",
        "http://127.0.0.1.example.com/v2/credentials",
        "http://[::ffff:127.0.0.1]/v2/credentials",
        "http://user@127.0.0.1/v2/credentials",
        "ftp://127.0.0.1/v2/credentials",
        "127.0.0.1/v2/credentials",
        "http://127.0.0.1:http/v2/credentials",
    ])
    func aFullURIThatIsNotAllowedIsRefusedWithoutARequest(uri: String) async throws {
        let (logger, handler) = MetadataTestSupport.logger()
        let start = ContinuousClock.now

        let error = await MetadataTestSupport.credentialsError {
            _ = try await Self.aws([Self.fullURI: uri, Self.tokenVariable: Self.environmentToken])
                .credentials(logger: logger)
        }

        #expect(error?.code == .unsupported)
        #expect(error?.message.contains(Self.fullURI) == true)
        #expect(error?.message.contains("/v2/credentials") == false)
        // A request to 192.0.2.1 (TEST-NET-1) or 169.254.169.254 would have waited for the connect timeout.
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(!MetadataTestSupport.lines(handler).contains { $0.contains("fetching credentials") })
        Self.expectNoSecrets(in: handler, and: ["\(error.map { "\($0)" } ?? "")"])
    }

    @Test(arguments: ["127.0.0.1", "127.9.9.9", "[::1]", "[0:0:0:0:0:0:0:1]", "localhost", "LOCALHOST"])
    func aFullURIOnALoopbackHostIsAllowed(host: String) async throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await Self.aws(
                [Self.fullURI: "http://\(host):\(refusing.port)/v2/credentials"],
                timeout: .seconds(5)
            )
            .credentials(logger: logger)
        }

        // Sent, and refused by the port: not refused by the provider.
        #expect(error?.code == .refreshFailed, "\(String(describing: error))")
    }

    @Test(arguments: ["Bearer abc\r\nX-Injected: 1", "abc\n", "\rabc"])
    func anEnvironmentTokenWithALineBreakIsRefused(token: String) async throws {
        let server = try await Server.start()
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await Self.aws(
                [Self.relativeURI: "/v2/credentials/id", Self.tokenVariable: token],
                base: server.endpoint
            )
            .credentials(logger: logger)
        }

        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("line break") == true)
        #expect(error?.message.contains(Self.tokenVariable) == true)
        #expect(error?.message.contains("abc") == false)
        #expect(server.requests.isEmpty)
        try await server.stop()
    }

    @Test func aTokenFileWithALineBreakInsideIsRefusedAndAMissingOneIsUnreadable() async throws {
        let scratch = try ScratchDirectory()
        let tokenFile = scratch.file("token")
        try Data((Self.firstFileToken + "\nsecond line\n").utf8).write(to: URL(fileURLWithPath: tokenFile))
        let server = try await Server.start()
        let (logger, handler) = MetadataTestSupport.logger()

        let broken = await MetadataTestSupport.credentialsError {
            _ = try await Self.aws(
                [Self.relativeURI: "/v2/credentials/id", Self.tokenFileVariable: tokenFile],
                base: server.endpoint
            )
            .credentials(logger: logger)
        }
        let missing = await MetadataTestSupport.credentialsError {
            _ = try await Self.aws(
                [Self.relativeURI: "/v2/credentials/id", Self.tokenFileVariable: scratch.file("absent")],
                base: server.endpoint
            )
            .credentials(logger: logger)
        }

        #expect(broken?.code == .unsupported)
        #expect(broken?.message.contains(tokenFile) == true)
        #expect(missing?.code == .unreadableFile)
        #expect(missing?.message.contains(scratch.file("absent")) == true)
        #expect(server.requests.isEmpty)
        Self.expectNoSecrets(in: handler, and: [broken, missing].map { "\($0.map { "\($0)" } ?? "")" })
        try await server.stop()
    }

    @Test func neitherVariableIsNotFoundNamingBoth() async throws {
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await Self.aws([Self.tokenVariable: Self.environmentToken, Self.relativeURI: ""])
                .credentials(logger: logger)
        }

        #expect(error?.code == .notFound)
        #expect(error?.message.contains(Self.relativeURI) == true)
        #expect(error?.message.contains(Self.fullURI) == true)
        let chain: some CredentialsProvider = .chain(
            .awsContainer(environment: [:]),
            .static(accessKeyID: "AK-fallback", secretAccessKey: "fallback-secret")
        )
        #expect(try await chain.credentials(logger: logger).accessKeyID == "AK-fallback")
    }

    @Test func aConfiguredButUnreachableEndpointIsARefreshFailureSoAChainStops() async throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await Self.aws([Self.fullURI: "http://127.0.0.1:\(refusing.port)/v2/credentials/pod"])
                .credentials(logger: logger)
        }

        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("127.0.0.1:\(refusing.port)") == true)
        #expect(error?.message.contains("unreachable") == true)
        #expect(error?.message.contains(Self.fullURI) == true)
    }

    @Test func theAlibabaCloudCredentialsURIIsAPlainGET() async throws {
        let server = try await Server.start()
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = Self.alibaba([Self.credentialsURI: server.endpoint + "/alibaba/credentials?role=a%20b"])

        let credentials = try await provider.credentials(logger: logger)

        #expect(credentials.accessKeyID == "STS.AK1")
        #expect(credentials.secretAccessKey == Server.secret(1))
        #expect(credentials.securityToken == Server.securityToken(1))
        #expect(
            server.requests == [
                .init(method: "GET", path: "/alibaba/credentials", token: nil, ttl: nil, query: "role=a%20b")
            ]
        )
        #expect("\(provider)" == "alibabaCloudCredentialsURI(endpoint: 127.0.0.1:\(server.port))")
        Self.expectNoSecrets(in: handler, and: ["\(credentials)", "\(provider)"])
        try await server.stop()
    }

    @Test func anUnsetCredentialsURIIsNotFoundAndACodeOtherThanSuccessARefreshFailure() async throws {
        let (logger, handler) = MetadataTestSupport.logger()
        let unset = await MetadataTestSupport.credentialsError {
            _ = try await Self.alibaba([:]).credentials(logger: logger)
        }
        #expect(unset?.code == .notFound)
        #expect(unset?.message.contains(Self.credentialsURI) == true)

        var behaviour = Server.Behaviour()
        behaviour.credentials = .raw(
            status: 200,
            body: """
                {"Code": "Failed", "AccessKeyId": "STS.AK1", "AccessKeySecret": "\(Server.secret(1))", \
                "SecurityToken": "\(Server.securityToken(1))", "Expiration": "2030-01-02T03:04:05Z"}
                """
        )
        let server = try await Server.start(behaviour)
        let failed = await MetadataTestSupport.credentialsError {
            _ = try await Self.alibaba([Self.credentialsURI: server.endpoint + "/alibaba/credentials"])
                .credentials(logger: logger)
        }
        #expect(failed?.code == .refreshFailed)
        #expect(failed?.message.contains("Code Failed instead of Success") == true)
        Self.expectNoSecrets(in: handler, and: ["\(failed.map { "\($0)" } ?? "")"])
        try await server.stop()
    }

    /// Both protocols, on an endpoint that accepts the connection and never answers, fail with a
    /// `CredentialsError` within their timeout, not after the transport's 30 s idle timeout.
    @Test(arguments: [true, false])
    func anEndpointThatNeverAnswersFailsFast(aws: Bool) async throws {
        var behaviour = Server.Behaviour()
        behaviour.hang = true
        let server = try await Server.start(behaviour)
        let (logger, handler) = MetadataTestSupport.logger()
        let provider =
            aws
            ? Self.aws(
                [Self.fullURI: server.endpoint + "/v2/credentials/pod", Self.tokenVariable: Self.environmentToken],
                timeout: .seconds(1)
            )
            : Self.alibaba([Self.credentialsURI: server.endpoint + "/alibaba/credentials"], timeout: .seconds(1))

        let start = ContinuousClock.now
        let error = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }
        let elapsed = ContinuousClock.now - start

        #expect(elapsed < .seconds(5), "took \(elapsed)")
        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("did not answer within 1 s") == true, "\(String(describing: error))")
        #expect(server.requests.map(\.method) == ["GET"])
        Self.expectNoSecrets(in: handler, and: ["\(error.map { "\($0)" } ?? "")"])
        try await server.stop()
    }

    @Test func aResponseWhoseBodyNeverComesFailsWithinTheTimeout() async throws {
        var behaviour = Server.Behaviour()
        behaviour.stallBody = true
        let server = try await Server.start(behaviour)
        let (logger, _) = MetadataTestSupport.logger()
        // The head arrives, so only the provider's timeout (not the transport's 30 s idle timeout) ends the wait.
        let provider = Self.aws([Self.fullURI: server.endpoint + "/v2/credentials/pod"], timeout: .seconds(1))

        let start = ContinuousClock.now
        let error = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }

        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(error?.code == .refreshFailed)
        #expect(error?.message.contains("did not answer within 1 s") == true, "\(String(describing: error))")
        try await server.stop()
    }
}
