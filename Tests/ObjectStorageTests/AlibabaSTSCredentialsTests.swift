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
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

@testable import ObjectStorage

/// Alibaba Cloud STS credentials (AssumeRole from an aliyun CLI `RamRoleArn` profile, AssumeRoleWithOIDC from the
/// RRSA variables) against ``AlibabaSTSTestServer``, and cross-checked with Alibaba's own Python library
/// (alibabacloud_credentials 1.0.12, installed by Scripts/prefetch-peers) asking the same fake for the same answers.
struct AlibabaSTSCredentialsTests {
    static let wrongSecret = "alists-wrong-secret-9c2d"
    static let tokenA = "alists-oidc-token-A-eyJhbGciOiJSUzI1NiJ9.e30.c2ln"
    static let tokenB = "alists-oidc-token-B-eyJhbGciOiJSUzI1NiJ9.e30.c2lo"
    static let expiredToken = "alists-oidc-token-expired-eyJ.e30.eA"
    /// A session policy with spaces: the one value where the documented encoding and `quote_plus` sign differently.
    static let policy =
        #"{"Version": "1", "Statement": [{"Effect": "Allow", "Action": "oss:GetObject", "Resource": "*"}]}"#

    // MARK: AssumeRole from the aliyun CLI's config.json

    @Test func ramRoleArnProfileAssumesTheRoleWithItsSettingsAndCachesTheCredentials() async throws {
        let fake = try await AlibabaSTSTestServer.start()
        let home = try CredentialFilesDirectory()
        defer { home.remove() }
        try home.write(".aliyun/config.json", Self.cliConfig(endpoint: fake.endpoint))
        let (logger, handler) = MetadataTestSupport.logger()
        let chain = ChainCredentialsProvider.standard(.oss, environment: Self.environment(home: home.path))

        let first = try await chain.credentials(logger: logger)
        let second = try await chain.credentials(logger: logger)
        try await fake.stop()

        let grant = AlibabaSTSTestServer.grant(1)
        #expect(first.accessKeyID == grant.accessKeyID)
        #expect(first.secretAccessKey == grant.secret)
        #expect(first.securityToken == grant.securityToken)
        #expect(first.expiration.map { abs($0.timeIntervalSince(grant.expiration)) <= 2 } == true)
        #expect(second == first)
        let requests = fake.requests
        #expect(requests.count == 1, "the second call within the lifetime asked STS again")
        let request = try #require(requests.first)
        #expect(request.status == 200)
        #expect(request.method == "GET")
        #expect(request.action == "AssumeRole")
        #expect(request.parameters["RoleArn"] == AlibabaSTSTestServer.roleARN)
        #expect(request.parameters["RoleSessionName"] == "objstore-ci")
        #expect(request.parameters["DurationSeconds"] == "1800")
        #expect(request.parameters["Policy"] == Self.policy)
        #expect(request.parameters["ExternalId"] == "partner-42")
        #expect(request.parameters["AccessKeyId"] == AlibabaSTSTestServer.sourceAccessKeyID)
        #expect(request.parameters["SecurityToken"] == nil)
        #expect(request.signatureEncoding == .documented)
        Self.expectNoSecrets(in: handler, and: ["\(first)", "\(chain)"], signatures: fake.signatures)
    }

    // MARK: RRSA (AssumeRoleWithOIDC from the three variables)

