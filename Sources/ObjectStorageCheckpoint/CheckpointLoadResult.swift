//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The outcome of ``CheckpointStore`` `load(at:expecting:)`: a checkpoint to resume from, or why
/// there is none.
///
/// ```swift
/// switch store.load(at: path, expecting: expectation) {
/// case .loaded(let checkpoint):
///     resume(from: checkpoint)
/// case .discarded(let reason, let previous):
///     // Already logged by the store. Clean up what the stale checkpoint pointed at, then start over.
///     if let previous { try? removeTempFile(previous.tempFilePath) }
///     startFresh()
/// }
/// ```
package enum CheckpointLoadResult<Checkpoint: Sendable>: Sendable {
    /// A checkpoint that passed every check and can be resumed from.
    case loaded(Checkpoint)
    /// No usable checkpoint. `previous` is the stored checkpoint when it was authentic (its digest
    /// matched) but stale — another transfer's, an object or source that changed, a missing temp
    /// file — so the caller can clean up what it refers to (a temp file, a server-side multipart
    /// upload). It is `nil` when there was no file or it could not be trusted.
    case discarded(CheckpointInvalidReason, previous: Checkpoint?)

    /// The loaded checkpoint, or `nil` when discarded.
    package var checkpoint: Checkpoint? {
        if case .loaded(let checkpoint) = self { return checkpoint }
        return nil
    }

    /// Why the checkpoint was discarded, or `nil` when loaded.
    package var reason: CheckpointInvalidReason? {
        if case .discarded(let reason, _) = self { return reason }
        return nil
    }

    /// The authentic but stale checkpoint of a discard, if any.
    package var previous: Checkpoint? {
        if case .discarded(_, let previous) = self { return previous }
        return nil
    }
}

extension CheckpointLoadResult: Equatable where Checkpoint: Equatable {}
extension CheckpointLoadResult: Hashable where Checkpoint: Hashable {}
