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

/// `objstore encryption get|set|rm URL`: a bucket's default encryption.
struct EncryptionCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "encryption",
        abstract: "Show, set or remove a bucket's default encryption.",
        subcommands: [
            EncryptionGetCommand.self, EncryptionSetCommand.self, BucketSettingRemoveCommand<EncryptionSetting>.self,
        ]
    )
}

struct EncryptionGetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a bucket's default encryption: the algorithm (AES256, KMS, SM4) and the KMS key on a second "
            + "line when it names one; nothing when it has none."
    )

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @Flag(help: "Print a JSON object ({\"algorithm\": ..., \"kmsKeyID\": ...}) instead of text.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    struct Output: Encodable {
        var algorithm: String
        var kmsKeyID: String?
    }

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let json = self.json
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            guard let encryption = try await client.getBucketEncryption(bucket: location.bucket) else { return }
            if json {
                try JSONOutput.print(Output(algorithm: encryption.algorithm.rawValue, kmsKeyID: encryption.kmsKeyID))
            } else {
                printLine(encryption.algorithm.rawValue)
                if let key = encryption.kmsKeyID { printLine("kms-key-id: \(key)") }
            }
        }
    }
}

struct EncryptionSetCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set a bucket's default encryption.",
        discussion: """
            --algorithm is AES256 (keys the service manages), KMS (aws:kms on S3, kms on OBS) with an optional \
            --kms-key-id, or SM4 (OSS only). Objects written afterwards without an encryption header of their own \
            are encrypted with it.
            """
    )

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @Option(help: "AES256, KMS or SM4 (OSS).")
    var algorithm: String

    @Option(help: "The KMS key (id, alias or ARN), with --algorithm KMS; the vendor's default key when not given.")
    var kmsKeyID: String?

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let encryption = BucketEncryption(
            algorithm: BucketEncryption.Algorithm(rawValue: algorithm),
            kmsKeyID: kmsKeyID
        )
        if let violation = encryption.violation(for: location.vendor) {
            throw CLIError.invalidInput("encryption set: \(violation)")
        }
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            try await client.putBucketEncryption(bucket: location.bucket, encryption)
        }
    }
}
