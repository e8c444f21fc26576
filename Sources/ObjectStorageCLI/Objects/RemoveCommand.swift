//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage

/// `objstore rm URL...`: deletes objects, or everything under a prefix.
struct RemoveCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete objects, or with --recursive every object under a bucket or prefix.",
        discussion: """
            Deleting a key that does not exist succeeds, as the services do. With --recursive, \
            oss://b/dir deletes the key 'dir' and every key under 'dir/' (not 'dir2'); keys are deleted \
            in batches of up to 1000 per request. Prints 'delete: URL' per key removed.
            """
    )

    @Argument(help: "oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY (a bucket or prefix with --recursive)")
    var urls: [String]

    @Flag(name: .shortAndLong, help: "Delete every object under each URL.")
    var recursive = false

    @OptionGroup var remote: RemoteOptions

    @OptionGroup(title: "Output Options") var output: OutputFlags

    static let batchSize = 1000

    func validate() throws {
        guard !urls.isEmpty else { throw ValidationError("Missing expected argument '<urls> ...'") }
    }

    func run() async throws {
        let locations = try urls.map { text throws(CLIError) in
            try recursive ? RemoteLocation.any(text) : RemoteArgument.object(text)
        }
        guard let provider = locations.first?.provider else { return }
        guard locations.allSatisfy({ $0.provider == provider }) else {
            throw CLIError.usage("URL: all URLs must use the same scheme")
        }
        let factory = ClientFactory(options: remote)
        let client = try await factory.makeClient(for: provider)
        let output = self.output
        try await RemoteFailure.run(endpoint: factory.endpointChoice(for: provider)) {
            var failures = 0
            for location in locations {
                if recursive {
                    failures += try await Self.removeTree(location, client: client, output: output)
                } else {
                    try await client.deleteObject(bucket: location.bucket, key: location.key ?? "")
                    output.report("delete: \(RemoteLocation.text(location))")
                }
            }
            if failures > 0 {
                throw CLIError(status: .failure, message: "\(failures) object(s) could not be deleted")
            }
        }
    }

    /// Deletes `location`'s key and everything under `key/` (the whole bucket for a bucket URL).
    /// - Returns: How many keys the service refused to delete (each reported on standard error).
    static func removeTree(_ location: ObjectURL, client: ObjectStorageClient, output: OutputFlags) async throws -> Int
    {
        let key = location.key ?? ""
        let directory = key.isEmpty || key.hasSuffix("/") ? key : key + "/"
        var batch: [String] = []
        var failures = 0
        for try await page in client.listObjectsV2(bucket: location.bucket, prefix: key.isEmpty ? nil : key) {
            for object in page.contents where object.key == key || object.key.hasPrefix(directory) {
                batch.append(object.key)
                if batch.count == batchSize {
                    failures += try await deleteBatch(batch, bucket: location, client: client, output: output)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty {
            failures += try await deleteBatch(batch, bucket: location, client: client, output: output)
        }
        return failures
    }

    private static func deleteBatch(
        _ keys: [String],
        bucket: ObjectURL,
        client: ObjectStorageClient,
        output: OutputFlags
    ) async throws -> Int {
        let response = try await client.deleteObjects(bucket: bucket.bucket, keys: keys)
        for key in response.deleted {
            output.report(
                "delete: \(RemoteLocation.text(ObjectURL(provider: bucket.provider, bucket: bucket.bucket, key: key)))"
            )
        }
        for failure in response.failures {
            let url = RemoteLocation.text(ObjectURL(provider: bucket.provider, bucket: bucket.bucket, key: failure.key))
            printError("objstore: delete failed: \(url): \(failure.code): \(failure.message)")
        }
        return response.failures.count
    }
}
