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
            // The innermost provider signs from now on, so a role is refreshed without reading the files again.
            let delegation = ChainCredentialsProvider.delegation(of: found)
            let source = delegation.map(ChainCredentialsProvider.name(of:)).joined(separator: ": ")
            var provider = delegation.last ?? found
            if credentials.expiration == nil {
                provider = StaticCredentialsProvider(credentials)
            }
            return CommandCredentials(credentials: credentials, provider: provider, source: source)
        } catch {
            throw CLIError.loadingCredentials(error)
        }
    }
}
