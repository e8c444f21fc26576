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

struct RestoreCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore archived objects so that they can be read; with --wait wait until they can, with a "
            + "destination download them too.",
        discussion: """
            Asks the service to restore the object (or, with -r, every archived object under the prefix; others \
            are skipped) for --days. A restore takes the service minutes to days. With --wait the command polls \
            until every restore is done and prints each object's expiry. With a destination it waits, then \
            downloads as cp does (a file, or with -r the whole prefix into a directory, archived or not), with a \
            checkpoint or a manifest. The whole command is one job that survives an interruption or a kill: run \
            again, it starts no second restore, since the service keeps them (one under way is waited for, one \
            done is kept longer), and the download resumes where it stopped.
            """
    )

    @Argument(help: "oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY; with -r a prefix (or a bucket).")
    var url: String

    @Argument(help: "Where to download once restored (implies --wait): a file, or with -r a directory.")
    var destination: String?

    @Flag(name: [.short, .customLong("recursive")], help: "Restore every archived object under the prefix.")
    var recursive = false

    @Option(help: "How many days the restored copy is kept (S3: 1 or more; OSS: 1-7 for Archive; OBS: 1-30).")
    var days = 1

    @Option(help: "How fast: expedited, standard (the services' default) or bulk.")
    var tier: String?

    @Flag(help: "Wait until every restore is done.")
    var wait = false

    @Option(help: "How often --wait asks (30s, 1m).")
    var pollInterval = Age(argument: "30s")!

    @OptionGroup(title: "Download Options (with a destination)")
    var transfer: TransferFlags

    @OptionGroup var remote: RemoteOptions

    @OptionGroup(title: "Output Options") var output: OutputFlags

    func validate() throws {
        guard days >= 1 else { throw ValidationError("--days must be 1 or more, not \(days).") }
        if let tier, RestoreTier.allCases.first(where: { $0.rawValue.lowercased() == tier.lowercased() }) == nil {
            throw ValidationError("--tier must be expedited, standard or bulk, not '\(tier)'.")
        }
        guard pollInterval.seconds >= 1 else { throw ValidationError("--poll-interval must be at least 1s.") }
    }

    func run() async throws {
        let location = recursive ? try RemoteLocation.any(url) : try RemoteLocation.object(url, recursiveHint: "add -r")
        if destination == nil, let flag = transfer.firstGiven {
            throw CLIError.usage("restore: \(flag) applies to the download, which needs a destination")
        }
        if let flag = transfer.uploadOnlyFlags.first {
            throw CLIError.usage("restore: \(flag) applies to uploads only")
        }
        try transfer.checkNoClobber(command: "restore", destination: nil)
        // A destination cp would refuse is refused before anything is asked of the service.
        var download: CopyPlan?
        if let destination, !recursive { download = try CopyPlan(source: url, destination: destination) }
        let tier = self.tier.flatMap { name in
            RestoreTier.allCases.first { $0.rawValue.lowercased() == name.lowercased() }
        }
        let waits = wait || destination != nil
        let (days, interval, recursive, output) = (
            self.days, Duration.seconds(Int64(self.pollInterval.seconds)), self.recursive, self.output
        )
        let factory = ClientFactory(options: remote, bandwidthLimit: transfer.limitRate?.bytes)
        try await factory.run(on: location.vendor) { client in
            let keys = try await Self.archivedKeys(client, location: location, recursive: recursive, output: output)
            var pending: [String] = []
            for key in keys {
                let url = RemoteLocation.text(ObjectURL(vendor: location.vendor, bucket: location.bucket, key: key))
                let outcome = try await Self.restore(client, bucket: location.bucket, key: key, days: days, tier: tier)
                switch outcome {
                case .started: output.report("restore started: \(url)")
                case .extended: output.report("restored already, kept \(days) more day\(days == 1 ? "" : "s"): \(url)")
                case .inProgress: output.report("restore in progress: \(url)")
                }
                if outcome != .extended { pending.append(key) }
            }
            guard waits else { return }
            while !pending.isEmpty {
                try await Task.sleep(for: interval)
                var still: [String] = []
                for key in pending {
                    let head = try await client.headObject(bucket: location.bucket, key: key)
                    let url = RemoteLocation.text(ObjectURL(vendor: location.vendor, bucket: location.bucket, key: key))
                    switch head.restore {
                    case .restored(let until):
                        output.report("restored: \(url)" + (until.map { " (until \(JSONOutput.iso8601($0)))" } ?? ""))
                    case .inProgress, nil: still.append(key)
                    }
                }
                pending = still
            }
        }
        guard let destination else { return }
        if case .download(let origin, let path)? = download?.direction {
            let flags = transfer
            let createsDirectory = destination.hasSuffix("/")
            let client = try await factory.makeClient(for: origin.vendor)
            try await RemoteFailure.run(endpoint: factory.endpointChoice(for: origin.vendor)) {
                try await CopyTransfer.reported(
                    "download",
                    from: RemoteLocation.text(origin),
                    to: path,
                    flags: flags,
                    output: output
                ) { bar in
                    try await CopyTransfer.download(
                        from: origin,
                        toFile: path,
                        createsDirectory: createsDirectory,
                        flags: flags,
                        client: client,
                        bar: bar
                    )
                }
            }
        } else {
            try await DirectoryTransfer(
                command: "restore",
                mode: .copy,
                source: url,
                destination: destination,
                flags: DirectoryFlags.parse([]),
                transfer: transfer,
                output: output,
                remote: remote
            ).run()
        }
    }

    /// The keys to restore: the object named, or with `recursive` every archived object under the prefix (the
    /// others are counted in a line, not restored).
    private static func archivedKeys(
        _ client: ObjectStorageClient,
        location: ObjectURL,
        recursive: Bool,
        output: OutputFlags
    ) async throws -> [String] {
        guard recursive else { return [location.key ?? ""] }
        var keys: [String] = []
        var skipped = 0
        for try await page in client.listObjects(bucket: location.bucket, prefix: location.key) {
            for object in page.contents {
                if location.vendor.isArchive(object.storageClass) {
                    keys.append(object.key)
                } else {
                    skipped += 1
                }
            }
        }
        if skipped > 0 { output.report("skipped \(skipped) object\(skipped == 1 ? "" : "s") not archived") }
        return keys
    }

    /// One restore; an object that is not archived is named in a sentence rather than by the service's code.
    private static func restore(
        _ client: ObjectStorageClient,
        bucket: String,
        key: String,
        days: Int,
        tier: RestoreTier?
    ) async throws -> RestoreRequestOutcome {
        do {
            return try await client.restoreObject(bucket: bucket, key: key, days: days, tier: tier)
        } catch let error as ServiceError
            where error.code == .invalidObjectState || error.code == "OperationNotSupported"
        {
            throw CLIError(
                status: .failure,
                message: "restore: '\(key)' is not archived, so it needs no restore: it can be read as it is "
                    + "(\(error.code): \(error.message))"
            )
        }
    }
}
