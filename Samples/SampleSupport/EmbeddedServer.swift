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

/// The embedded server the samples use when no bucket is configured.
///
/// Objects live in a data directory and the port is reused when it is free, so a sample paused in one
/// run (a resumable download's checkpoint names the endpoint) resumes in the next. Object bodies are
/// served at 16 MiB/s a response, like a network rather than a loopback, so progress and pauses show.
struct EmbeddedServer {
    static let credentials = LocalObjectServer.developmentCredentials

    let server: LocalObjectServer
    let port: Int

    static func start(dataDirectory: String) async throws -> EmbeddedServer {
        var logger = Logger(label: "samples.embedded-server")
        logger.logLevel = .critical  // a paused transfer's dropped connections are expected here
        let previous = (try? String(contentsOfFile: dataDirectory + "/port", encoding: .utf8)).flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        if let previous, let server = try? await Self.bind(previous, dataDirectory, logger) {
            return server
        }
        return try await Self.bind(0, dataDirectory, logger)
    }

    private static func bind(_ port: Int, _ dataDirectory: String, _ logger: Logger) async throws -> EmbeddedServer {
        let faults = FaultInjector()
        faults.add(FaultRule(operations: ["GetObject"], fault: .bandwidthLimit(bytesPerSecond: 16 << 20)))
        let server = LocalObjectServer(
            configuration: .init(port: port, storage: .directory(dataDirectory)),
            faults: faults,
            logger: logger
        )
        let bound = try await server.start()
        try? String(bound).write(toFile: dataDirectory + "/port", atomically: true, encoding: .utf8)
        return EmbeddedServer(server: server, port: bound)
    }

    /// Points the vendor's variables at this server: `OSS_ENDPOINT`, `OSS_REGION` and the development key pair
    /// (a well-known test pair, never a real secret), so `Configuration.environment(.oss)` reaches it.
    func exportEnvironment() {
        let variables = [
            "OSS_ENDPOINT": "http://127.0.0.1:\(self.port)",
            "OSS_REGION": self.server.configuration.region(for: .oss),
            "OSS_ACCESS_KEY_ID": Self.credentials.accessKeyID,
            "OSS_ACCESS_KEY_SECRET": Self.credentials.secretAccessKey,
        ]
        for (name, value) in variables { setenv(name, value, 1) }
        unsetenv("OSS_SESSION_TOKEN")
    }

    func stop() async {
        await self.server.shutdown()
    }
}
