//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint

/// The state of one multipart upload while its parts are in flight: the checkpoint, updated as each
/// part lands, and which of those records are durable.
///
/// Each ``record(_:)`` raises the generation by one; a save of a ``snapshot()`` reports its generation
/// with ``didSave(_:)``. `generation - savedGeneration` is the number of landed parts a SIGKILL would
/// lose, which the sender counts against its concurrency budget.
actor UploadLedger {
    private(set) var checkpoint: UploadCheckpoint
    private let path: String?
    private let store: CheckpointStore
    private(set) var generation = 0
    private(set) var savedGeneration = 0

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
    /// - Returns: The new generation (the number of parts recorded so far).
    func record(_ part: UploadCheckpoint.UploadedPart) throws(CheckpointError) -> Int {
        try checkpoint.recordPart(part)
        generation += 1
        if path == nil { savedGeneration = generation }
        return generation
    }

    /// The latest state and its generation, to save outside the actor.
    func snapshot() -> (checkpoint: UploadCheckpoint, generation: Int) {
        (checkpoint, generation)
    }

    /// Notes that the state of `generation` is durable.
    func didSave(_ generation: Int) {
        savedGeneration = max(savedGeneration, generation)
    }

    /// Saves the latest state if a record has not been saved yet (call only when no save is running).
    func flush() throws {
        guard let path, generation > savedGeneration else { return }
        try store.save(checkpoint, to: path)
        savedGeneration = generation
    }
}
