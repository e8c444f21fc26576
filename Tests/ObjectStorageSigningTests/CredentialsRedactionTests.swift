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

/// No secret or token reaches a log line or an error, whatever the provider does.
struct CredentialsRedactionTests {
    @Test func providersNeverLogSecrets() async throws {
        let (logger, store) = CapturingLogHandler.logger()
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        try directory.write(
            ".alibabacloud/credentials",
            "[default]\ntype = sts\naccess_key_id = STS.id\naccess_key_secret = \(CredentialTestSecrets.secret)\n"
                + "security_token = \(CredentialTestSecrets.token)\n"
        )
        let clock = ManualClock()
        let failures = CallCounter()
        let environment = [
            "HOME": directory.path,
            "OSS_ACCESS_KEY_ID": "LTAI",
            "OSS_ACCESS_KEY_SECRET": CredentialTestSecrets.secret,
            "OSS_SESSION_TOKEN": CredentialTestSecrets.token,
        ]
        let providers: [any CredentialsProvider] = [
            .environment(.oss, environment: environment),
            .static(
                accessKeyID: "AKID",
                secretAccessKey: CredentialTestSecrets.secret,
                securityToken: CredentialTestSecrets.token
            ),
            .chain(.environment(.obs, environment: [:]), .environment(.oss, environment: environment)),
            RefreshingCredentialsProvider(
                .federated {
                    // Fail with an error whose description holds the secret, after the first call.
                    if failures.increment() > 1 {
                        throw LeakyError(detail: CredentialTestSecrets.secret)
                    }
                    return Credentials(
                        accessKeyID: "STS.fed",
                        secretAccessKey: CredentialTestSecrets.secret,
                        securityToken: CredentialTestSecrets.token,
                        expiration: clock.now.addingTimeInterval(3600)
                    )
                },
                now: { clock.now }
            ),
        ]
        for provider in providers {
            let credentials = try await provider.credentials(logger: logger)
            #expect(credentials.secretAccessKey == CredentialTestSecrets.secret)
            #expect(!"\(provider)".contains(CredentialTestSecrets.secret))
        }
        // Drive the refreshing provider through a failed refresh (served from cache) and logged warnings.
        clock.advance(by: 3600 - 100)
        _ = try await providers[3].credentials(logger: logger)

        let lines = store.all
        #expect(lines.contains { $0.contains("refreshing credentials failed") })
        for line in lines {
            #expect(!line.contains(CredentialTestSecrets.secret), "secret in log line: \(line)")
            #expect(!line.contains(CredentialTestSecrets.token), "token in log line: \(line)")
        }
    }

    struct LeakyError: Error, CustomStringConvertible {
        var detail: String
        var description: String { "leaky \(self.detail)" }
    }
}
