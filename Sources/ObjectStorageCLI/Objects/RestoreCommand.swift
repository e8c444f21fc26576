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
        abstract: "Restore archived objects so that they can be read, and with --wait wait until they can.",
        discussion: """
            Asks the service to restore the object (or, with -r, every archived object under the prefix; others \
            are skipped) for --days. A restore takes the service minutes to days. With --wait the command polls \
            until every restore is done and prints each object's expiry; run again after an interruption, it picks \
            up where it was, since the service keeps the restores: one under way is waited for, not asked again.
            """
    )

    @Argument(help: "oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY; with -r a prefix (or a bucket).")
    var url: String

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

    @OptionGroup var remote: RemoteOptions

    func validate() throws {
        guard days >= 1 else { throw ValidationError("--days must be 1 or more, not \(days).") }
        if let tier, RestoreTier.allCases.first(where: { $0.rawValue.lowercased() == tier.lowercased() }) == nil {
            throw ValidationError("--tier must be expedited, standard or bulk, not '\(tier)'.")
        }
        guard pollInterval.seconds >= 1 else { throw ValidationError("--poll-interval must be at least 1s.") }
    }

    func run() async throws {
        let location = recursive ? try RemoteLocation.any(url) : try RemoteLocation.object(url, recursiveHint: "add -r")
        let tier = self.tier.flatMap { name in
            RestoreTier.allCases.first { $0.rawValue.lowercased() == name.lowercased() }
        }
        let (days, wait, interval) = (self.days, self.wait, Duration.seconds(Int64(self.pollInterval.seconds)))
        let recursive = self.recursive
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            var keys: [String] = []
            var skipped = 0
            if recursive {
                for try await page in client.listObjects(bucket: location.bucket, prefix: location.key) {
                    for object in page.contents {
                        if location.vendor.isArchive(object.storageClass) {
                            keys.append(object.key)
                        } else {
                            skipped += 1
                        }
                    }
                }
            } else {
                keys = [location.key ?? ""]
            }
            var pending: [String] = []
            for key in keys {
                let url = RemoteLocation.text(ObjectURL(vendor: location.vendor, bucket: location.bucket, key: key))
                let outcome = try await Self.restore(client, bucket: location.bucket, key: key, days: days, tier: tier)
                switch outcome {
                case .started: printLine("restore started: \(url)")
                case .extended: printLine("restored already, kept \(days) more day\(days == 1 ? "" : "s"): \(url)")
                case .inProgress: printLine("restore in progress: \(url)")
                }
                if outcome != .extended { pending.append(key) }
            }
            if skipped > 0 { printLine("skipped \(skipped) object\(skipped == 1 ? "" : "s") not archived") }
            guard wait else { return }
            while !pending.isEmpty {
                try await Task.sleep(for: interval)
                var still: [String] = []
                for key in pending {
                    let head = try await client.headObject(bucket: location.bucket, key: key)
                    let url = RemoteLocation.text(ObjectURL(vendor: location.vendor, bucket: location.bucket, key: key))
                    switch head.restore {
                    case .restored(let until):
                        printLine("restored: \(url)" + (until.map { " (until \(JSONOutput.iso8601($0)))" } ?? ""))
                    case .inProgress, nil: still.append(key)
                    }
                }
                pending = still
            }
        }
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
