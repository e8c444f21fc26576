//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Every secret key, session token and password the test suite hands to the code under test: none
/// may ever appear in a log line, an error description, a checkpoint file or the CLI's standard error.
///
/// Only distinctive values are listed; generic ones (`"secret"`, `"tok+/="`, `"pw"`) would match
/// ordinary words. `ReliabilityTests`' "every secret literal in Tests/ is scanned" test reads the
/// test sources and fails when a new distinctive literal is not listed here.
public enum ScannedSecrets {
    /// The values, each with where the tests use it.
    public static let all: [String] = [
        // ObjectStorageReliabilityTests (TestSecrets).
        "reliability-secret-9f8e7d6c5b4a",
        "reliability-session-token-1a2b3c4d5e6f",
        // ObjectStorageTests: ClientRedirectAndEncodingTests (the credentials a redirect must not carry away).
        "redirect-test-secret-5d2a",
        "redirect-test-session-token-7c1e",
        // ObjectStorageTests: ClientConnectFailureTests (an endpoint that cannot be reached).
        "connect-failure-secret-3b9e",
        // ObjectStorageTests: LocalObjectServerWithRunningTests (a key pair the server is configured to accept).
        "with-running-other-secret-4e7b",
        // CLITests: ServeAnnouncementTests (tokens a pasted export line must clear).
        "stale-session-token-",
        // LocalObjectServer.developmentCredentials: ObjectStorageTests, LocalServerTests, CLITests.
        "localdev-secret-key-not-for-production",
        // Wrong secrets: LocalServerTests' signature tests, LogRedactionTests, ObjectsCommandTests.
        "not-the-secret",
        "wrong-secret-value",
        // CheckpointSecurityTests.
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "FwoGZXIvYXdzEXAMPLESESSIONTOKEN",
        // CLITests: SignCommandTests, PresignCommandTests.
        "OtxrzxIsfpFjA7SwPzILwy8Bw21TLhquhboDYROV",
        "FixedTestAccessKeySecret0123456789ab",
        "FixedObsSecretKey0123456789abcdefghijklmn",
        "CAISFixedSTSToken+with/slash=and+plus/0123456789abcdefABCDEF==",
        // SigningTests: credentials, presigning and provider tests.
        "SECRETabc123/+xyz",
        "TOKENsts-9f8e7d",
        "session-token-value",
        "TopSecretValue",
        "ossSecret",
        "ossToken",
        "devsecret",
        "devtoken",
        "configsecret",
        "credssecret",
        "stssecret",
        "clisecret",
        // ObjectStorageTests: ProvidersProfileTests; SigningTests: ProfileResolutionTests (role sources).
        "basesecret",
        "/var/run/rrsa",
        // ObjectStorageTests: the instance-metadata test server's secrets, tokens and metadata token
        // all end in this marker; the ECS fallback credentials.
        "-DO-NOT-LOG",
        "fallback-secret",
        // ObjectStorageTests: EC2RoleCredentialsProviderTests (the secret and session token moto_server's IMDS
        // hands out).
        "test-secret-key",
        "test-session-token",
        // ObjectStorageTests: ProcessCredentialsProviderTests (what the credential process scripts print, and a
        // secret passed as a command-line argument).
        "process-credentials-secret-8d3f",
        "process-credentials-token-2e9a",
        "process-credentials-argument-5b7c",
        // ObjectStorageTests: AlibabaSTSCredentialsTests and AlibabaSTSTestServer (the AssumeRole signing secret, a
        // wrong one, and the secrets, security tokens and OIDC tokens the fake Alibaba Cloud STS hands out or accepts).
        "alists-source-secret-6a1f",
        "alists-wrong-secret-9c2d",
        "alists-issued-secret-",
        "alists-security-token-",
        "alists-oidc-token-",
    ]

    /// The forms in which a value could leak: as is, percent-encoded (a URL's query) and
    /// JSON-escaped (`/` written as `\/`, as `JSONEncoder` does by default).
    ///
    /// - Parameter secret: A value from ``all``.
    /// - Returns: The distinct spellings to look for.
    public static func spellings(of secret: String) -> [String] {
        var result = [secret]
        let percentEncoded = percentEncode(secret)
        if percentEncoded != secret { result.append(percentEncoded) }
        let jsonEscaped = secret.split(separator: "/", omittingEmptySubsequences: false).joined(separator: "\\/")
        if jsonEscaped != secret { result.append(jsonEscaped) }
        return result
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters.
    static func percentEncode(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return result
    }
}
