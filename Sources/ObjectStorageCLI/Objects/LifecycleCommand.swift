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

struct LifecycleCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "lifecycle",
        abstract: "Show, replace or remove a bucket's lifecycle rules (expiration, transitions, upload clean-up).",
        subcommands: [
            LifecycleGetCommand.self, LifecycleSetCommand.self, BucketSettingRemoveCommand<LifecycleSetting>.self,
        ]
    )
}

struct LifecycleGetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a bucket's lifecycle rules as XML (or aws-cli's JSON with --json); nothing when it has none."
    )

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @Flag(help: "Print aws-cli's JSON form ({\"Rules\": [...]}) instead of XML.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let json = self.json
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            guard let configuration = try await client.getBucketLifecycle(bucket: location.bucket) else { return }
            if json {
                try JSONOutput.print(LifecycleDocumentFile(configuration))
            } else {
                printLine(String(decoding: configuration.document(for: location.vendor), as: UTF8.self))
            }
        }
    }
}

struct LifecycleSetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Replace a bucket's lifecycle rules with those in FILE ('-': standard input).",
        discussion: """
            FILE holds any service's XML (<LifecycleConfiguration><Rule>...) or aws-cli's JSON \
            ({"Rules": [{"Filter": {"Prefix": "logs/"}, "Status": "Enabled", "Expiration": {"Days": 30}}]}); \
            it is written in the bucket's vendor's form. It is checked before anything is sent: a malformed file \
            is named with its line, a rule the service would refuse with what is wrong.
            """
    )

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @Argument(help: "The rules, XML or JSON; '-' reads standard input.")
    var file: String

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let (bytes, name) = try ConfigurationFile.contents(of: file, command: "lifecycle set")
        let configuration = try LifecycleDocumentFile.read(bytes, name: name)
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            try await client.putBucketLifecycle(bucket: location.bucket, configuration)
        }
    }
}
