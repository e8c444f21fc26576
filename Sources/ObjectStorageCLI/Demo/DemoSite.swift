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
import ObjectStorageLocalServer
import ObjectStorageSigning

/// Where the demo runs: the embedded ``LocalObjectServer`` (the default), or the endpoint configured
/// with `--endpoint` or the vendor's endpoint variable, with the CLI's usual credentials.
struct DemoSite: Sendable {
    /// A signature scheme shown in the presigned-URL table.
    struct Scheme: Sendable {
        var label: String
        var client: ObjectStorageClient
    }

    /// The dialect of the transfers.
    var vendor: StorageVendor
    /// The endpoint URL, for display.
    var endpoint: String
    /// The client of the transfers (the vendor's default signature, or `--signature`).
    var client: ObjectStorageClient
    /// One presigning client per scheme to show.
    var schemes: [Scheme]
    /// The embedded server, when no endpoint is configured.
    var server: LocalObjectServer?

    /// Whether an endpoint is configured: `--endpoint`, or the vendor's endpoint variable.
    static func hasConfiguredEndpoint(
        vendor: StorageVendor,
        options: RemoteOptions,
        environment: [String: String]
    ) -> Bool {
        options.service.endpoint != nil
            || ServiceEnvironment(vendor, variables: environment).configuredEndpoint != nil
    }

    /// Starts the embedded server on an ephemeral port with its data in `dataDirectory`.
    ///
    /// - Parameters:
    ///   - vendor: The dialect of the transfers.
    ///   - signature: `--signature`, if given.
    ///   - dataDirectory: The server's data directory.
    ///   - logger: The clients' logger, and the server's at `--log-level info` or below (which shows every
    ///     request); otherwise the server is quiet, as the pauses cut uploads short on purpose.
    static func embedded(
        vendor: StorageVendor,
        signature: String?,
        dataDirectory: String,
        logger: Logger
    ) async throws -> DemoSite {
        let version = try SigningContext.signatureVersion(signature, for: vendor)
        var serverLogger = logger
        if serverLogger.logLevel > .info { serverLogger.logLevel = .critical }
        let server = LocalObjectServer(
            configuration: .init(port: 0, storage: .directory(dataDirectory)),
            logger: serverLogger
        )
        let port = try await server.start()
        let endpoint = try Endpoint(url: "http://127.0.0.1:\(port)")
        func client(_ vendor: StorageVendor, _ version: SignatureVersion) -> ObjectStorageClient {
            let region = server.configuration.region(for: vendor)
            return ObjectStorageClient(
                configuration: .init(
                    vendor: vendor,
                    endpoint: endpoint,
                    region: region,
                    credentials: StaticCredentialsProvider(LocalObjectServer.developmentCredentials),
                    signatureVersion: version
                ),
                logger: logger
            )
        }
        return DemoSite(
            vendor: vendor,
            endpoint: "http://127.0.0.1:\(port)",
            client: client(vendor, version),
            schemes: [
                Scheme(label: "OSS V4", client: client(.oss, .ossV4)),
                Scheme(label: "OSS V1", client: client(.oss, .ossV1)),
                Scheme(label: "OBS", client: client(.obs, .obs)),
                Scheme(label: "AWS V2", client: client(.s3, .awsV2)),
                Scheme(label: "S3 SigV4", client: client(.s3, .sigV4)),
            ],
            server: server
        )
    }

    /// Clients for a configured endpoint, built by ``ClientFactory`` from `options` and the environment
    /// exactly as `cp` builds them; the presigned-URL table shows the schemes the vendor accepts.
    static func configured(vendor: StorageVendor, options: RemoteOptions) async throws -> DemoSite {
        guard !options.noSignRequest else {
            throw CLIError.usage("demo: --no-sign-request cannot be used; presigning and uploads need credentials")
        }
        let client = try await ClientFactory(options: options).makeClient(for: vendor)
        let names: [(label: String, signature: String)]
        switch vendor {
        case .oss: names = [("OSS V4", "v4"), ("OSS V1", "v1")]
        case .obs: names = [("OBS", "obs"), ("AWS V2", "v2"), ("S3 SigV4", "v4")]
        default: names = [("S3 SigV4", "sigv4"), ("AWS V2", "v2")]
        }
        var schemes: [Scheme] = []
        for name in names {
            var schemeOptions = options
            schemeOptions.service.signature = name.signature
            schemes.append(
                Scheme(
                    label: name.label,
                    client: try await ClientFactory(options: schemeOptions).makeClient(for: vendor)
                )
            )
        }
        return DemoSite(
            vendor: vendor,
            endpoint: client.configuration.endpoint.description,
            client: client,
            schemes: schemes,
            server: nil
        )
    }

    /// On the embedded server, answers every matching request 100 ms late, so that the pause lands
    /// part way even on a fast machine; a no-op against a real service (the network is slow enough).
    func slowDown(_ operation: ObjectStorageLocalServer.ServiceOperation, bucket: String, key: String) {
        server?.faults.add(
            FaultRule(
                operations: [operation],
                bucket: bucket,
                key: key,
                fault: .delayBeforeHeaders(.milliseconds(100))
            )
        )
    }

    /// Removes ``slowDown(_:bucket:key:)``'s rules.
    func fullSpeed() {
        server?.faults.removeAll()
    }
}
