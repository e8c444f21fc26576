//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage

/// `objstore symlink create|read`: OSS symlinks (ossutil's create-symlink and read-symlink).
struct SymlinkCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "symlink",
        abstract: "Create or read an OSS symlink (an object that serves another key's bytes).",
        subcommands: [SymlinkCreateCommand.self, SymlinkReadCommand.self]
    )
}

struct SymlinkCreateCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make oss://BUCKET/KEY a symlink to TARGET, a key of the same bucket (which may not exist yet)."
    )

    @Argument(help: "oss://BUCKET/KEY, the symlink")
    var url: String

    @Argument(help: "The key it points to, in the same bucket.")
    var target: String

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.object(url)
        try await ClientFactory(options: remote).run(on: location.vendor) { [target] client in
            _ = try await client.putSymlink(bucket: location.bucket, key: location.key ?? "", target: target)
        }
    }
}

struct SymlinkReadCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print the key a symlink points to."
    )

    @OptionGroup var object: ObjectArgument

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try object.location()
        try await ClientFactory(options: remote).run(on: location.vendor) { [object] client in
            printLine(
                try await client.getSymlink(
                    bucket: location.bucket,
                    key: location.key ?? "",
                    versionID: object.versionID
                )
            )
        }
    }
}
