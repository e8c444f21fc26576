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

    @OptionGroup var bucket: BucketArguments

    func run() async throws {
        try await bucket.run(reporting: "make_bucket") { client, bucket in
            try await client.createBucket(bucket: bucket)
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

    @OptionGroup var bucket: BucketArguments

    func run() async throws {
        try await bucket.run(reporting: "remove_bucket") { client, bucket in
            try await client.deleteBucket(bucket: bucket)
        }
    }
}

/// What `mb` and `rb` take: the bucket's URL, the endpoint options and the output options.
struct BucketArguments: ParsableArguments, Sendable {
    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @OptionGroup var remote: RemoteOptions

    @OptionGroup(title: "Output Options") var output: OutputFlags

    /// Runs `operation` on the bucket ``url`` names, with a client for its vendor, then reports `<verb>: BUCKET`; a
    /// service or transport failure is reported as ``RemoteFailure`` reports it for the endpoint.
    func run(
        reporting verb: String,
        operation: @escaping @Sendable (ObjectStorageClient, String) async throws -> Void
    ) async throws {
        let location = try RemoteLocation.bucket(url)
        let output = self.output
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            try await operation(client, location.bucket)
            output.report("\(verb): \(location.bucket)")
        }
    }
}
