//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageTestSupport
import Testing

/// `objstore presign` and `objstore sign` as scripts call them. Expected URLs and signatures are the
/// official SDKs' output for the same inputs (Fixtures/vectors: the ids are named per test).
struct PresignCommandTests {
    static let ossEnvironment = CLIProcess.isolatedEnvironment([
        "OSS_ACCESS_KEY_ID": "LTAI5tFixedTestAccessKeyId",
        "OSS_ACCESS_KEY_SECRET": "FixedTestAccessKeySecret0123456789ab",
    ])
    static let obsEnvironment = CLIProcess.isolatedEnvironment([
        "OBS_ACCESS_KEY_ID": "HPUAFIXEDTESTACCESSKEY",
        "OBS_SECRET_ACCESS_KEY": "FixedObsSecretKey0123456789abcdefghijklmn",
    ])
    static let awsEnvironment = CLIProcess.isolatedEnvironment([
        "AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE",
        "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ])
    /// 2024-03-05T04:05:06Z, the vectors' signing time.
    static let vectorTime = "1709611506"

    @Test func ossV1MatchesOSS2() async throws {
        // oss2-v1-presign-get-plain (oss2 escapes '/' in the path; the signature is what matters).
        let result = try await CLIProcess.run(
            [
                "presign", "oss://examplebucket/a/b/c.txt", "--signature", "v1", "--expires", "3600", "--date",
                Self.vectorTime,
            ],
            environment: Self.ossEnvironment
        )
        #expect(result.status == 0)
        #expect(
            result.standardOutput
                == "https://examplebucket.oss-cn-hangzhou.aliyuncs.com/a/b/c.txt?OSSAccessKeyId=LTAI5tFixedTestAccessKeyId"
                + "&Expires=1709615106&Signature=3PKwYPiQ2C%2BhtiGU168PpvZVpeA%3D\n"
        )
    }

    @Test func ossV4IsTheDefaultAndMatchesOSSV2() async throws {
        // ossv2-v4-presign-get-plain, with the time given as ISO 8601.
        let result = try await CLIProcess.run(
            ["presign", "oss://examplebucket/a/b/c.txt", "--expires", "3600", "--date", "2024-03-05T04:05:06Z"],
            environment: Self.ossEnvironment
        )
        #expect(result.status == 0)
        #expect(
            result.standardOutput.hasSuffix(
                "&x-oss-signature=2752e64983f97753edbfbce9dca1fab1f1d10253fafb3975940503e4a3b690bc\n"
            )
        )
        #expect(result.standardOutput.hasPrefix("https://examplebucket.oss-cn-hangzhou.aliyuncs.com/a/b/c.txt?"))
    }

    @Test func obsDefaultsToTheOBSSignature() async throws {
        // obs-obs-presign-get-plain
        let result = try await CLIProcess.run(
            ["presign", "obs://examplebucket/a/b/c.txt", "--expires", "3600", "--date", Self.vectorTime],
            environment: Self.obsEnvironment
        )
        #expect(result.status == 0)
        let url = try #require(URLComponents(string: result.standardOutput.trimmingCharacters(in: .newlines)))
        #expect(url.host == "examplebucket.obs.cn-north-4.myhuaweicloud.com")
        #expect(url.queryItems?.first { $0.name == "Signature" }?.value == "4gNr7JJnIOiD4MsV8FXF2+RP1F4=")
        #expect(url.queryItems?.first { $0.name == "Expires" }?.value == "1709615106")
    }

