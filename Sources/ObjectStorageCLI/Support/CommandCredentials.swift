//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorage
import ObjectStorageSigning

/// Credentials for a CLI command: the vendor's default chain (the environment, the profile files, roles, the
/// instance), or one profile with `--profile`; never flags (flags leak into shell history and process listings).
struct CommandCredentials {
    /// The credentials found.
    var credentials: Credentials
    /// The provider to sign with from now on: the one that found them, so a role's credentials are refreshed
    /// during a long transfer without reading the files again.
    var provider: any CredentialsProvider
    /// Which source supplied them, e.g. `profile(aws, dev): refreshing(assumeRole(ARN, endpoint: HOST))`.
    var source: String

    /// Walks `chain`, mapping failures to exit status 77 (none found, or half set) or 65 (a malformed file, a
    /// refusing STS).
    static func resolve(_ chain: ChainCredentialsProvider, logger: Logger) async throws(CLIError) -> CommandCredentials
    {
        do {
            let (credentials, found) = try await chain.resolve(logger: logger)
            var source = ChainCredentialsProvider.name(of: found)
            var provider = found
            let inner: (any CredentialsProvider)? =
                if let profile = found as? ProfileCredentialsProvider {
                    try? profile.currentProvider()
                } else if let resolved = found as? ResolvedCredentialsProvider {
                    try? resolved.provider()
                } else {
                    nil
                }
            if let inner {
                source += ": " + ChainCredentialsProvider.name(of: inner)
                provider = inner
            }
            if credentials.expiration == nil {
                provider = StaticCredentialsProvider(credentials)
            }
            return CommandCredentials(credentials: credentials, provider: provider, source: source)
        } catch {
            throw CLIError.loadingCredentials(error)
        }
    }

    /// Loads the vendor's default chain's credentials (for the signing commands).
    static func load(for vendor: StorageVendor) async throws(CLIError) -> Credentials {
        try await Self.resolve(.standard(vendor), logger: Logger(label: "objstore")).credentials
    }
}
