//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage

/// `objstore acl get|set URL`: the canned ACL of a bucket (a bucket URL) or an object (a key URL).
struct ACLCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "acl",
        abstract: "Show or set the canned ACL of a bucket or an object.",
        subcommands: [ACLGetCommand.self, ACLSetCommand.self]
    )
}

struct ACLGetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the canned ACL of a bucket or an object, then its grants, one 'PERMISSION GRANTEE' line each.",
        discussion: """
            The first line is the canned ACL the grants amount to (private, public-read, ...), or 'custom' when \
            they are no canned ACL's. OSS answers the canned ACL only; an OSS object that follows its bucket's ACL \
            prints 'default'.
            """
    )

    @Argument(help: "oss://BUCKET[/KEY], obs://BUCKET[/KEY] or s3://BUCKET[/KEY]")
    var url: String

    @Option(help: "A version of the object; the current one when not given.")
    var versionID: String?

    @Flag(help: "Print a JSON object ({\"cannedACL\": ..., \"owner\": ..., \"grants\": [...]}) instead of text.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    struct Output: Encodable {
        struct Grant: Encodable {
            var grantee: String
            var type: String
            var permission: String
            var delivered: Bool?
        }

        var cannedACL: String?
        var owner: String?
        var grants: [Grant]
        var delivered: Bool?
    }

    func run() async throws {
        let location = try RemoteLocation.any(url)
        let (json, versionID) = (self.json, self.versionID)
        if location.key == nil, versionID != nil {
            throw CLIError.usage("acl get: --version-id names a version of an object; '\(url)' names a bucket")
        }
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            let acl =
                if let key = location.key {
                    try await client.getObjectACL(bucket: location.bucket, key: key, versionID: versionID)
                } else {
                    try await client.getBucketACL(bucket: location.bucket)
                }
            let grants = acl.grants.map { grant in
                let (grantee, type): (String, String) =
                    switch grant.grantee {
                    case .user(let id): (id, "user")
                    case .group(let group): (group, "group")
                    case .email(let address): (address, "email")
                    }
                return Output.Grant(
                    grantee: grantee,
                    type: type,
                    permission: grant.permission,
                    delivered: grant.delivered
                )
            }
            if json {
                try JSONOutput.print(
                    Output(
                        cannedACL: acl.cannedACL?.rawValue,
                        owner: acl.ownerID,
                        grants: grants,
                        delivered: acl.delivered
                    )
                )
            } else {
                printLine(acl.cannedACL?.rawValue ?? "custom")
                for grant in grants { printLine("\(grant.permission) \(grant.grantee)") }
            }
        }
    }
}

struct ACLSetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set the canned ACL of a bucket or an object.",
        discussion: """
            ACL is a canned ACL the vendor takes: private, public-read, public-read-write everywhere; \
            authenticated-read (S3), log-delivery-write (S3 bucket), bucket-owner-read (S3 object), \
            bucket-owner-full-control (S3 and OBS object), default (OSS object: follow the bucket), \
            public-read-delivered and public-read-write-delivered (OBS bucket). Another name is refused before \
            anything is sent.
            """
    )

    @Argument(help: "oss://BUCKET[/KEY], obs://BUCKET[/KEY] or s3://BUCKET[/KEY]")
    var url: String

    @Argument(help: "The canned ACL (private, public-read, ...).")
    var acl: String

    @Option(help: "A version of the object; the current one when not given.")
    var versionID: String?

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.any(url)
        let (acl, versionID) = (ObjectACL(rawValue: self.acl), self.versionID)
        if location.key == nil, versionID != nil {
            throw CLIError.usage("acl set: --version-id names a version of an object; '\(url)' names a bucket")
        }
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            if let key = location.key {
                try await client.putObjectACL(bucket: location.bucket, key: key, acl, versionID: versionID)
            } else {
                try await client.putBucketACL(bucket: location.bucket, acl)
            }
        }
    }
}
