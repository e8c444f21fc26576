//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage

/// `objstore mb URL`: creates a bucket.
struct MakeBucketCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(commandName: "mb", abstract: "Create a bucket.")

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @OptionGroup var remote: RemoteOptions

    @OptionGroup(title: "Output Options") var output: OutputFlags

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let factory = ClientFactory(options: remote)
        let client = try await factory.makeClient(for: location.vendor)
        let output = self.output
        try await RemoteFailure.run(endpoint: factory.endpointChoice(for: location.vendor)) {
            try await client.createBucket(bucket: location.bucket)
            output.report("make_bucket: \(location.bucket)")
        }
    }
}

/// `objstore rb URL`: deletes an empty bucket.
struct RemoveBucketCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "rb",
        abstract: "Delete an empty bucket.",
        discussion: "Empty it first with `objstore rm --recursive URL`."
    )

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @OptionGroup var remote: RemoteOptions

    @OptionGroup(title: "Output Options") var output: OutputFlags

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let factory = ClientFactory(options: remote)
        let client = try await factory.makeClient(for: location.vendor)
        let output = self.output
        try await RemoteFailure.run(endpoint: factory.endpointChoice(for: location.vendor)) {
            try await client.deleteBucket(bucket: location.bucket)
            output.report("remove_bucket: \(location.bucket)")
        }
    }
}
