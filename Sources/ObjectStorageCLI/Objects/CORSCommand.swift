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

/// `objstore cors get|set|rm|check URL`: a bucket's CORS rules, and why a browser's preflight passes or not.
struct CORSCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "cors",
        abstract: "Show, replace, remove or check a bucket's CORS rules.",
        subcommands: [
            CORSGetCommand.self, CORSSetCommand.self, BucketSettingRemoveCommand<CORSSetting>.self,
            CORSCheckCommand.self,
        ]
    )
}

struct CORSGetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract:
            "Print a bucket's CORS configuration as XML (or aws-cli's JSON with --json); nothing when it has none."
    )

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @Flag(help: "Print aws-cli's JSON form ({\"CORSRules\": [...]}) instead of XML.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let json = self.json
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            guard let configuration = try await client.getBucketCORS(bucket: location.bucket) else { return }
            if json {
                try JSONOutput.print(CORSDocumentFile(configuration))
            } else {
                printLine(String(decoding: configuration.document(for: location.vendor), as: UTF8.self))
            }
        }
    }
}

struct CORSSetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Replace a bucket's CORS configuration with the one in FILE ('-': standard input).",
        discussion: """
            FILE holds the services' XML (<CORSConfiguration><CORSRule>...) or aws-cli's JSON \
            ({"CORSRules": [{"AllowedOrigins": [...], "AllowedMethods": [...], ...}]}). It is checked before \
            anything is sent: a malformed file is named with its line, a rule the service would refuse is named \
            with what it lacks.
            """
    )

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @Argument(help: "The configuration file, XML or JSON; '-' reads standard input.")
    var file: String

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let (bytes, name) = try ConfigurationFile.contents(of: file, command: "cors set")
        let configuration = try CORSDocumentFile.read(bytes, name: name)
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            try await client.putBucketCORS(bucket: location.bucket, configuration)
        }
    }
}
