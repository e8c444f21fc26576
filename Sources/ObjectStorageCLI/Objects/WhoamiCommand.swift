//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation
import ObjectStorage
import ObjectStorageSigning

/// `objstore whoami VENDOR`: which source of the default chain supplies credentials, the access key id and the
/// expiry; never the secret or the session token.
struct WhoamiCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Say which credentials source supplies the credentials (environment, profile, role, web identity, "
            + "process, container or instance), with the access key id and the expiry; never the secret.",
        discussion: """
            The sources are tried in the vendor's own order, as every other command tries them; 'objstore whoami' \
            runs the same chain, so it fetches role credentials (STS, a process, a metadata service) to report them. \
            Exit status 77 when no source has credentials, with every source tried named.
            """
    )

    @Argument(help: "The vendor: s3, oss or obs, or a URL such as s3://BUCKET.")
    var vendor: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let name = vendor.split(separator: ":", maxSplits: 1).first.map(String.init) ?? vendor
        guard let vendor = StorageVendor(scheme: name.lowercased()) else {
            throw CLIError.usage("VENDOR: '\(self.vendor)' is not s3, oss, obs or one of their URLs")
        }
        let factory = ClientFactory(options: remote)
        let found = try await CommandCredentials.resolve(
            try factory.credentialsProvider(for: vendor),
            logger: remote.logger
        )
        let identity = Identity(vendor: "\(vendor)", found: found)
        if json {
            try JSONOutput.print(identity)
        } else {
            printLine("Source: \(identity.source)")
            printLine("Access key id: \(identity.accessKeyId)")
            printLine("Session token: \(identity.sessionToken ? "yes" : "no")")
            printLine("Expires: \(identity.expiration.map { "\($0) (\(identity.expiresIn ?? ""))" } ?? "never")")
        }
    }
}

/// What `whoami` prints.
private struct Identity: Encodable {
    var vendor: String
    var source: String
    var accessKeyId: String
    var sessionToken: Bool
    var expiration: String?
    var expiresIn: String?

    init(vendor: String, found: CommandCredentials) {
        self.vendor = vendor
        self.source = found.source
        self.accessKeyId = found.credentials.accessKeyID
        self.sessionToken = found.credentials.securityToken != nil
        if let expiration = found.credentials.expiration {
            self.expiration = JSONOutput.iso8601(expiration)
            let seconds = max(0, Int(expiration.timeIntervalSinceNow))
            self.expiresIn = "in \(seconds / 3600)h\(String(format: "%02d", seconds % 3600 / 60))m"
        }
    }
}