    @Test func s3HeadPresignMatchesBotocore() async throws {
        // s3-sigv4-presign-head-plain
        let result = try await CLIProcess.run(
            [
                "presign", "s3://examplebucket/a/b/c.txt", "--method", "HEAD", "--expires", "3600", "--date",
                Self.vectorTime,
            ],
            environment: Self.awsEnvironment
        )
        #expect(result.status == 0)
        #expect(
            result.standardOutput.hasSuffix(
                "X-Amz-Signature=7884dad0de4b0fdc758d6522397c0719012e48302e84a03c8d17f35ded342549\n"
            )
        )
    }

    @Test func profileChoosesTheKeysThatSignOverTheEnvironment() async throws {
        // s3-sigv4-presign-head-plain again, its keys now in profile 'dev' while the environment holds others.
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        try directory.write(
            ".aws/credentials",
            """
            [dev]
            aws_access_key_id = AKIAIOSFODNN7EXAMPLE
            aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
            """
        )
        var environment = Self.awsEnvironment
        environment["HOME"] = directory.path
        environment["AWS_ACCESS_KEY_ID"] = "AKIAOTHERKEY00000000"
        let head = ["s3://examplebucket/a/b/c.txt", "--method", "HEAD", "--expires", "3600", "--date", Self.vectorTime]
        let presigned = try await CLIProcess.run(["presign"] + head + ["--profile", "dev"], environment: environment)
        #expect(presigned.status == 0, "\(presigned.standardError)")
        #expect(
            presigned.standardOutput.hasSuffix(
                "X-Amz-Signature=7884dad0de4b0fdc758d6522397c0719012e48302e84a03c8d17f35ded342549\n"
            )
        )
        let signed = try await CLIProcess.run(
            ["sign", "s3://examplebucket/a/b/c.txt", "--date", Self.vectorTime, "--profile", "dev"],
            environment: environment
        )
        #expect(signed.status == 0, "\(signed.standardError)")
        #expect(signed.standardOutput.contains("Credential=AKIAIOSFODNN7EXAMPLE/20240305/"))
        let post = try await CLIProcess.run(
            ["presign-post", "s3://examplebucket/uploads/a.txt", "--date", Self.vectorTime, "--profile", "dev"],
            environment: environment
        )
        #expect(post.status == 0, "\(post.standardError)")
        #expect(post.standardOutput.contains("AKIAIOSFODNN7EXAMPLE/20240305/"))
        #expect(!post.standardOutput.contains("AKIAOTHERKEY"))

        let missing = try await CLIProcess.run(["presign"] + head + ["--profile", "nope"], environment: environment)
        #expect(missing.status == 77)
        #expect(missing.standardError.contains("nope"), "\(missing.standardError)")
        let obs = try await CLIProcess.run(
            ["presign", "obs://examplebucket/a", "--profile", "dev"],
            environment: Self.obsEnvironment
        )
        #expect(obs.status == 64)
        #expect(obs.standardError.contains("obs has no profile files"))
    }

    @Test func localhostEndpointUsesPathStyleWithThePort() async throws {
        // s3-sigv4-presign-get-compat-path-port
        let result = try await CLIProcess.run(
            [
                "presign", "s3://examplebucket/a/b/c.txt", "--endpoint", "http://127.0.0.1:9000",
                "--expires", "3600", "--date", Self.vectorTime,
            ],
            environment: Self.awsEnvironment
        )
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("http://127.0.0.1:9000/examplebucket/a/b/c.txt?"))
        #expect(
            result.standardOutput.hasSuffix(
                "X-Amz-Signature=06bcee45fa1b39095549521b1bc1bfb383d0af0f8a31eda6fcbdd4c26f5978bd\n"
            )
        )
    }

    @Test func keyIsTakenVerbatim() async throws {
        let key = "/lead?q=1#frag%41 b//c/"
        let result = try await CLIProcess.run(
            ["presign", "s3://examplebucket/" + key, "--date", Self.vectorTime],
            environment: Self.awsEnvironment
        )
        #expect(result.status == 0)
        let url = try #require(URLComponents(string: result.standardOutput.trimmingCharacters(in: .newlines)))
        #expect(url.path == "/" + key)
        #expect(url.percentEncodedPath == "//lead%3Fq%3D1%23frag%2541%20b//c/")
    }

    @Test func jsonOutputNamesTheContractFields() async throws {
        let result = try await CLIProcess.run(
            [
                "presign", "oss://examplebucket/a/b/c.txt", "--expires", "3600", "--date", Self.vectorTime,
                "--json", "--header", "Content-Type: text/plain", "--method", "PUT",
            ],
            environment: Self.ossEnvironment
        )
        #expect(result.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        )
        #expect(object["method"] as? String == "PUT")
        #expect(object["expiresAt"] as? String == "2024-03-05T05:05:06Z")
        #expect((object["url"] as? String)?.contains("x-oss-signature=") == true)
        let headers = try #require(object["signedHeaders"] as? [String: String])
        #expect(headers["Content-Type"] == "text/plain")
    }

    @Test func stsTokenFromTheEnvironmentIsCarried() async throws {
        var environment = Self.ossEnvironment
        environment["OSS_SESSION_TOKEN"] = "CAISFixedSTSToken+with/slash=and+plus/0123456789abcdefABCDEF=="
        // oss2-v4-presign-get-token
        let result = try await CLIProcess.run(
            ["presign", "oss://examplebucket/a/b/c.txt", "--expires", "3600", "--date", Self.vectorTime],
            environment: environment
        )
        #expect(result.status == 0)
        let url = try #require(URLComponents(string: result.standardOutput.trimmingCharacters(in: .newlines)))
        #expect(
            url.queryItems?.first { $0.name == "x-oss-security-token" }?.value
                == "CAISFixedSTSToken+with/slash=and+plus/0123456789abcdefABCDEF=="
        )
        #expect(
            url.queryItems?.first { $0.name == "x-oss-signature" }?.value
                == "da5be94e6964065004af6db3122315626b154756e2b0a35f296e8759c186ded3"
        )
    }
}
