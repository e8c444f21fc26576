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

/// `objstore sign`: the request line, every header to send, and `--explain`.
struct SignCommandTests {
    @Test func ossV1HeaderSigningMatchesThePublishedExample() async throws {
        // The OSS API documentation's V1 example (vector "published-oss-v1-header-api-doc-nelson"):
        // PUT /oss-example/nelson signed with 44CF9590006BF252F707 → 26NBxoKdsyly4EDv6inkoDft/yA=.
        let environment = CLIProcess.isolatedEnvironment([
            "OSS_ACCESS_KEY_ID": "44CF9590006BF252F707",
            "OSS_ACCESS_KEY_SECRET": "OtxrzxIsfpFjA7SwPzILwy8Bw21TLhquhboDYROV",
        ])
        let result = try await CLIProcess.run(
            [
                "sign", "oss://oss-example/nelson", "--signature", "v1", "--method", "PUT",
                "--date", "Thu, 17 Nov 2005 18:49:58 GMT",
                "--header", "Content-Md5: ODBGOERFMDMzQTczRUY3NUE3NzA5QzdFNUYzMDQxNEM=",
                "--header", "Content-Type: text/html",
                "--header", "X-OSS-Meta-Author: foo@bar.com",
                "--header", "X-OSS-Magic: abracadabra",
            ],
            environment: environment
        )
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "PUT https://oss-example.oss-cn-hangzhou.aliyuncs.com/nelson")
        #expect(lines.contains("Authorization: OSS 44CF9590006BF252F707:26NBxoKdsyly4EDv6inkoDft/yA="))
        #expect(lines.contains("Date: Thu, 17 Nov 2005 18:49:58 GMT"))
    }

    @Test func explainPrintsTheCanonicalRequestAndStringToSign() async throws {
        let environment = CLIProcess.isolatedEnvironment([
            "AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE",
            "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ])
        let result = try await CLIProcess.run(
            ["sign", "s3://examplebucket/a/b/c.txt", "--date", "1709611506", "--explain"],
            environment: environment
        )
        #expect(result.status == 0, "\(result.standardError)")
        // botocore sends the empty-payload hash for a bodiless GET (vector s3-sigv4-header-get-plain).
        #expect(
            result.standardOutput.contains(
                "X-Amz-Content-SHA256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
            )
        )
        #expect(result.standardOutput.contains("--- canonical request ---\nGET\n/a/b/c.txt\n"))
        #expect(
            result.standardOutput.contains(
                "--- string to sign ---\nAWS4-HMAC-SHA256\n20240305T040506Z\n20240305/us-east-1/s3/aws4_request\n"
            )
        )
    }

    @Test func bodyFileIsHashedAsThePayload() async throws {
        let environment = CLIProcess.isolatedEnvironment([
            "AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE",
            "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ])
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("objstore-sign-body-\(UUID())")
        try Data("hello".utf8).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        let result = try await CLIProcess.run(
            ["sign", "s3://examplebucket/a/b/c.txt", "--method", "PUT", "--body-file", body.path, "--json"],
            environment: environment
        )
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        )
        let headers = try #require(object["headers"] as? [String: String])
        let payloadHash = headers.first { $0.key.lowercased() == "x-amz-content-sha256" }?.value
        // SHA-256("hello"), the payload hash botocore sends for this body (vector s3-sigv4-header-put-content-type).
        #expect(payloadHash == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
        #expect(object["method"] as? String == "PUT")
    }
}
