//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage

/// The options of a directory job (`cp -r`, `sync`).
struct DirectoryFlags: ParsableArguments, Sendable {
    @Option(
        help:
            "Leave out names (relative to the directory or prefix) matching this pattern; '*' matches '/' too (repeatable)."
    )
    var exclude: [String] = []

    @Option(help: "Bring back names an --exclude left out, e.g. --exclude '*' --include '*.jpg' (repeatable).")
    var include: [String] = []

    @Flag(help: "Print what would be transferred or deleted, and change nothing.")
    var dryrun = false

    @Option(
        help:
            "How many objects to transfer at once (1–\(TransferOptions.maximumConcurrency), default 16); a large file counts as its parts in flight."
    )
    var transfers: Int?

    @Flag(help: "Follow symbolic links while walking a local directory (default: skip and report them).")
    var followSymlinks = false

    @Option(help: "Where to keep the job's manifest (default: in ~/.cache/objstore/jobs, named after the job).")
    var manifest: String?

    @Flag(help: "Print one JSON object per object on standard output instead of lines of text.")
    var json = false

    @Option(
        help: """
            Read a versioned bucket as it was at this time (ISO 8601 with a zone, e.g. 2026-11-28T09:30:00Z): each \
            key's version of then, and none that did not exist then. Downloads and copies only.
            """
    )
    var versionAt: String?

    /// The flag that only a directory job takes, if one was given (for `cp` without `--recursive`).
    var firstGiven: String? {
        if !exclude.isEmpty { return "--exclude" }
        if !include.isEmpty { return "--include" }
        if dryrun { return "--dryrun" }
        if transfers != nil { return "--transfers" }
        if followSymlinks { return "--follow-symlinks" }
        if manifest != nil { return "--manifest" }
        if versionAt != nil { return "--version-at" }
        return json ? "--json" : nil
    }

    func validate() throws {
        if let transfers, !(1...TransferOptions.maximumConcurrency).contains(transfers) {
            throw ValidationError(
                "--transfers must be between 1 and \(TransferOptions.maximumConcurrency), not \(transfers)"
            )
        }
    }
}