    @Test func rrsaReadsTheTokenFileAgainAtEachRefresh() async throws {
        let fake = try await AlibabaSTSTestServer.start()
        let home = try CredentialFilesDirectory()
        defer { home.remove() }
        let tokenFile = try home.write("rrsa/token", Self.tokenA)
        // 13 s from the answer: the refreshing cache counts them expired 10 s early, so it refreshes 2–3 s later.
        fake.setGrants([AlibabaSTSTestServer.grant(1, expiringAfterAnswer: 13), AlibabaSTSTestServer.grant(2)])
        fake.expectToken(Self.tokenA)
        var environment = Self.environment(home: home.path)
        environment["ALIBABA_CLOUD_ROLE_ARN"] = AlibabaSTSTestServer.roleARN
        environment["ALIBABA_CLOUD_OIDC_PROVIDER_ARN"] = AlibabaSTSTestServer.oidcProviderARN
        environment["ALIBABA_CLOUD_OIDC_TOKEN_FILE"] = tokenFile
        environment["ALIBABA_CLOUD_STS_ENDPOINT"] = fake.endpoint
        let (logger, handler) = MetadataTestSupport.logger()
        let chain = ChainCredentialsProvider.standard(.oss, environment: environment)

        let first = try await chain.credentials(logger: logger)
        #expect(first.accessKeyID == AlibabaSTSTestServer.grant(1).accessKeyID)
        #expect(first.securityToken == AlibabaSTSTestServer.grant(1).securityToken)
        try home.write("rrsa/token", Self.tokenB)
        fake.expectToken(Self.tokenB)
        let deadline = ContinuousClock.now + .seconds(15)
        var latest = first
        while fake.requests.count < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(250))
            latest = try await chain.credentials(logger: logger)
        }
        try await fake.stop()

        let requests = fake.requests
        try #require(requests.count == 2, "no refresh within 15 s of short-lived credentials")
        #expect(latest.accessKeyID == AlibabaSTSTestServer.grant(2).accessKeyID)
        #expect(latest.secretAccessKey == AlibabaSTSTestServer.grant(2).secret)
        #expect(requests.map(\.action) == ["AssumeRoleWithOIDC", "AssumeRoleWithOIDC"])
        #expect(requests.map(\.status) == [200, 200])
        #expect(requests[0].parameters["OIDCToken"] == Self.tokenA)
        #expect(requests[1].parameters["OIDCToken"] == Self.tokenB, "the token file was not read again")
        for request in requests {
            #expect(request.method == "GET")
            #expect(request.parameters["RoleArn"] == AlibabaSTSTestServer.roleARN)
            #expect(request.parameters["OIDCProviderArn"] == AlibabaSTSTestServer.oidcProviderARN)
            #expect(request.parameters["DurationSeconds"] == "3600")
            #expect(request.parameters["Signature"] == nil && request.parameters["AccessKeyId"] == nil)
        }
        Self.expectNoSecrets(in: handler, and: ["\(first)", "\(latest)", "\(chain)"], signatures: fake.signatures)
    }

    // MARK: Faults

    @Test func anExpiredOrWrongTokenIsRefusedWithSTSCodeAtOnce() async throws {
        let fake = try await AlibabaSTSTestServer.start()
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        fake.expectToken(Self.tokenA, expired: [Self.expiredToken])
        let (logger, handler) = MetadataTestSupport.logger()
        var texts: [String] = []
        for (token, code) in [
            (Self.expiredToken, "AuthenticationFail.OIDCToken.Expired"),
            (Self.tokenB, "AuthenticationFail.OIDCToken.Invalid"),
        ] {
            let file = try directory.write("token-\(code)", token)
            let provider = Self.webIdentity(endpoint: fake.endpoint, tokenFile: file)
            let start = ContinuousClock.now
            let error = await MetadataTestSupport.credentialsError {
                _ = try await provider.credentials(logger: logger)
            }
            #expect(ContinuousClock.now - start < .seconds(5))
            #expect(error?.code == .refreshFailed)
            let text = Self.text(error)
            #expect(text.contains(code), "\(text)")
            #expect(text.contains("HTTP 400"), "\(text)")
            #expect(text.contains(AlibabaSTSTestServer.roleARN), "\(text)")
            texts.append(text)
        }
        try await fake.stop()
        #expect(fake.requests.map(\.status) == [400, 400])
        Self.expectNoSecrets(in: handler, and: texts, signatures: fake.signatures)
    }

    @Test func aWrongSigningSecretIsRefusedAsSignatureDoesNotMatch() async throws {
        let fake = try await AlibabaSTSTestServer.start()
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = Self.assumeRole(endpoint: fake.endpoint, secret: Self.wrongSecret)

        let error = await MetadataTestSupport.credentialsError {
            _ = try await provider.credentials(logger: logger)
        }
        try await fake.stop()

        #expect(error?.code == .refreshFailed)
        let text = Self.text(error)
        #expect(text.contains("SignatureDoesNotMatch") && text.contains("HTTP 400"), "\(text)")
        #expect(fake.requests.count == 1 && fake.requests.first?.signatureEncoding == nil)
        #expect(!fake.signatures.isEmpty)
        Self.expectNoSecrets(in: handler, and: [text, "\(provider)"], signatures: fake.signatures)
    }

    @Test func aRefusalIsAClearErrorWithTheCodeAndTheStatus() async throws {
        let fake = try await AlibabaSTSTestServer.start()
        fake.setBehaviour(
            .refuse(
                status: 403,
                code: "NoPermission",
                message: "You are not authorized to do this action. You should be authorized by RAM."
            )
        )
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = Self.assumeRole(endpoint: fake.endpoint, secret: AlibabaSTSTestServer.sourceSecret)

        let error = await MetadataTestSupport.credentialsError {
            _ = try await provider.credentials(logger: logger)
        }
        try await fake.stop()

        #expect(error?.code == .refreshFailed)
        let text = Self.text(error)
        #expect(text.contains("HTTP 403"), "\(text)")
        #expect(text.contains("NoPermission: You are not authorized to do this action"), "\(text)")
        #expect(text.contains("AssumeRole of \(AlibabaSTSTestServer.roleARN)"), "\(text)")
        #expect(text.contains("127.0.0.1"), "\(text)")
        #expect(fake.requests.first?.signatureEncoding == .documented, "the refusal came after a valid signature")
        Self.expectNoSecrets(in: handler, and: [text], signatures: fake.signatures)
    }

    @Test func anSTSThatNeverAnswersFailsAtTheProviderTimeout() async throws {
        let fake = try await AlibabaSTSTestServer.start()
        fake.setBehaviour(.hang)
        let (logger, handler) = MetadataTestSupport.logger()
        let role = RoleRequest(
            service: .alibabaCloud(endpoint: fake.endpoint, environment: [:]),
            roleARN: AlibabaSTSTestServer.roleARN,
            origin: "the test"
        )
        let source = StaticCredentialsProvider.static(
            accessKeyID: AlibabaSTSTestServer.sourceAccessKeyID,
            secretAccessKey: AlibabaSTSTestServer.sourceSecret
        )
        let provider = STSCredentialsProvider(role: role, proof: .credentials(source), timeout: .seconds(1))

        let start = ContinuousClock.now
        let error = await MetadataTestSupport.credentialsError {
            _ = try await provider.credentials(logger: logger)
        }
        let elapsed = ContinuousClock.now - start
        try await fake.stop()

        #expect(elapsed < .seconds(10), "took \(elapsed)")
        #expect(error?.code == .refreshFailed)
        let text = Self.text(error)
        #expect(text.contains("the request to 127.0.0.1:\(fake.port) failed (deadlineExceeded)"), "\(text)")
        #expect(fake.requests.count == 1 && fake.requests.first?.status == nil)
        Self.expectNoSecrets(in: handler, and: [text], signatures: fake.signatures, requireLines: false)
    }

    @Test func aMissingTokenFileIsUnreadableAndNothingIsSent() async throws {
        let fake = try await AlibabaSTSTestServer.start()
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        let missing = directory.path + "/no-such-token"
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = Self.webIdentity(endpoint: fake.endpoint, tokenFile: missing)

        let error = await MetadataTestSupport.credentialsError {
            _ = try await provider.credentials(logger: logger)
        }
        try await fake.stop()

        #expect(error?.code == .unreadableFile)
        #expect(Self.text(error).contains(missing))
        #expect(fake.requests.isEmpty)
        Self.expectNoSecrets(in: handler, and: [Self.text(error)], signatures: [], requireLines: false)
    }

    // MARK: Cross-check with Alibaba's own library

    @Test func alibabasLibraryGetsTheSameCredentialsFromTheSameAssumeRoleAnswer() async throws {
        let fake = try await AlibabaSTSTestServer.start()
        let grant = AlibabaSTSTestServer.grant(7)
        fake.setGrants([grant])
        let (logger, handler) = MetadataTestSupport.logger()
        let ours = try await Self.assumeRole(
            endpoint: fake.endpoint,
            secret: AlibabaSTSTestServer.sourceSecret,
            policy: Self.policy
        ).credentials(logger: logger)
        let theirs = try await Self.runAlibabaLibrary([
            "action": "AssumeRole", "endpoint": fake.endpoint, "roleArn": AlibabaSTSTestServer.roleARN,
            "sessionName": "objstore-ci", "duration": 1800, "policy": Self.policy, "externalId": "partner-42",
            "accessKeyId": AlibabaSTSTestServer.sourceAccessKeyID, "accessKeySecret": AlibabaSTSTestServer.sourceSecret,
        ])
        try await fake.stop()

        Self.expectSame(ours, theirs, grant)
        let requests = fake.requests
        try #require(requests.count == 2)
        #expect(requests.map(\.status) == [200, 200])
        // Ours signs with the documented encoding, theirs with quote_plus: the policy's spaces tell them apart.
        #expect(requests.map(\.signatureEncoding) == [.documented, .quotePlus])
        #expect(Self.stable(requests[0].parameters) == Self.stable(requests[1].parameters))
        Self.expectNoSecrets(in: handler, and: ["\(ours)"], signatures: fake.signatures)
    }

    @Test func alibabasLibraryGetsTheSameCredentialsFromTheSameOIDCAnswer() async throws {
        let fake = try await AlibabaSTSTestServer.start()
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        let tokenFile = try directory.write("token", Self.tokenA)
        let grant = AlibabaSTSTestServer.grant(8)
        fake.setGrants([grant])
        fake.expectToken(Self.tokenA)
        let (logger, handler) = MetadataTestSupport.logger()
        let ours = try await Self.webIdentity(endpoint: fake.endpoint, tokenFile: tokenFile, policy: Self.policy)
            .credentials(logger: logger)
        let theirs = try await Self.runAlibabaLibrary([
            "action": "AssumeRoleWithOIDC", "endpoint": fake.endpoint, "roleArn": AlibabaSTSTestServer.roleARN,
            "sessionName": "objstore-ci", "duration": 1800, "policy": Self.policy,
            "oidcProviderArn": AlibabaSTSTestServer.oidcProviderARN, "tokenFile": tokenFile,
        ])
        try await fake.stop()

        Self.expectSame(ours, theirs, grant)
        let requests = fake.requests
        try #require(requests.count == 2)
        #expect(requests.map(\.status) == [200, 200])
        #expect(Self.stable(requests[0].parameters) == Self.stable(requests[1].parameters))
        Self.expectNoSecrets(in: handler, and: ["\(ours)"], signatures: [])
    }

    // MARK: Helpers

    /// What Alibaba's library printed: the credentials it obtained.
    struct LibraryCredentials: Decodable {
        var accessKeyId: String
        var accessKeySecret: String
        var securityToken: String
        var expiration: Int64
    }

    /// The Python side: the library's providers built from `ALISTS_INPUT` (JSON), the credentials printed as JSON.
    ///
    /// The library builds `<protocol>://<sts_endpoint>`, its protocol fixed to `https`, but
    /// `TeaCore.compose_url` (Tea/core.py) drops the protocol when the endpoint already starts with `http://` or
    /// `https://`; so `sts_endpoint="http://127.0.0.1:PORT"` reaches the plain-HTTP fake unpatched (its `Host` header
    /// is then the whole endpoint, which the fake ignores).
    static let pythonScript = """
        import json, os, sys
        from alibabacloud_credentials.provider.oidc import OIDCRoleArnCredentialsProvider
        from alibabacloud_credentials.provider.ram_role_arn import RamRoleArnCredentialsProvider
        from alibabacloud_credentials.provider.static_ak import StaticAKCredentialsProvider
        a = json.loads(os.environ['ALISTS_INPUT'])
        if a['action'] == 'AssumeRole':
            p = RamRoleArnCredentialsProvider(
                credentials_provider=StaticAKCredentialsProvider(
                    access_key_id=a['accessKeyId'], access_key_secret=a['accessKeySecret']),
                role_arn=a['roleArn'], role_session_name=a['sessionName'], duration_seconds=a['duration'],
                policy=a['policy'], external_id=a['externalId'], sts_endpoint=a['endpoint'])
        else:
            p = OIDCRoleArnCredentialsProvider(
                role_arn=a['roleArn'], oidc_provider_arn=a['oidcProviderArn'], oidc_token_file_path=a['tokenFile'],
                role_session_name=a['sessionName'], duration_seconds=a['duration'], policy=a['policy'],
                sts_endpoint=a['endpoint'])
        c = p.get_credentials()
        json.dump({'accessKeyId': c.get_access_key_id(), 'accessKeySecret': c.get_access_key_secret(),
                   'securityToken': c.get_security_token(), 'expiration': c.get_expiration()}, sys.stdout)
        """

    static func runAlibabaLibrary(_ input: [String: any Sendable]) async throws -> LibraryCredentials {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let found = path.split(separator: ":").map { "\($0)/python3" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let python = try #require(
            found,
            "python3 is not on PATH (Scripts/prefetch-peers installs alibabacloud_credentials)"
        )
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("ALIBABA_CLOUD_") && !$0.key.lowercased().hasSuffix("_proxy")
        }
        let json = try JSONSerialization.data(withJSONObject: input, options: [.sortedKeys])
        environment["ALISTS_INPUT"] = String(decoding: json, as: UTF8.self)
        let process = try ChildProcess(
            executable: python,
            arguments: ["-c", Self.pythonScript],
            environment: environment
        )
        let (output, errors, termination) = try await onOwnThread {
            let output = process.standardOutput?.readDataToEndOfFile() ?? Data()
            let errors = process.standardError?.readDataToEndOfFile() ?? Data()
            return (output, errors, process.waitForExit())
        }
        try #require(
            termination == ChildProcess.Termination(status: 0, bySignal: false),
            "python3 failed (is alibabacloud_credentials 1.0.12 installed?): \(String(decoding: errors, as: UTF8.self))"
        )
        return try JSONDecoder().decode(LibraryCredentials.self, from: output)
    }

    static func expectSame(
        _ ours: Credentials,
        _ theirs: LibraryCredentials,
        _ grant: AlibabaSTSTestServer.Grant,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(ours.accessKeyID == grant.accessKeyID, sourceLocation: sourceLocation)
        #expect(theirs.accessKeyId == ours.accessKeyID, sourceLocation: sourceLocation)
        #expect(theirs.accessKeySecret == ours.secretAccessKey, sourceLocation: sourceLocation)
        #expect(theirs.securityToken == ours.securityToken, sourceLocation: sourceLocation)
        #expect(ours.expiration == grant.expiration, sourceLocation: sourceLocation)
        #expect(
            theirs.expiration == ours.expiration.map { Int64($0.timeIntervalSince1970) },
            sourceLocation: sourceLocation
        )
    }

    /// The parameters both libraries must send alike: all but the time, the nonce and the signature.
    static func stable(_ parameters: [String: String]) -> [String: String] {
        parameters.filter { !["Timestamp", "SignatureNonce", "Signature"].contains($0.key) }
    }

    static func environment(home: String) -> [String: String] {
        ["HOME": home, "ALIBABA_CLOUD_ECS_METADATA_DISABLED": "true"]
    }

    /// An aliyun CLI config.json whose current profile is a `RamRoleArn` one asking the fake.
    static func cliConfig(endpoint: String) throws -> String {
        let profile: [String: Any] = [
            "name": "ci", "mode": "RamRoleArn",
            "access_key_id": AlibabaSTSTestServer.sourceAccessKeyID,
            "access_key_secret": AlibabaSTSTestServer.sourceSecret,
            "ram_role_arn": AlibabaSTSTestServer.roleARN, "ram_session_name": "objstore-ci",
            "expired_seconds": 1800, "policy": Self.policy, "external_id": "partner-42",
            "sts_endpoint": endpoint, "region_id": "cn-hangzhou",
        ]
        let document: [String: Any] = ["current": "ci", "profiles": [profile]]
        return String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
    }

    static func assumeRole(endpoint: String, secret: String, policy: String? = nil) -> RefreshingCredentialsProvider {
        .assumeRole(
            AlibabaSTSTestServer.roleARN,
            using: .static(accessKeyID: AlibabaSTSTestServer.sourceAccessKeyID, secretAccessKey: secret),
            sessionName: "objstore-ci",
            externalID: "partner-42",
            duration: .seconds(1800),
            policy: policy,
            vendor: .oss,
            endpoint: endpoint
        )
    }

    static func webIdentity(endpoint: String, tokenFile: String, policy: String? = nil) -> RefreshingCredentialsProvider
    {
        .webIdentity(
            roleARN: AlibabaSTSTestServer.roleARN,
            tokenFile: tokenFile,
            providerARN: AlibabaSTSTestServer.oidcProviderARN,
            sessionName: "objstore-ci",
            duration: .seconds(1800),
            policy: policy,
            vendor: .oss,
            endpoint: endpoint
        )
    }

    static func text(_ error: CredentialsError?) -> String {
        error.map { "\($0)" } ?? ""
    }

    /// Every secret, security token and OIDC token these tests hand out or accept.
    static var secrets: [String] {
        [AlibabaSTSTestServer.sourceSecret, Self.wrongSecret, Self.tokenA, Self.tokenB, Self.expiredToken]
            + (1...9).flatMap { [AlibabaSTSTestServer.grant($0).secret, AlibabaSTSTestServer.grant($0).securityToken] }
    }

    /// Asserts that no log line and no given text holds a secret, a token or one of `signatures`.
    static func expectNoSecrets(
        in handler: InMemoryLogHandler,
        and texts: [String],
        signatures: [String],
        requireLines: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = MetadataTestSupport.lines(handler)
        if requireLines {
            #expect(!lines.isEmpty, "the provider logged nothing", sourceLocation: sourceLocation)
        }
        for text in lines + texts {
            for secret in Self.secrets + signatures {
                for spelling in ScannedSecrets.spellings(of: secret) {
                    #expect(!text.contains(spelling), "leaked into: \(text)", sourceLocation: sourceLocation)
                }
            }
        }
    }
}
