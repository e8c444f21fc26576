//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint
import ObjectStorageTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension DirectoryJob {
    /// Turns the planner's decision on one name into an event, a deletion for the end of the job, or a transfer
    /// to run (returned).
    func schedule(
        _ decision: DirectoryPlanner.Decision,
        source: DirectoryEntry?,
        destination: DirectoryEntry?,
        manifest: DirectoryManifest?,
        _ state: inout RunState
    ) throws -> ScheduledItem<Outcome>? {
        switch decision {
        case .keep:
            return nil
        case .delete(let target):
            if let name = destination?.name { state.extraneous.append((name, target)) }
            return nil
        case .unchanged, .finishedEarlier, .skip, .transfer:
            break
        }
        guard let source else { return nil }
        switch decision {
        case .keep, .delete:
            return nil
        case .unchanged:
            self.finishUnchanged(&state)
            return nil
        case .finishedEarlier:
            state.summary.finishedEarlier += 1
            self.reportProgress(&state)
            return nil
        case .skip(let reason):
            self.report(.skipped(name: source.name, reason: reason), &state)
            return nil
        case .transfer(let transfer):
            return try self.planned(transfer, source: source, manifest: manifest, &state)
        }
    }

    /// A transfer as a scheduled item: its weight, its options (a large object's checkpoint beside the manifest,
    /// recorded as started), and the task that moves it. A dry run reports it instead.
    private func planned(
        _ transfer: DirectoryPlanner.Transfer,
        source: DirectoryEntry,
        manifest: DirectoryManifest?,
        _ state: inout RunState
    ) throws -> ScheduledItem<Outcome>? {
        let (name, size, key, path) = (source.name, source.size, transfer.key, transfer.path)
        if self.options.isDryRun {
            if let digest = transfer.unlessMD5,
                (try? Self.file(digest.path, size: digest.size, hasMD5: digest.md5)) == true
            {
                self.finishUnchanged(&state)
                return nil
            }
            self.report(.transferred(name: name, size: size), &state)
            return nil
        }
        let isLarge = transfer.isLarge
        let weight = isLarge ? max(1, min(self.options.transfer.concurrency, self.options.concurrency)) : 1
        var options = self.options.transfer
        options.enableCheckpoint = isLarge && manifest != nil
        options.checkpointFilePath = manifest.map {
            Self.checkpointPath(manifest: $0.path, name: name, direction: self.direction)
        }
        if isLarge, let manifest {
            do {
                try manifest.appendStart(name)
            } catch {
                throw ObjectStorageError(checkpoint: error)
            }
            state.startedLarge[Array(name.utf8)] = name
        }
        let job = self
        return ScheduledItem(weight: weight) { [options] in
            var outcome = Outcome(
                name: name,
                path: path ?? source.path,
                size: size,
                stamp: transfer.stamp
            )
            outcome.isLarge = isLarge
            do {
                if let digest = transfer.unlessMD5, try Self.file(digest.path, size: digest.size, hasMD5: digest.md5) {
                    outcome.isUnchanged = true
                    return outcome
                }
                let moved = try await job.move(source, key: key, path: path, isLarge: isLarge, options: options)
                outcome.stamp = moved ?? transfer.stamp
            } catch {
                outcome.error = error
            }
            return outcome
        }
    }

    /// Counts a name the destination already has.
    private func finishUnchanged(_ state: inout RunState) {
        state.summary.unchanged += 1
        self.reportProgress(&state)
    }

    /// Records a finished transfer: the manifest first, then the event.
    func record(_ outcome: Outcome, manifest: DirectoryManifest?, _ state: inout RunState) throws {
        if outcome.isUnchanged {
            self.finishUnchanged(&state)
            return
        }
        if let error = outcome.error {
            if Task.isCancelled || error is CancellationError || Self.failsEveryObject(error) { throw error }
            if self.isKept(error) {
                self.report(.skipped(name: outcome.name, reason: Self.keptReason), &state)
                // What was asked for: counted as kept, not as skipped.
                state.summary.skipped -= 1
                state.summary.kept += 1
                return
            }
            if let reason = self.reasonARerunFailsToo(outcome, error) {
                self.report(.skipped(name: outcome.name, reason: reason), &state)
            } else {
                self.report(.transferFailed(name: outcome.name, error: error), &state)
            }
            return
        }
        do throws(CheckpointError) {
            let record = DirectoryManifest.Record(name: outcome.name, size: outcome.size, stamp: outcome.stamp)
            try manifest?.append(record)
        } catch {
            throw ObjectStorageError(checkpoint: error)
        }
        if outcome.isLarge { state.finishedLarge.insert(Array(outcome.name.utf8)) }
        self.report(.transferred(name: outcome.name, size: outcome.size), &state)
    }

    /// Why a failed object would fail again on every rerun, when that is so; such an object is reported as skipped.
    ///
    /// - An upload's file vanished since the walk found it: there is nothing to upload.
    /// - A download's path is refused (`unsafePath`): a file or a symbolic link stands where the key needs a directory,
    ///   as a download of the keys `a` and `a/b` leaves one of them, whichever lands first.
    /// - A download's path is a directory: the same collision the other way round.
    func reasonARerunFailsToo(_ outcome: Outcome, _ error: any Error) -> String? {
        guard let path = outcome.path else { return nil }
        switch self.direction {
        case .upload:
            return access(path, F_OK) != 0 ? "vanished during the job" : nil
        case .download:
            if let error = error as? ObjectStorageError, error.code == .unsafePath { return error.message }
            guard LocalPaths.isDirectory(path) else { return nil }
            return "'\(path)' is a directory, which holds the files of keys that continue this one"
        case .copy:
            return nil
        }
    }

    /// Whether an error would fail every other object too (the bucket is missing, the credentials are refused, the
    /// endpoint cannot be reached after the retries): the job stops at the first, rather than report one failure
    /// per object.
    static func failsEveryObject(_ error: any Error) -> Bool {
        if let error = error as? ServiceError {
            return [.noSuchBucket, .invalidAccessKeyID, .signatureDoesNotMatch, .requestTimeTooSkewed]
                .contains(error.code)
        }
        if let error = error as? TransportError {
            return [.connectFailed, .hostNotFound, .tlsFailed, .redirectRefused].contains(error.code)
        }
        return false
    }

    /// Counts an event in the summary and the progress, then reports it and the progress it makes. A dry run's
    /// transfers count in the summary's bytes, not in the progress's, which counts the bytes moved.
    func report(_ event: DirectoryTransferEvent, _ state: inout RunState) {
        switch event {
        case .transferred(_, let size):
            state.summary.transferred += 1
            state.summary.transferredBytes += size
            if !self.options.isDryRun { state.progress.bytesTransferred += size }
            state.progress.objectsDone += 1
        case .transferFailed:
            state.summary.failed += 1
            state.progress.objectsDone += 1
        case .skipped:
            state.summary.skipped += 1
            state.progress.objectsDone += 1
        case .deleted:
            state.summary.deleted += 1
        case .deletionFailed:
            state.summary.failed += 1
        case .progress:
            break
        }
        guard let events = self.events else { return }
        events(event)
        events(state.progress.event)
    }

    /// Counts an object finished with no event of its own (the destination had it), and reports the progress.
    func reportProgress(_ state: inout RunState) {
        state.progress.objectsDone += 1
        self.events?(state.progress.event)
    }
}
