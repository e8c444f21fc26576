//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint

/// The state of one multipart upload while its parts are in flight: the checkpoint, updated as each
/// part lands, and coalesced crash-safe saves of it.
///
/// Saves run outside the actor, at most one at a time, always of the latest state: the part task
/// whose ``record(_:)`` finds no save running drives ``drainSaves()``, which saves until no newer
/// record is left. Parts that land during a save are folded into the next one.
actor UploadLedger {
    private(set) var checkpoint: UploadCheckpoint
    private let path: String?
    private let store: CheckpointStore
    private var generation = 0
    private var savedGeneration = 0
    private var isSaving = false

    /// - Parameters:
    ///   - checkpoint: The upload's state.
    ///   - path: Where to save it; `nil` keeps it in memory only (checkpointing off).
    ///   - store: The store that writes it.
    init(checkpoint: UploadCheckpoint, path: String?, store: CheckpointStore) {
        self.checkpoint = checkpoint
        self.path = path
        self.store = store
    }

    /// Records a part the server acknowledged.
    ///
    /// - Returns: Whether the caller must now run ``drainSaves()`` (no save was running).
    func record(_ part: UploadCheckpoint.UploadedPart) throws(CheckpointError) -> Bool {
        try checkpoint.recordPart(part)
        guard path != nil else { return false }
        generation += 1
        guard !isSaving else { return false }
        isSaving = true
        return true
    }

    /// Saves until the file holds the latest state. Call only after ``record(_:)`` returned `true`.
    nonisolated func drainSaves() async throws {
        guard let path else { return }
        while let (snapshot, generation) = await nextSave() {
            do {
                try store.save(snapshot, to: path)
            } catch {
                await saveFailed()
                throw error
            }
            await didSave(generation)
        }
    }

    /// Saves the latest state if a record has not been saved yet (after every part task has ended).
    func flush() throws {
        guard let path, generation > savedGeneration, !isSaving else { return }
        try store.save(checkpoint, to: path)
        savedGeneration = generation
    }

    private func nextSave() -> (UploadCheckpoint, Int)? {
        guard generation > savedGeneration else {
            isSaving = false
            return nil
        }
        return (checkpoint, generation)
    }

    private func didSave(_ generation: Int) {
        savedGeneration = max(savedGeneration, generation)
    }

    private func saveFailed() {
        isSaving = false
    }
}
