//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the peer is and how to reach it, from environment variables set by `run`:
/// `INTEROP_ENDPOINT` (required), `INTEROP_ACCESS_KEY` and `INTEROP_SECRET_KEY` (absent: anonymous),
/// `INTEROP_REGION` (default `us-east-1`), `INTEROP_WORK` (a scratch directory, default `/tmp`),
/// and for read-only peers `INTEROP_BUCKET`, `INTEROP_KEY`, `INTEROP_SIZE` (a fixture written with ``Pattern``).
struct Settings: Sendable {
    var endpoint: String
    var accessKey: String?
    var secretKey: String?
    var region: String
    var work: String
    var fixtureBucket: String?
    var fixtureKey: String?
    var fixtureSize: Int?

    static func fromEnvironment() throws -> Settings {
        func value(_ name: String) -> String? {
            guard let raw = getenv(name) else { return nil }
            let text = String(cString: raw)
            return text.isEmpty ? nil : text
        }
        guard let endpoint = value("INTEROP_ENDPOINT") else { throw CheckFailure("INTEROP_ENDPOINT is not set") }
        return Settings(
            endpoint: endpoint,
            accessKey: value("INTEROP_ACCESS_KEY"),
            secretKey: value("INTEROP_SECRET_KEY"),
            region: value("INTEROP_REGION") ?? "us-east-1",
            work: value("INTEROP_WORK") ?? "/tmp",
            fixtureBucket: value("INTEROP_BUCKET"),
            fixtureKey: value("INTEROP_KEY"),
            fixtureSize: value("INTEROP_SIZE").flatMap { Int($0) }
        )
    }

    /// A client configuration: path-style, quick retries; `secret` overrides the secret (for wrong-key checks),
    /// `signatureVersion` the S3 default (SigV4).
    func configuration(
        accessKey overrideKey: String? = nil,
        secret overrideSecret: String? = nil,
        signatureVersion: SignatureVersion? = nil
    ) throws -> ObjectStorageClient.Configuration {
        let endpoint = try Endpoint(url: self.endpoint)
        var configuration: ObjectStorageClient.Configuration
        if let accessKey = overrideKey ?? self.accessKey, let secret = overrideSecret ?? self.secretKey {
            configuration = ObjectStorageClient.Configuration(
                vendor: .s3,
                endpoint: endpoint,
                region: self.region,
                credentials: .static(accessKeyID: accessKey, secretAccessKey: secret),
                signatureVersion: signatureVersion
            )
        } else {
            configuration = ObjectStorageClient.Configuration(
                vendor: .s3,
                endpoint: endpoint,
                region: self.region,
                credentials: nil
            )
        }
        configuration.addressing = .path
        configuration.retry = .exponentialJitter(maxAttempts: 3, base: .milliseconds(20), cap: .milliseconds(200))
        configuration.timeout = .seconds(120)
        return configuration
    }
}
