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

/// `objstore policy get|set|rm URL`: a bucket's policy, the JSON document in the vendor's grammar.
struct PolicyCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Show, replace or remove a bucket's policy.",
        subcommands: [PolicyGetCommand.self, PolicySetCommand.self, BucketSettingRemoveCommand<PolicySetting>.self]
    )
}

struct PolicyGetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a bucket's policy as the service keeps it (nothing when it has none)."
    )

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @Flag(help: "Print aws-cli's form ({\"Policy\": \"...\"}, the document as a string), which policy set reads too.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let json = self.json
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            guard let policy = try await client.getBucketPolicy(bucket: location.bucket) else { return }
            if json {
                try JSONOutput.print(["Policy": policy])
            } else {
                // Line by line: the document's own line breaks stay, any other control character is escaped.
                var lines = policy.split(separator: "\n", omittingEmptySubsequences: false).map {
                    $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
                }
                if lines.last == "" { lines.removeLast() }
                for line in lines { printLine(line) }
            }
        }
    }
}

struct PolicySetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Replace a bucket's policy with the one in FILE ('-': standard input).",
        discussion: """
            FILE holds the policy document in the vendor's grammar ({"Version": ..., "Statement": [...]}), or \
            aws-cli's {"Policy": "..."} that policy get --json prints. It is checked before anything is sent: a file \
            that is not JSON is named with the line of the error, a document the service would refuse (no \
            Statement, a statement without Effect or Action, OSS's Version other than "1", over the size limit) \
            with what is wrong. What the statements grant is the service's to judge.
            """
    )

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @Argument(help: "The policy file; '-' reads standard input.")
    var file: String

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let (bytes, name) = try ConfigurationFile.contents(of: file, command: "policy set")
        let policy = try PolicyDocumentFile.read(bytes, name: name, vendor: location.vendor)
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            try await client.putBucketPolicy(bucket: location.bucket, policy)
        }
    }
}

/// A bucket policy file as `objstore policy set` reads it: the document itself, or aws-cli's `{"Policy": "..."}`.
enum PolicyDocumentFile {
    /// The policy text in `bytes`, checked as `vendor` checks a policy.
    ///
    /// - Parameter name: The file's name, as messages show it.
    /// - Throws: ``CLIError/invalidInput(_:)`` naming the file and, for a JSON syntax error, the line.
    static func read(_ bytes: [UInt8], name: String, vendor: StorageVendor) throws(CLIError) -> String {
        let text = StrictJSON.soleStringMember("Policy", of: bytes) ?? String(decoding: bytes, as: UTF8.self)
        switch BucketPolicyRules.violation(in: Array(text.utf8), for: vendor) {
        case nil:
            return text
        case .notJSON(let reason, let line)?:
            throw .invalidInput("policy: \(name) is not valid JSON\(line.map { " at line \($0)" } ?? ""): \(reason)")
        case let violation?:
            throw .invalidInput("policy: \(name) is not a bucket policy \(vendor.name) takes: \(violation)")
        }
    }
}
