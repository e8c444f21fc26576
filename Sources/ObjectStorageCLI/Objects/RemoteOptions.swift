//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Logging

/// The flags every command that talks to a service shares.
struct RemoteOptions: ParsableArguments, Sendable {
    @OptionGroup var service: ServiceOptions

    @OptionGroup var credentials: CredentialsOptions

    @Flag(help: "Send unsigned (anonymous) requests: public buckets, servers without authentication.")
    var noSignRequest = false

    @Flag(
        name: .customLong("use-list-objects-v1"),
        help: "List with the marker-based ListObjects (V1) rather than V2 (always for obs), for services without V2."
    )
    var useListObjectsV1 = false

    @Option(
        help: """
            Log on standard error from this level up: trace, debug, info, notice, warning, error or critical. \
            Logs never contain secrets, session tokens or signatures.
            """
    )
    var logLevel: String = "warning"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel.lowercased()) != nil else {
            throw ValidationError(
                "--log-level: '\(logLevel)' is not one of trace, debug, info, notice, warning, error, critical"
            )
        }
    }

    /// A logger writing to standard error at ``logLevel``.
    var logger: Logger {
        var logger = Logger(label: "objstore", factory: { StandardErrorLogHandler(label: $0) })
        logger.logLevel = Logger.Level(rawValue: logLevel.lowercased()) ?? .warning
        return logger
    }
}
