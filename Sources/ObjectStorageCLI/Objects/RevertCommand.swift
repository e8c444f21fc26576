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

/// `objstore revert URL/PREFIX/ --to TIME`: every key under the prefix made what it was at TIME.
struct RevertCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "revert",
        abstract: "Make every key under a prefix of a versioned bucket what it was at a point in time.",
        discussion: """
            For each key, the version current at --to is copied over it ('restore: URL (version ID)'); a key \
            that did not exist then, or was deleted, is deleted ('delete: URL', a delete marker in a versioned \
            bucket); a key that already is what it was is left alone. The last line counts them: \
            'revert: 3 restored, 1 deleted, 12 unchanged'. With --json, one JSON object per key \
            ({"key","action","versionID"}) and no summary.

            A manifest records each key as it is done (by default in $XDG_CACHE_HOME/objstore/jobs, named after \
            the bucket, prefix and time), so a revert interrupted at any instant (Ctrl-C, kill -9, a crash) and \
            run again with the same arguments finishes what is left and restores no key twice. Keys change \
            --transfers at a time, so the lines come in the order the keys finish. \
            --dryrun prints the lines and changes nothing.
            """
    )

    @Argument(help: "oss://BUCKET/PREFIX, obs://BUCKET/PREFIX or s3://BUCKET/PREFIX (a bucket URL: all of it)")
    var url: String

    @Option(help: "The time to go back to, ISO 8601 with a zone: 2026-11-28T09:30:00Z or 2026-11-28T10:30:00+01:00.")
    var to: String

    @Flag(help: "Print what would change, and change nothing.")
    var dryrun = false

    @Flag(help: "Print one JSON object per key instead of text.")
    var json = false

    @Option(help: "Where to keep the manifest that lets a rerun resume (default: in the user's cache).")
    var manifest: String?

    @Option(help: "How many keys to change at once (1–128, default 16).")
    var transfers = 16

    @OptionGroup var remote: RemoteOptions

    @OptionGroup(title: "Output Options") var output: OutputFlags

    func run() async throws {
        let location = try RemoteLocation.any(url)
        let date = try Instant.past(to, flag: "revert: --to")
        let prefix = location.key ?? ""
        guard (1...128).contains(transfers) else {
            throw CLIError.usage("revert: --transfers must be between 1 and 128, not \(transfers)")
        }
        var options = RevertOptions(isDryRun: dryrun, concurrency: transfers)
        if !dryrun {
            let identity =
                "revert \(location.vendor) \(remote.service.endpoint ?? "") \(location.bucket) \(prefix) \(to)"
            options.manifestPath =
                try manifest
                ?? (CacheDirectory.path("jobs", otherwise: "--manifest") + "/" + JobFileName.hash(identity)
                    + ".manifest")
        }
        let (output, json, dryrun, revertOptions) = (self.output, self.json, self.dryrun, options)
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            var lineError: (any Error)?
            let summary = try await client.revert(
                bucket: location.bucket,
                prefix: prefix,
                to: date,
                options: revertOptions
            ) {
                event in
                do {
                    try Self.print(event, location: location, json: json, dryrun: dryrun, output: output)
                } catch {
                    lineError = error
                }
            }
            if let lineError { throw lineError }
            if !json {
                output.report(
                    "\(dryrun ? "(dryrun) " : "")revert: \(summary.restored) restored, \(summary.deleted) deleted, "
                        + "\(summary.unchanged) unchanged"
                )
            }
        }
    }

    private static func print(
        _ event: RevertEvent,
        location: ObjectURL,
        json: Bool,
        dryrun: Bool,
        output: OutputFlags
    ) throws {
        let (key, action, versionID): (String, String, String?) =
            switch event {
            case .restored(let key, let versionID): (key, "restore", versionID)
            case .deleted(let key): (key, "delete", nil)
            case .unchanged(let key): (key, "unchanged", nil)
            }
        if json {
            try JSONOutput.print(RevertedKey(key: key, action: action, versionID: versionID))
            return
        }
        guard action != "unchanged" else { return }
        let url = RemoteLocation.text(ObjectURL(vendor: location.vendor, bucket: location.bucket, key: key))
        output.report("\(dryrun ? "(dryrun) " : "")\(action): \(url)" + (versionID.map { " (version \($0))" } ?? ""))
    }
}

private struct RevertedKey: Encodable {
    var key: String
    var action: String
    var versionID: String?
}
