//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import Synchronization

/// Cancels a transfer's task once its progress reaches a threshold: the demo's stand-in for the
/// user pressing Ctrl-C in `objstore cp`.
final class DemoPause: Sendable {
    private struct State {
        var cancel: (@Sendable () -> Void)?
        var pausedAt: Int64?
    }

    private let threshold: Int64
    private let state = Mutex(State())

    /// - Parameter threshold: The completed byte count at which to pause.
    init(threshold: Int64) {
        self.threshold = threshold
    }

    /// The completed bytes reported when the pause was triggered, or `nil` if it was not.
    var pausedAt: Int64? { state.withLock { $0.pausedAt } }

    /// Feeds a progress report; triggers the pause the first time one reaches the threshold.
    func observe(_ progress: TransferProgress) {
        let cancel = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.pausedAt == nil, progress.completedBytes >= threshold,
                progress.completedBytes < progress.totalBytes
            else { return nil }
            state.pausedAt = progress.completedBytes
            // Not attached yet: `run` cancels as soon as it attaches.
            return state.cancel ?? {}
        }
        // Progress handlers run under the engine's reporting lock: cancel from outside it.
        if let cancel { Task { cancel() } }
    }

    /// Runs a transfer in a child task that the pause cancels (and that Ctrl-C, cancelling the
    /// caller, cancels too).
    ///
    /// - Returns: The transfer's value if it finished before the pause, `nil` if it was paused.
    /// - Throws: The transfer's error, or `CancellationError` when the caller was cancelled.
    func run<Value: Sendable>(_ transfer: @escaping @Sendable () async throws -> Value) async throws -> Value? {
        let task = Task { try await transfer() }
        let alreadyPaused = state.withLock { state in
            state.cancel = { task.cancel() }
            return state.pausedAt != nil
        }
        if alreadyPaused { task.cancel() }
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        try Task.checkCancellation()
        switch result {
        case .success(let value):
            return value
        case .failure(let error) where error is CancellationError && pausedAt != nil:
            return nil
        case .failure(let error):
            throw error
        }
    }
}
