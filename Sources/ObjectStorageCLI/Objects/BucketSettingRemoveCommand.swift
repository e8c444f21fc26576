//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage

/// A bucket setting that `objstore <setting> rm URL` removes: CORS rules, lifecycle rules, a policy, default
/// encryption.
protocol RemovableBucketSetting: Sendable {
    /// What `rm` says it does, as its help's abstract.
    static var removalAbstract: String { get }

    /// Removes the setting from `bucket`.
    static func remove(from bucket: String, with client: ObjectStorageClient) async throws
}

/// `objstore <setting> rm URL`, one command for every removable bucket setting.
struct BucketSettingRemoveCommand<Setting: RemovableBucketSetting>: AsyncParsableCommand, Sendable {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "rm", abstract: Setting.removalAbstract)
    }

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            try await Setting.remove(from: location.bucket, with: client)
        }
    }
}

enum CORSSetting: RemovableBucketSetting {
    static let removalAbstract =
        "Remove a bucket's CORS configuration: browsers then refuse every cross-origin request to it."

    static func remove(from bucket: String, with client: ObjectStorageClient) async throws {
        try await client.deleteBucketCORS(bucket: bucket)
    }
}

enum LifecycleSetting: RemovableBucketSetting {
    static let removalAbstract = "Remove a bucket's lifecycle rules: nothing expires, moves or is aborted any more."

    static func remove(from bucket: String, with client: ObjectStorageClient) async throws {
        try await client.deleteBucketLifecycle(bucket: bucket)
    }
}

enum PolicySetting: RemovableBucketSetting {
    static let removalAbstract = "Remove a bucket's policy."

    static func remove(from bucket: String, with client: ObjectStorageClient) async throws {
        try await client.deleteBucketPolicy(bucket: bucket)
    }
}

enum EncryptionSetting: RemovableBucketSetting {
    static let removalAbstract = "Remove a bucket's default encryption."

    static func remove(from bucket: String, with client: ObjectStorageClient) async throws {
        try await client.deleteBucketEncryption(bucket: bucket)
    }
}
