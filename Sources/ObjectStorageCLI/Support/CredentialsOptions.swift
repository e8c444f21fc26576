//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage
import ObjectStorageSigning

/// `--profile`: the flag every command that signs shares, whether it talks to a service or only signs for one.
struct CredentialsOptions: ParsableArguments, Sendable {
    @Option(
        help: """
            The credentials profile (AWS_PROFILE for s3, ALIBABA_CLOUD_PROFILE for oss); when given, \
            credentials come from that profile only, not from the environment.
            """
    )
    var profile: String?

    /// The vendor's default chain, or only the named profile with `--profile` (as the AWS CLI lets `--profile` win
    /// over environment keys).
    ///
    /// - Parameters:
    ///   - vendor: The vendor whose chain to build.
    ///   - environment: The variables the chain reads.
    /// - Throws: A usage error for an empty profile name, or a profile for obs (which has no profile files).
    func chain(for vendor: StorageVendor, environment: [String: String]) throws(CLIError) -> ChainCredentialsProvider {
        guard let profile else { return .standard(vendor, environment: environment) }
        guard !profile.isEmpty else { throw .usage("--profile: the profile name is empty") }
        if vendor == .obs {
            throw .usage("--profile: obs has no profile files; set OBS_ACCESS_KEY_ID and OBS_SECRET_ACCESS_KEY")
        }
        return .standard(vendor, profile: profile, environment: environment)
    }
}
