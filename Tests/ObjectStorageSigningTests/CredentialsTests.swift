//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// `Credentials` and `CredentialsError`: values, redaction, codes.
struct CredentialsTests {
    @Test func descriptionRedactsSecretAndToken() {
        let credentials = Credentials(
            accessKeyID: "AKID-visible",
            secretAccessKey: CredentialTestSecrets.secret,
            securityToken: CredentialTestSecrets.token,
            expiration: Date(timeIntervalSince1970: 1_700_000_000)
        )
        for text in [
            credentials.description, "\(credentials)", String(reflecting: credentials),
        ] {
            #expect(text.contains("AKID-visible"))
            #expect(text.contains("secretAccessKey: <redacted>"))
            #expect(text.contains("securityToken: <redacted>"))
            #expect(!text.contains(CredentialTestSecrets.secret))
            #expect(!text.contains(CredentialTestSecrets.token))
        }
    }

    @Test func descriptionOmitsAbsentToken() {
        let credentials = Credentials(accessKeyID: "AKID", secretAccessKey: CredentialTestSecrets.secret)
        #expect(credentials.description == "Credentials(accessKeyID: AKID, secretAccessKey: <redacted>)")
    }

    @Test func valuesCompareByAllFields() {
        let a = Credentials(accessKeyID: "AKID", secretAccessKey: "s", securityToken: "t")
        var b = a
        #expect(a == b)
        b.securityToken = "u"
        #expect(a != b)
        #expect(Set([a, b, a]).count == 2)
    }

    @Test func errorCodesAreDistinguishable() {
        let codes: [CredentialsError.Code] = [
            .notFound, .incomplete, .malformedFile, .unreadableFile, .unsupported, .expired, .refreshFailed,
        ]
        #expect(Set(codes).count == codes.count)
        #expect(CredentialsError.notFound("x").code == .notFound)
        #expect(CredentialsError.notFound("x").code != .incomplete)
        #expect(CredentialsError.Code.notFound.description == "notFound")
    }

    @Test func malformedFileErrorNamesPathAndLine() {
        let error = CredentialsError.malformedFile(path: "/tmp/credentials", line: 7, reason: "bad line")
        #expect(error.code == .malformedFile)
        #expect(error.message == "/tmp/credentials:7: bad line")
        #expect(error.description == "malformedFile: /tmp/credentials:7: bad line")
    }
}
