//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import InMemoryLogging
import ObjectStorage
import ObjectStorageSigning
import Testing

/// Presigned URLs in logs have their signature and session token redacted.
@Suite("Presigned URL redaction", .timeLimit(.minutes(1)))
struct URLRedactionTests {
    struct Scheme: Sendable, CustomTestStringConvertible {
        var vendor: StorageVendor
        var version: SignatureVersion
        /// The query parameter holding the signature in this scheme's URLs.
        var signatureName: String
        var testDescription: String { "\(version)" }
    }

    static let schemes = [
        Scheme(vendor: .oss, version: .ossV4, signatureName: "x-oss-signature"),
        Scheme(vendor: .oss, version: .ossV1, signatureName: "Signature"),
        Scheme(vendor: .obs, version: .obs, signatureName: "Signature"),
        Scheme(vendor: .s3, version: .sigV4, signatureName: "X-Amz-Signature"),
    ]

    @Test("the client logs a presigned URL without its query (signature, token)", arguments: schemes)
    func clientLog(_ scheme: Scheme) async throws {
        let logs = InMemoryLogHandler()
        var configuration = ObjectStorageClient.Configuration(
            vendor: scheme.vendor,
            endpoint: try Endpoint(url: "https://storage.example.com"),
            region: scheme.vendor == .oss ? "cn-hangzhou" : "us-east-1",
            credentials: StaticCredentialsProvider(TestSecrets.sessionCredentials),
            signatureVersion: scheme.version
        )
        configuration.addressing = .path
        let client = ObjectStorageClient(configuration: configuration, logger: .capturing(logs))
        let presigned = try await client.presign(bucket: "bkt", key: "dir/report.pdf")
        let signature = try #require(Self.value(of: scheme.signatureName, in: presigned.url))
        #expect(presigned.url.contains(TestSecrets.sessionToken))

        let logged = logs.entries.compactMap { $0.metadata["os.url"].map { "\($0)" } }
        let line = try #require(logged.first, "the presign was not logged with its URL")
        #expect(line == "https://storage.example.com/bkt/dir/report.pdf")
        let everything = logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(!everything.contains(signature))
        #expect(!everything.contains(TestSecrets.sessionToken))
        #expect(URLRedaction.redacting(presigned.url).contains("\(scheme.signatureName)=REDACTED"))
        #expect(!URLRedaction.redacting(presigned.url).contains(signature))
    }

    @Test("redaction covers every scheme's names, any case, percent-encoded names and fragments")
    func redaction() {
        let url =
            "https://h/k?Expires=1&OSSAccessKeyId=AK&Signature=abc%2B&security-token=tok&x-oss-signature=s4"
            + "&X-Amz-Signature=s3&x-amz-security-token=t2&X%2DAmz%2DSignature=enc&x-obs-security-token=t3&keep=1#frag"
        #expect(
            URLRedaction.redacting(url)
                == "https://h/k?Expires=1&OSSAccessKeyId=AK&Signature=REDACTED&security-token=REDACTED"
                + "&x-oss-signature=REDACTED&X-Amz-Signature=REDACTED&x-amz-security-token=REDACTED"
                + "&X%2DAmz%2DSignature=REDACTED&x-obs-security-token=REDACTED&keep=1#frag"
        )
        #expect(URLRedaction.redacting("https://h/k") == "https://h/k")
        #expect(URLRedaction.redacting("https://h/k?signature") == "https://h/k?signature")
    }

    /// The raw value of a query parameter.
    static func value(of name: String, in url: String) -> String? {
        guard let query = url.split(separator: "?", maxSplits: 1).last else { return nil }
        for parameter in query.split(separator: "&") where parameter.hasPrefix(name + "=") {
            return String(parameter.dropFirst(name.count + 1))
        }
        return nil
    }
}
