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

/// `objstore rm URL...`: deletes objects, everything under a prefix, or the unfinished multipart uploads under one.
struct RemoveCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete objects, or with --recursive every object under a bucket or prefix.",
        discussion: """
            Deleting a key that does not exist succeeds, as the services do. With --recursive, \
            oss://b/dir deletes the key 'dir' and every key under 'dir/' (not 'dir2'); keys are deleted \
            in batches of up to 1000 per request. Prints 'delete: URL' per key removed.

            With --incomplete, each URL is a bucket or key prefix and the unfinished multipart uploads under it \
            are aborted instead (their parts are stored, and billed, until then); objects are left alone. \
            --older-than 7d keeps the uploads started less than 7 days ago (units s, m, h, d), so that \
            transfers still running, or waiting to resume, are not cut off. Prints 'abort: URL (upload ID)' per \
            upload. 'objstore ls --incomplete URL' lists them.

            --version-id ID deletes that version of one object for good (or that delete marker, which uncovers \
            the version under it). --recursive --all-versions deletes every version and delete marker under \
            each URL for good: on a versioned bucket a plain delete only hides objects behind delete markers, \
            and the bucket is not empty until they are gone ('rb --force' does this and removes the bucket).

            --dryrun prints the lines and changes nothing.
            """
    )

    @Argument(help: "oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY (a bucket or prefix with --recursive)")
    var urls: [String]

    @Flag(name: .shortAndLong, help: "Delete every object under each URL.")
    var recursive = false

    @Flag(help: "Abort the unfinished multipart uploads under each URL instead of deleting objects.")
    var incomplete = false

    @Option(help: "Delete this version of the object for good (`ls --versions` lists them).")
    var versionID: String?

    @Flag(help: "With --recursive, delete every version and delete marker under each URL for good.")
    var allVersions = false

    @Option(help: "With --incomplete, only the uploads started longer ago than this: 90s, 30m, 12h, 7d.")
    var olderThan: Age?

    @Flag(help: "Print what would be deleted or aborted, and change nothing.")
    var dryrun = false

    @OptionGroup var remote: RemoteOptions

    @OptionGroup(title: "Output Options") var output: OutputFlags

    static let batchSize = 1000

    func validate() throws {
        guard !urls.isEmpty else { throw ValidationError("Missing expected argument '<urls> ...'") }
        guard olderThan == nil || incomplete else {
            throw ValidationError("--older-than applies to unfinished uploads: add --incomplete")
        }
        guard !(incomplete && recursive) else {
            throw ValidationError("--incomplete already covers everything under each URL: drop --recursive")
        }
        guard !allVersions || (recursive && versionID == nil) else {
            throw ValidationError(
                "--all-versions deletes the versions under a prefix: add --recursive, drop --version-id"
            )
        }
        guard versionID == nil || (!recursive && !incomplete && urls.count == 1) else {
            throw ValidationError("--version-id names a version of one object: give one URL, without --recursive")
        }
    }

    func run() async throws {
        let locations = try urls.map { text throws(CLIError) in
            try recursive || incomplete
                ? RemoteLocation.any(text)
                : RemoteLocation.object(
                    text,
                    recursiveHint:
                        "add --recursive (-r) to delete every object in it, or use rb to delete the empty bucket"
                )
        }
        guard let vendor = locations.first?.vendor else { return }
        guard locations.allSatisfy({ $0.vendor == vendor }) else {
            throw CLIError.usage("URL: all URLs must use the same scheme")
        }
        let output = self.output
        try await ClientFactory(options: remote).run(on: vendor) { client in
            var failures = 0
            for location in locations {
                if incomplete {
                    let cutoff = olderThan.map { Date(timeIntervalSinceNow: -$0.seconds) }
                    try await Self.abortUploads(
                        under: location,
                        startedBefore: cutoff,
                        client: client,
                        output: output,
                        dryrun: dryrun
                    )
                } else if allVersions {
                    let removal = VersionRemoval(location: location, client: client, output: output, dryrun: dryrun)
                    failures += try await removal.run().failures
                } else if let versionID {
                    try await Self.removeVersion(
                        versionID,
                        of: location,
                        client: client,
                        output: output,
                        dryrun: dryrun
                    )
                } else if recursive {
                    failures += try await Self.removeTree(location, client: client, output: output, dryrun: dryrun)
                } else {
                    try await Self.requireObject(location, client: client)
                    if !dryrun { try await client.deleteObject(bucket: location.bucket, key: location.key ?? "") }
                    output.report("\(dryrun ? "(dryrun) " : "")delete: \(RemoteLocation.text(location))")
                }
            }
            if failures > 0 {
                throw CLIError(status: .failure, message: "\(failures) object(s) could not be deleted")
            }
        }
    }

    /// Throws "not found" for a URL that names no object: a DELETE of a missing key succeeds, so `rm` of a prefix
    /// without `--recursive` would otherwise report a deletion that did not happen.
    private static func requireObject(_ location: ObjectURL, client: ObjectStorageClient) async throws {
        do {
            _ = try await client.headObject(bucket: location.bucket, key: location.key ?? "")
        } catch let error as ServiceError where error.statusCode == 404 && error.code != .noSuchBucket {
            throw CLIError(
                status: .notFound,
                message: "rm: \(RemoteLocation.text(location)) is not an object, so nothing was deleted; to delete "
                    + "the objects under a prefix, add --recursive (-r)"
            )
        }
    }

    /// Deletes one version (or delete marker) of `location`'s object for good, after checking that it exists: a
    /// DELETE of an unknown version succeeds on the services, and would report a deletion that did not happen.
    private static func removeVersion(
        _ versionID: String,
        of location: ObjectURL,
        client: ObjectStorageClient,
        output: OutputFlags,
        dryrun: Bool
    ) async throws {
        let url = RemoteLocation.text(location)
        var what = "version"
        do {
            _ = try await client.headObject(bucket: location.bucket, key: location.key ?? "", versionID: versionID)
        } catch let error as ServiceError where error.statusCode == 405 {
            what = "delete marker"  // a HEAD of a delete marker's id is refused with 405: the marker exists
        } catch let error as ServiceError where error.statusCode == 404 && error.code != .noSuchBucket {
            throw CLIError(
                status: .notFound,
                message: "rm: \(url) has no version '\(versionID)', so nothing was deleted; "
                    + "'objstore ls --versions' lists its versions"
            )
        }
        if !dryrun {
            try await client.deleteObject(bucket: location.bucket, key: location.key ?? "", versionID: versionID)
        }
        output.report("\(dryrun ? "(dryrun) " : "")delete: \(url) (\(what) \(versionID))")
    }

    /// Aborts (or with --dryrun lists) the unfinished uploads under `location` started before `cutoff`, printing
    /// `abort: URL (upload ID)` for each.
    /// - Returns: How many there were.
    @discardableResult
    static func abortUploads(
        under location: ObjectURL,
        startedBefore cutoff: Date?,
        client: ObjectStorageClient,
        output: OutputFlags,
        dryrun: Bool
    ) async throws -> Int {
        let describe = { (upload: ListMultipartUploadsResponse.Upload) in
            let url = ObjectURL(vendor: location.vendor, bucket: location.bucket, key: upload.key)
            return "\(RemoteLocation.text(url)) (upload \(upload.uploadID))"
        }
        guard !dryrun else {
            var count = 0
            for try await page in client.listMultipartUploads(bucket: location.bucket, prefix: location.key) {
                for upload in page.uploads where upload.wasStarted(before: cutoff) {
                    output.report("(dryrun) abort: \(describe(upload))")
                    count += 1
                }
            }
            return count
        }
        let aborted = try await client.abortMultipartUploads(
            bucket: location.bucket,
            prefix: location.key,
            startedBefore: cutoff
        )
        for upload in aborted {
            output.report("abort: \(describe(upload))")
        }
        return aborted.count
    }

    /// Deletes `location`'s key and everything under `key/` (the whole bucket for a bucket URL).
    /// - Returns: How many keys the service refused to delete (each reported on standard error).
    static func removeTree(
        _ location: ObjectURL,
        client: ObjectStorageClient,
        output: OutputFlags,
        dryrun: Bool = false
    ) async throws -> Int {
        let key = location.key ?? ""
        let directory = key.isEmpty || key.hasSuffix("/") ? key : key + "/"
        var batch: [String] = []
        var failures = 0
        for try await page in client.listObjects(bucket: location.bucket, prefix: key.isEmpty ? nil : key) {
            for object in page.contents where object.key == key || object.key.hasPrefix(directory) {
                guard !dryrun else {
                    let url = ObjectURL(vendor: location.vendor, bucket: location.bucket, key: object.key)
                    output.report("(dryrun) delete: \(RemoteLocation.text(url))")
                    continue
                }
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
                "delete: \(RemoteLocation.text(ObjectURL(vendor: bucket.vendor, bucket: bucket.bucket, key: key)))"
            )
        }
        for failure in response.failures {
            let url = RemoteLocation.text(ObjectURL(vendor: bucket.vendor, bucket: bucket.bucket, key: failure.key))
            printError("objstore: delete failed: \(url): \(failure.code): \(failure.message)")
        }
        return response.failures.count
    }
}
