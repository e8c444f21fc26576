//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import InMemoryLogging
import Logging
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

@Suite("No secret in logs or errors")
struct LogRedactionTests {
    @Test("a trace-level run of operations logs no secret, signature or Authorization", arguments: ClientDialect.all)
    func redaction(_ dialect: ClientDialect) async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger.scanning(label: "redaction", alsoTo: handler)
        logger.logLevel = .trace
        let faults = FaultInjector()
        faults.add(FaultRule(operations: [.getObject], trigger: .nth(1), fault: .internalError))
        let secret = LocalObjectServer.developmentCredentials.secretAccessKey
        var descriptions: [String] = []
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(logger: logger)
            try await client.createBucket(bucket: "logs")
            try await client.putObject(PutObjectRequest(bucket: "logs", key: "k", body: .bytes([1])))
            _ = try await client.getObject(GetObjectRequest(bucket: "logs", key: "k")).body.collect(upTo: 10)
            for try await _ in client.listObjects(bucket: "logs") {}
            _ = try await client.presign(bucket: "logs", key: "k")
            let missing = await expectServiceError(.noSuchKey, status: 404) {
                _ = try await client.getObject(GetObjectRequest(bucket: "logs", key: "missing"))
            }
            descriptions.append(missing.map { "\($0)" } ?? "")
        }
        let wrong = Credentials(accessKeyID: "LOCALDEVACCESSKEY", secretAccessKey: "wrong-secret-value")
        let wrongSecret: (inout ObjectStorageClient.Configuration) -> Void = {
            dialect.configure(&$0)
            $0.credentials = .static(accessKeyID: wrong.accessKeyID, secretAccessKey: wrong.secretAccessKey)
        }
        try await LocalObjectServer.withRunning(vendor: dialect.wire, logger: .scanning, configureClient: wrongSecret) {
            client,
            _ in
            let client = client.derived(logger: logger)
            let refused = await expectServiceError(.signatureDoesNotMatch, status: 403) {
                try await client.createBucket(bucket: "logs")
            }
            descriptions.append(refused.map { "\($0)" } ?? "")
            descriptions.append(refused.map { String(reflecting: $0) } ?? "")
        }
        let entries = handler.entries
        #expect(entries.count > 10)
        // A presigned URL may be logged with its signature replaced by REDACTED (its algorithm name and
        // access key id are no secret); an Authorization value or a real signature never.
        let text = (entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n") + descriptions.joined())
            .replacingOccurrences(of: "ignature=REDACTED", with: "")
        for forbidden in [
            secret, "wrong-secret-value", "Authorization", "Signature=", "signature=", "HMAC-SHA256 Credential=",
            "OSS LOCALDEV", "OBS LOCALDEV", "AWS LOCALDEV",
        ] {
            #expect(!text.contains(forbidden), "found \(forbidden)")
        }
    }
}
