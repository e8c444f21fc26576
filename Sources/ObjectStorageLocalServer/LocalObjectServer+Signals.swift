//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import Logging
import ServiceLifecycle
import UnixSignals

extension LocalObjectServer {
    /// Serves until SIGINT or SIGTERM, then shuts down gracefully (in-flight requests finish).
    ///
    /// - Parameter logger: The service group's logger.
    /// - Throws: If the server cannot start.
    package func runUntilTerminated(logger: Logger = Logger(label: "objstore.local-server")) async throws {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [self],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }
}
