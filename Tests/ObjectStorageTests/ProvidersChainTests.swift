//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// The chain provider: order, stopping rules and error aggregation.
struct ProvidersChainTests {
    let logger = Logger.scanning

    @Test func firstProviderThatYieldsWins() async throws {
        let later = CallCounter()
        let provider: some CredentialsProvider = .chain(
            .environment(.oss, environment: [:]),
            .static(accessKeyID: "FIRST", secretAccessKey: "a"),
            .static(accessKeyID: "SECOND", secretAccessKey: "b"),
            .federated {
                later.increment()
                return Credentials(accessKeyID: "THIRD", secretAccessKey: "c")
            }
        )
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "FIRST")
        #expect(later.count == 0)
    }

    @Test func environmentBeforeProfileWhenBothAreSet() async throws {
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        try directory.write(
            ".alibabacloud/credentials",
            "[default]\ntype=access_key\naccess_key_id=FILE\naccess_key_secret=s\n"
        )
        let environment = ["HOME": directory.path, "OSS_ACCESS_KEY_ID": "ENV", "OSS_ACCESS_KEY_SECRET": "s"]
        let envFirst: some CredentialsProvider = .chain(
            .environment(.oss, environment: environment),
            .profile(.alibabaCloud(), environment: environment)
        )
        let profileFirst: some CredentialsProvider = .chain([
            ProfileCredentialsProvider(.alibabaCloud(), environment: environment),
            EnvironmentCredentialsProvider(.oss, environment: environment),
        ])
        #expect(try await envFirst.credentials(logger: self.logger).accessKeyID == "ENV")
        #expect(try await profileFirst.credentials(logger: self.logger).accessKeyID == "FILE")
    }

    @Test func theS3ChainOrdersTheProfilesRoleThenWebIdentityThenTheProfilesKeys() throws {
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        let token = try directory.write("token", "header.payload.signature")
        try directory.write(".aws/config", "[default]\naws_access_key_id = FILE\naws_secret_access_key = s\n")
        let web = ["AWS_ROLE_ARN": "arn:aws:iam::123456789012:role/pod", "AWS_WEB_IDENTITY_TOKEN_FILE": token]
        let home = ["HOME": directory.path, "AWS_EC2_METADATA_DISABLED": "true"]

        func answering(_ environment: [String: String]) throws -> String {
            let chain = ChainCredentialsProvider.standard(.s3, environment: environment)
            #expect(chain.providers.map { "\($0)" }.filter { $0.hasPrefix("profile(aws)") }.count == 1)
            let element = try #require(chain.providers.first { "\($0)" == "profile(aws) or AWS_ROLE_ARN" })
            return "\(try #require(element as? any DelegatingCredentialsProvider).currentProvider())"
        }
        // The profile's keys lose to the environment's web identity...
        #expect(try answering(home.merging(web) { $1 }).hasPrefix("refreshing(webIdentity(arn:aws:iam::123456789012"))
        #expect(try answering(home) == "static(accessKeyID: FILE)")
        // ...which loses to the profile's role.
        try directory.write(
            ".aws/config",
            """
            [default]
            role_arn = arn:aws:iam::123456789012:role/deploy
            source_profile = keys
            [profile keys]
            aws_access_key_id = FILE
            aws_secret_access_key = s
            """
        )
        #expect(
            try answering(home.merging(web) { $1 }).hasPrefix(
                "refreshing(assumeRole(arn:aws:iam::123456789012:role/deploy"
            )
        )
    }

    @Test func allNotFoundAggregatesWhatWasTried() async {
        let provider: some CredentialsProvider = .chain(
            .environment(.oss, environment: [:]),
            .environment(.obs, environment: [:]),
            .profile(.alibabaCloud(), environment: ["HOME": "/nonexistent-home"])
        )
        let error = await #expect(throws: CredentialsError.self) { try await provider.credentials(logger: self.logger) }
        #expect(error?.code == .notFound)
        #expect(
            error?.message
                == "no credentials found; tried "
                + "environment(OSS): OSS_ACCESS_KEY_ID and OSS_ACCESS_KEY_SECRET are not set; "
                + "environment(OBS): OBS_ACCESS_KEY_ID and OBS_SECRET_ACCESS_KEY are not set; "
                + "profile(alibabaCloud): no Alibaba Cloud credentials file at "
                + "/nonexistent-home/.alibabacloud/credentials"
        )
    }

    @Test func aBrokenSourceEndsTheChainWithItsOwnError() async {
        let later = CallCounter()
        let provider: some CredentialsProvider = .chain(
            .environment(.oss, environment: [:]),
            .environment(.s3, environment: ["AWS_ACCESS_KEY_ID": "AKID"]),
            .federated {
                later.increment()
                return Credentials(accessKeyID: "x", secretAccessKey: "y")
            }
        )
        let error = await #expect(throws: CredentialsError.self) { try await provider.credentials(logger: self.logger) }
        #expect(error?.code == .incomplete)
        #expect(error?.message == "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
        #expect(later.count == 0)
    }

    @Test func foreignErrorsPassThrough() async {
        let provider: some CredentialsProvider = .chain(
            .federated { throw UnreachableSource() },
            .static(accessKeyID: "a", secretAccessKey: "b")
        )
        await #expect(throws: UnreachableSource.self) { try await provider.credentials(logger: self.logger) }
    }

    @Test func emptyChainIsNotFound() async {
        let provider = ChainCredentialsProvider([])
        let error = await #expect(throws: CredentialsError.self) { try await provider.credentials(logger: self.logger) }
        #expect(error?.code == .notFound)
    }

    @Test func descriptionListsProvidersWithoutSecrets() {
        let provider: ChainCredentialsProvider = .chain(
            .environment(.oss),
            .static(accessKeyID: "AKID", secretAccessKey: CredentialTestSecrets.secret),
            .refreshing(.federated { throw UnreachableSource() })
        )
        #expect(provider.description == "chain(environment(OSS), static(accessKeyID: AKID), refreshing(federated))")
    }
}

/// The error a test source throws.
private struct UnreachableSource: Error {}
