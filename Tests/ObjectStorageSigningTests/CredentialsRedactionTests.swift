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
import Testing

/// No secret or token reaches a log line or an error, whatever the provider does.
struct CredentialsRedactionTests {
    @Test func providersNeverLogSecrets() async throws {
        let (logger, store) = CapturingLogHandler.logger()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(
            ".alibabacloud/credentials",
            "[default]\ntype = sts\naccess_key_id = STS.id\naccess_key_secret = \(TestSecrets.secret)\n"
                + "security_token = \(TestSecrets.token)\n"
        )
        let clock = ManualClock()
        let failures = Counter()
        let environment = [
            "HOME": directory.path,
            "OSS_ACCESS_KEY_ID": "LTAI",
            "OSS_ACCESS_KEY_SECRET": TestSecrets.secret,
            "OSS_SESSION_TOKEN": TestSecrets.token,
        ]
        let providers: [any CredentialsProvider] = [
            .environment(.oss, environment: environment),
            .profile(.alibabaCloud(), environment: environment),
            .static(accessKeyID: "AKID", secretAccessKey: TestSecrets.secret, securityToken: TestSecrets.token),
            .chain(.environment(.obs, environment: [:]), .environment(.oss, environment: environment)),
            RefreshingCredentialsProvider(
                .federated {
                    // Fail with an error whose description holds the secret, after the first call.
                    if failures.increment() > 1 {
                        throw LeakyError(detail: TestSecrets.secret)
                    }
                    return Credentials(
                        accessKeyID: "STS.fed",
                        secretAccessKey: TestSecrets.secret,
                        securityToken: TestSecrets.token,
                        expiration: clock.now.addingTimeInterval(3600)
                    )
                },
                now: { clock.now }
            ),
        ]
        for provider in providers {
            let credentials = try await provider.credentials(logger: logger)
            #expect(credentials.secretAccessKey == TestSecrets.secret)
            #expect(!"\(provider)".contains(TestSecrets.secret))
        }
        // Drive the refreshing provider through a failed refresh (served from cache) and logged warnings.
        clock.advance(by: 3600 - 100)
        _ = try await providers[4].credentials(logger: logger)

        let lines = store.all
        #expect(lines.contains { $0.contains("refreshing credentials failed") })
        for line in lines {
            #expect(!line.contains(TestSecrets.secret), "secret in log line: \(line)")
            #expect(!line.contains(TestSecrets.token), "token in log line: \(line)")
        }
    }

    struct LeakyError: Error, CustomStringConvertible {
        var detail: String
        var description: String { "leaky \(self.detail)" }
    }
}
