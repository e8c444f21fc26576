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
import ObjectStorageSigning
import ObjectStorageTransport
import Synchronization

/// Builds an ``ObjectStorageClient`` from ``RemoteOptions``, the environment and the credentials chain.
struct ClientFactory {
    var options: RemoteOptions
    var environment: [String: String]
    /// `--limit-rate`: the most bytes per second every client made here moves together, each direction.
    var bandwidthLimit: Int64?

    init(
        options: RemoteOptions,
        bandwidthLimit: Int64? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.options = options
        self.bandwidthLimit = bandwidthLimit
        self.environment = environment
    }

    /// A client for `vendor`'s dialect. Credentials are loaded here, once, so a missing key
    /// fails (status 77) before anything is sent.
    func makeClient(for vendor: StorageVendor) async throws(CLIError) -> ObjectStorageClient {
        let version = try SigningContext.signatureVersion(options.service.signature, for: vendor)
        let (choice, region) = try ServiceEnvironment(vendor, variables: environment)
            .resolve(endpoint: options.service.endpoint, region: options.service.region)
        if let warning = choice.missingSchemeWarning { printError(warning) }
        let endpoint = choice.endpoint
        var configuration: ObjectStorageClient.Configuration
        if options.noSignRequest {
            guard options.credentials.profile == nil else {
                throw .usage("--profile cannot be combined with --no-sign-request")
            }
            configuration = .init(
                vendor: vendor,
                endpoint: endpoint,
                region: region,
                credentials: nil,
                signatureVersion: version
            )
        } else {
            let credentials = try await CommandCredentials.resolve(
                try credentialsProvider(for: vendor),
                logger: options.logger
            )
            configuration = .init(
                vendor: vendor,
                endpoint: endpoint,
                region: region,
                credentials: credentials.provider,
                signatureVersion: version
            )
        }
        if options.service.pathStyle { configuration.addressing = .path }
        if options.useListObjectsV1 { configuration.usesListObjectsV1 = true }
        guard let bandwidthLimit else {
            return ObjectStorageClient(configuration: configuration, logger: options.logger)
        }
        return ObjectStorageClient(
            configuration: configuration,
            transport: Self.limitedTransport(bandwidthLimit),
            logger: options.logger
        )
    }

    /// Runs `work` with a client for `vendor`'s dialect (see ``makeClient(for:)``); a failure of `work` is reported
    /// as ``RemoteFailure/run(endpoint:_:)`` reports it for the endpoint, and Ctrl-C cancels it.
    ///
    /// - Parameters:
    ///   - vendor: The service to talk to.
    ///   - work: What to do with the client.
    func run(
        on vendor: StorageVendor,
        _ work: @escaping @Sendable (ObjectStorageClient) async throws -> Void
    ) async throws(CLIError) {
        let client = try await self.makeClient(for: vendor)
        try await RemoteFailure.run(endpoint: self.endpointChoice(for: vendor)) { try await work(client) }
    }

    /// The limited transports of this process, by rate: one per rate, so that every client of a command (the
    /// source's and the destination's of a copy, every object of a directory job) shares one limit. Like the
    /// SDK's shared transport, they live as long as the process.
    private static let limitedTransports = Mutex<[Int64: AsyncHTTPClientTransport]>([:])

    private static func limitedTransport(_ bytesPerSecond: Int64) -> AsyncHTTPClientTransport {
        limitedTransports.withLock { transports in
            if let transport = transports[bytesPerSecond] { return transport }
            let transport = AsyncHTTPClientTransport(
                configuration: HTTPConfiguration(bandwidthLimit: bytesPerSecond),
                ownsClient: false
            )
            transports[bytesPerSecond] = transport
            return transport
        }
    }

    /// The endpoint ``makeClient(for:)`` uses for `vendor` and where it came from, for error messages; `nil` when
    /// the options name no valid endpoint (``makeClient(for:)`` refuses them).
    func endpointChoice(for vendor: StorageVendor) -> EndpointChoice? {
        try? ServiceEnvironment(vendor, variables: environment)
            .choose(endpoint: options.service.endpoint, region: options.service.region).0
    }

    /// The vendor's default chain, or only the named profile with `--profile`.
    func credentialsProvider(for vendor: StorageVendor) throws(CLIError) -> ChainCredentialsProvider {
        try options.credentials.chain(for: vendor, environment: environment)
    }
}
