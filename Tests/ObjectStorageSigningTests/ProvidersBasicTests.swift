//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// The static, environment and federated providers.
struct ProvidersBasicTests {
    let logger = Logger.scanning

    // MARK: static

    @Test func staticReturnsItsKeys() async throws {
        let provider: some CredentialsProvider = .static(
            accessKeyID: "AKID",
            secretAccessKey: "secret",
            securityToken: "token"
        )
        let credentials = try await provider.credentials(logger: self.logger)
        #expect(credentials == Credentials(accessKeyID: "AKID", secretAccessKey: "secret", securityToken: "token"))
    }

    @Test func staticWithEmptySecretIsIncomplete() async {
        let provider: some CredentialsProvider = .static(accessKeyID: "AKID", secretAccessKey: "")
        let error = await #expect(throws: CredentialsError.self) { try await provider.credentials(logger: self.logger) }
        #expect(error?.code == .incomplete)
    }

    @Test func staticDropsEmptyToken() async throws {
        let provider: some CredentialsProvider = .static(accessKeyID: "AKID", secretAccessKey: "s", securityToken: "")
        #expect(try await provider.credentials(logger: self.logger).securityToken == nil)
    }

    // MARK: environment

    @Test(arguments: [
        (
            StorageVendor.oss,
            ["OSS_ACCESS_KEY_ID": "LTAIid", "OSS_ACCESS_KEY_SECRET": "ossSecret", "OSS_SESSION_TOKEN": "ossToken"]
        ),
        (
            .obs,
            ["OBS_ACCESS_KEY_ID": "LTAIid", "OBS_SECRET_ACCESS_KEY": "ossSecret", "OBS_SECURITY_TOKEN": "ossToken"]
        ),
        (
            .s3,
            ["AWS_ACCESS_KEY_ID": "LTAIid", "AWS_SECRET_ACCESS_KEY": "ossSecret", "AWS_SESSION_TOKEN": "ossToken"]
        ),
    ])
    func environmentReadsEachVendorsNames(
        vendor: StorageVendor,
        environment: [String: String]
    )
        async throws
    {
        let provider: some CredentialsProvider = .environment(vendor, environment: environment)
        let credentials = try await provider.credentials(logger: self.logger)
        #expect(
            credentials == Credentials(accessKeyID: "LTAIid", secretAccessKey: "ossSecret", securityToken: "ossToken")
        )
    }

    @Test func environmentIgnoresOtherVendorsNames() async {
        let provider: some CredentialsProvider = .environment(
            .oss,
            environment: ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"]
        )
        let error = await #expect(throws: CredentialsError.self) { try await provider.credentials(logger: self.logger) }
        #expect(error?.code == .notFound)
        #expect(error?.message == "OSS_ACCESS_KEY_ID and OSS_ACCESS_KEY_SECRET are not set")
    }

    @Test func environmentTrimsValuesAndTreatsEmptyAsUnset() async throws {
        let provider: some CredentialsProvider = .environment(
            .obs,
            environment: [
                "OBS_ACCESS_KEY_ID": "  id\n", "OBS_SECRET_ACCESS_KEY": "\tsecret ", "OBS_SECURITY_TOKEN": "",
            ]
        )
        let credentials = try await provider.credentials(logger: self.logger)
        #expect(credentials == Credentials(accessKeyID: "id", secretAccessKey: "secret"))
    }

    @Test(arguments: [
        (["OSS_ACCESS_KEY_ID": "id"], "OSS_ACCESS_KEY_ID is set but OSS_ACCESS_KEY_SECRET is not"),
        (
            ["OSS_ACCESS_KEY_ID": "id", "OSS_ACCESS_KEY_SECRET": "  "],
            "OSS_ACCESS_KEY_ID is set but OSS_ACCESS_KEY_SECRET is not"
        ),
        (
            ["OSS_ACCESS_KEY_SECRET": CredentialTestSecrets.secret],
            "OSS_ACCESS_KEY_SECRET is set but OSS_ACCESS_KEY_ID is not"
        ),
        (
            ["OSS_SESSION_TOKEN": CredentialTestSecrets.token],
            "OSS_SESSION_TOKEN is set but OSS_ACCESS_KEY_ID and OSS_ACCESS_KEY_SECRET are not"
        ),
    ])
    func environmentHalfSetIsIncompleteAndNamesTheMissingVariable(environment: [String: String], message: String) async
    {
        let provider: some CredentialsProvider = .environment(.oss, environment: environment)
        let error = await #expect(throws: CredentialsError.self) { try await provider.credentials(logger: self.logger) }
        #expect(error?.code == .incomplete)
        #expect(error?.message == message)
        #expect(!"\(String(describing: error))".contains(CredentialTestSecrets.secret))
        #expect(!"\(String(describing: error))".contains(CredentialTestSecrets.token))
    }

    // MARK: federated

    @Test func federatedCallsTheClosureEachTime() async throws {
        let calls = CallCounter()
        let provider: some CredentialsProvider = .federated {
            let n = calls.increment()
            return Credentials(accessKeyID: "STS.\(n)", secretAccessKey: "s", securityToken: "t")
        }
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "STS.1")
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "STS.2")
        #expect(calls.count == 2)
    }

    @Test func federatedPassesTheClosuresErrorThrough() async {
        let provider: some CredentialsProvider = .federated { throw SourceDown() }
        await #expect(throws: SourceDown.self) { try await provider.credentials(logger: self.logger) }
    }

    @Test func federatedRejectsEmptyKeys() async {
        let provider: some CredentialsProvider = .federated { Credentials(accessKeyID: "", secretAccessKey: "s") }
        let error = await #expect(throws: CredentialsError.self) { try await provider.credentials(logger: self.logger) }
        #expect(error?.code == .incomplete)
    }
}
