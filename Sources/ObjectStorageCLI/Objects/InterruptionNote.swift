//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint

/// What Ctrl-C leaves behind, said when a transfer is interrupted: what was kept, where, and whether a rerun of
/// the same command resumes or starts over. A bar may show bytes of parts in flight; only finished parts count.
enum InterruptionNote {
    /// The error a single transfer (`cp FILE URL`, `cp URL FILE`, `cp URL URL`) ends with after Ctrl-C.
    ///
    /// - Parameter checkpoint: The transfer's checkpoint file, `nil` when it ran without one.
    /// - Returns: Exit status 130 and what the checkpoint keeps: `interrupted: 3 of 12 parts (24.0 MiB of
    ///   96.0 MiB) are kept in the checkpoint /data/big.iso.ucp; run the same command again to resume.`
    static func transfer(checkpoint: String?) -> CLIError {
        CLIError(status: .interrupted, message: "interrupted: " + kept(checkpoint: checkpoint))
    }

    /// The error `cp -r` and `sync` end with after Ctrl-C.
    ///
    /// - Parameters:
    ///   - done: The objects finished (transferred, unchanged or deleted).
    ///   - found: The objects found so far.
    ///   - isListingComplete: Whether `found` is all there are.
    ///   - manifest: The job's manifest, `nil` when it ran without one.
    /// - Returns: Exit status 130 and what a rerun will skip.
    static func job(done: Int, found: Int, isListingComplete: Bool, manifest: String?) -> CLIError {
        var text =
            isListingComplete
            ? "interrupted after \(done) of \(found) objects"
            : "interrupted after \(done) objects (of \(found) found so far)"
        if let manifest {
            text +=
                "; the manifest \(manifest) records them (and the checkpoints of large objects their finished "
                + "parts): run the same command again to continue where this run stopped."
        } else {
            text +=
                "; no manifest was kept: a rerun compares every object again"
                + " (with sync, those finished are then unchanged)."
        }
        return CLIError(status: .interrupted, message: text)
    }

    private static func kept(checkpoint: String?) -> String {
        guard let checkpoint else { return "no checkpoint was kept (--no-checkpoint); a rerun starts over." }
        guard let kept = CheckpointStore().kept(at: checkpoint) else {
            return "the transfer had not recorded a checkpoint yet; a rerun starts over."
        }
        guard kept.parts > 0 else {
            return "no part of \(kept.partCount) had finished (the checkpoint \(checkpoint) holds none), so a rerun "
                + "starts over."
        }
        return "\(kept.parts) of \(kept.partCount) parts (\(ProgressBar.size(kept.bytes)) of "
            + "\(ProgressBar.size(kept.totalBytes))) are kept in the checkpoint \(checkpoint); run the same command "
            + "again to resume."
    }
}
