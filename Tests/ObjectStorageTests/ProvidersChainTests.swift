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
