//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageSigning

/// Credentials for a CLI command: the vendor's standard chain (the environment, then its profile files), never
/// flags (flags leak into shell history and process listings).
enum CommandCredentials {
    /// Loads credentials, mapping failures to exit status 77 (none found, or half set) or 65 (a
    /// malformed credentials file).
    static func load(for vendor: StorageVendor) async throws(CLIError) -> Credentials {
        do {
            return try await ChainCredentialsProvider.standard(vendor).credentials(logger: Logger(label: "objstore"))
        } catch {
            throw CLIError.loadingCredentials(error)
        }
    }
}
