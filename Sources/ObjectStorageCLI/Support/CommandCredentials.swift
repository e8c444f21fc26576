//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageSigning

/// Credentials for a CLI command: from the environment and the vendor's profile files only, never
/// from flags (flags leak into shell history and process listings).
enum CommandCredentials {
    /// The providers tried, in order, for each vendor.
    static func provider(for provider: StorageProvider) -> ChainCredentialsProvider {
        switch provider {
        case .oss:
            .chain(.environment(.oss), .profile(.alibabaCloud()), .profile(.aliyunCLI()))
        case .obs:
            .chain(.environment(.obs))
        default:
            .chain(.environment(.aws), .profile(.aws()))
        }
    }

    /// Loads credentials, mapping failures to exit status 77 (none found, or half set) or 65 (a
    /// malformed credentials file).
    static func load(for provider: StorageProvider) async throws(CLIError) -> Credentials {
        do {
            return try await Self.provider(for: provider).credentials(logger: Logger(label: "objstore"))
        } catch {
            throw CLIError.loadingCredentials(error)
        }
    }
}
