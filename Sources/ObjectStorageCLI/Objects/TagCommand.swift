//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage

/// `objstore tag get|set|rm URL`: an object's tags (`cp --tags` sets them at upload).
struct TagCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Show, replace or remove an object's tags.",
        subcommands: [TagGetCommand.self, TagSetCommand.self, TagRemoveCommand.self]
    )
}

struct TagGetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print an object's tags, one KEY=VALUE line each in key order (nothing when it has none)."
    )

    @OptionGroup var object: ObjectArgument

    @Flag(help: "Print a JSON object of the tags instead of text.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try object.location()
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            let tags = try await client.getObjectTagging(
                bucket: location.bucket,
                key: location.key ?? "",
                versionID: object.versionID
            )
            if json {
                try JSONOutput.print(tags)
            } else {
                for (key, value) in tags.sorted(by: { $0.key < $1.key }) { printLine("\(key)=\(value)") }
            }
        }
    }
}

struct TagSetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Replace an object's tags with 'KEY=VALUE&KEY2=VALUE2' (URL-encoded, as cp --tags)."
    )

    @OptionGroup var object: ObjectArgument

    @Argument(help: "The tags, 'KEY=VALUE&KEY2=VALUE2'; '' removes them all.")
    var tags: TagSet

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try object.location()
        try tags.check("tag set", for: location.vendor)
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            try await client.putObjectTagging(
                bucket: location.bucket,
                key: location.key ?? "",
                tags: tags.tags,
                versionID: object.versionID
            )
        }
    }
}

struct TagRemoveCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove all of an object's tags."
    )

    @OptionGroup var object: ObjectArgument

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try object.location()
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            try await client.deleteObjectTagging(
                bucket: location.bucket,
                key: location.key ?? "",
                versionID: object.versionID
            )
        }
    }
}
