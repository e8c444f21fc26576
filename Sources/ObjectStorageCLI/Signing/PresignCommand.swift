//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation
import ObjectStorageSigning

/// `objstore presign URL`: prints a presigned URL (one line, for `$(...)` in scripts).
struct PresignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presign",
        abstract: "Print a presigned URL for an object.",
        discussion: """
            URL is oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY. KEY is everything after BUCKET/, \
            verbatim: nothing is percent-decoded. Credentials come from the environment or profile files only.
            """
    )

    @OptionGroup var object: ObjectArgument

    @Option(help: "Seconds the URL stays valid.")
    var expires: Int64 = 900

    @OptionGroup var options: SigningOptions

    func run() async throws {
        let location = try object.location()
        guard expires > 0 else { throw CLIError.invalidInput("--expires: must be at least 1 second, got \(expires)") }
        let context = try SigningContext(location: location, options: options, versionID: object.versionID)
        let presigned = try await context.signing { credentials throws(SigningError) in
            try context.signer.presign(
                context.request,
                credentials: credentials,
                expires: .seconds(expires),
                at: context.date
            )
        }
        if options.json {
            try JSONOutput.print(
                PresignOutput(
                    url: presigned.url,
                    method: presigned.method,
                    expiresAt: JSONOutput.iso8601(presigned.expiration),
                    signedHeaders: presigned.signedHeaders
                )
            )
        } else {
            print(presigned.url)
        }
    }
}

private struct PresignOutput: Encodable {
    var url: String
    var method: String
    var expiresAt: String
    var signedHeaders: [String: String]
}
