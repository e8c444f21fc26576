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
        abstract: "Delete an empty bucket, or with --force empty it first.",
        discussion: """
            Without --force the bucket must be empty: `objstore rm --recursive URL` empties an unversioned one. \
            With --force every version and delete marker is deleted for good and every unfinished multipart \
            upload aborted, each printed as rm prints it, then the bucket is deleted and the last line says \
            what was removed: 'remove_bucket: NAME (removed 3 versions, 1 delete marker, 0 unfinished uploads)'. \
            --dryrun prints the same lines and changes nothing.
            """
    )

    @OptionGroup var bucket: BucketArguments

    @Flag(help: "Empty the bucket first: every version, delete marker and unfinished multipart upload, for good.")
    var force = false

    @Flag(help: "With --force, print what would be removed and change nothing.")
    var dryrun = false

    func validate() throws {
        guard force || !dryrun else { throw ValidationError("--dryrun applies to rb --force") }
    }

    func run() async throws {
        guard force else {
            return try await bucket.run(reporting: "remove_bucket") { client, bucket in
                try await client.deleteBucket(bucket: bucket)
            }
        }
        let location = try RemoteLocation.bucket(bucket.url)
        let (output, dryrun) = (bucket.output, self.dryrun)
        try await ClientFactory(options: bucket.remote).run(on: location.vendor) { client in
            let whole = ObjectURL(vendor: location.vendor, bucket: location.bucket, key: nil)
            let counts = try await VersionRemoval(location: whole, client: client, output: output, dryrun: dryrun).run()
            let uploads = try await RemoveCommand.abortUploads(
                under: whole,
                startedBefore: nil,
                client: client,
                output: output,
                dryrun: dryrun
            )
            guard counts.failures == 0 else {
                throw CLIError(
                    status: .failure,
                    message: "rb: \(counts.failures) version(s) could not be deleted, so the bucket is kept"
                )
            }
            if !dryrun { try await client.deleteBucket(bucket: location.bucket) }
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            output.report(
                "\(dryrun ? "(dryrun) " : "")remove_bucket: \(location.bucket) (removed "
                    + "\(count(counts.versions, "version")), \(count(counts.deleteMarkers, "delete marker")), "
                    + "\(count(uploads, "unfinished upload")))"
            )
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
