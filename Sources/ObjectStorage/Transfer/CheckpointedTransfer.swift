//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageCheckpoint

/// The engine of every resumable transfer: one loop, driven by a ``TransferStrategy`` that knows the direction.
///
/// A run holds the checkpoint's lock (when checkpointing is on) throughout and goes in rounds: the strategy
/// prepares (resumes the checkpoint or starts afresh), the missing parts move (``transferParts(_:session:reporter:)``),
/// the strategy finishes. A failed round is kept (a pause: the checkpoint holds every finished part), discarded,
/// or discarded and started over when the remote side changed (``TransferFailure``). Progress never goes back,
/// across rounds too.
struct CheckpointedTransfer<Strategy: TransferStrategy>: Sendable {
    let strategy: Strategy

    func run() async throws -> TransferResult {
        let store = CheckpointStore(logger: strategy.logger)
        var lock: CheckpointLock?
        if let path = strategy.checkpointPath {
            lock = try CheckpointLock.acquireForTransfer(path)
            store.removeStaleTemporaryFiles(for: path)
        }
        defer { lock?.release() }
        var restarts = 0
        var reporter: TransferProgressReporter?
        while true {
            let (start, session): (Strategy.Checkpoint, Strategy.Session)
            // Only a restarted round finds a reporter: the first round with parts creates it.
            switch try await strategy.prepare(restarts: &restarts, isRestart: reporter != nil) {
            case .finished(let result):
                return result
            case .finishedEarlier(let finished, let completion):
                if let path = strategy.checkpointPath { try? store.remove(at: path) }
                let reporter = TransferProgressReporter(
                    totalBytes: finished.totalBytes,
                    resumedBytes: finished.bytesCompleted,
                    handler: strategy.progress
                )
                reporter.begin()
                reporter.finish()
                return TransferResult(finished, reusing: finished, completion, restarts: restarts)
            case .parts(let checkpoint, let roundSession):
                (start, session) = (checkpoint, roundSession)
            }
            let round: TransferProgressReporter
            if let reporter, reporter.totalBytes == start.totalBytes {
                round = reporter
                round.add(start.bytesCompleted)
            } else {
                round = TransferProgressReporter(
                    totalBytes: start.totalBytes,
                    resumedBytes: start.bytesCompleted,
                    handler: strategy.progress
                )
                round.begin()
            }
            reporter = round
            var checkpoint = start
            do {
                try await transferParts(&checkpoint, session: session, reporter: round)
                let completion = try await strategy.finish(checkpoint, in: session)
                round.finish()
                return TransferResult(checkpoint, reusing: start, completion, restarts: restarts)
            } catch {
                try await recover(from: error, checkpoint, in: session, restarts: &restarts, reporter: round)
            }
        }
    }

    /// Ends a failed round as the strategy's ``TransferFailure`` says: keeps it (a pause), discards it, or discards
    /// it and returns, so that the caller starts over.
    ///
    /// - Throws: `error`, or the strategy's error once ``TransferStrategy/maximumRestarts`` is reached.
    private func recover(
        from error: any Error,
        _ checkpoint: Strategy.Checkpoint,
        in session: Strategy.Session,
        restarts: inout Int,
        reporter: TransferProgressReporter
    ) async throws {
        if let untrustworthy = error as? UntrustworthyWork {
            await discard(checkpoint, in: session)
            throw untrustworthy.underlying
        }
        var failure = strategy.failure(error, restarts: restarts)
        if case .restart = failure, Task.isCancelled { failure = .keep }
        switch failure {
        case .keep:
            if strategy.checkpointPath == nil {
                await strategy.abandon(checkpoint, in: session, discarded: false)
            } else {
                strategy.logger.info(
                    "transfer paused or failed; the checkpoint keeps it for the next call",
                    metadata: ["os.bytes_kept": "\(checkpoint.bytesCompleted)"]
                )
            }
            throw error
        case .discard:
            await discard(checkpoint, in: session)
            throw error
        case .restart(let reason, let exhausted):
            await discard(checkpoint, in: session)
            guard restarts < strategy.maximumRestarts else { throw exhausted }
            restarts += 1
            // The bytes counted so far move again; reports never go back, so progress pauses instead.
            reporter.rewind()
            strategy.logger.notice(
                "starting over: \(reason)",
                metadata: ["os.reason": "\(reason)", "os.restart": "\(restarts)"]
            )
        }
    }

    /// Throws away a failed round's work: the strategy's, then the checkpoint.
    private func discard(_ checkpoint: Strategy.Checkpoint, in session: Strategy.Session) async {
        await strategy.abandon(checkpoint, in: session, discarded: true)
        if let path = strategy.checkpointPath { try? CheckpointStore(logger: strategy.logger).remove(at: path) }
    }

    /// Moves the checkpoint's missing parts with the ``DurableScheduler`` and records each in `checkpoint` as it
    /// lands.
    ///
    /// A landed part keeps its slot until a save covers it, so a new part starts only while the parts in flight
    /// plus those landed but not yet durable are fewer than ``TransferStrategy/concurrency``. Saves are coalesced:
    /// one at a time, each of the latest state, on NIO's thread pool. Before this returns or throws, the state of
    /// every landed part is saved, so a pause keeps every finished part.
    ///
    /// - Throws: The first error of a part, a record or a save; the other parts are then cancelled.
    private func transferParts(
        _ checkpoint: inout Strategy.Checkpoint,
        session: Strategy.Session,
        reporter: TransferProgressReporter
    ) async throws {
        var parts = Parts(strategy: strategy, session: session, reporter: reporter, checkpoint: checkpoint)
        defer { checkpoint = parts.checkpoint }
        let scheduler = DurableScheduler(
            concurrency: strategy.concurrency,
            holdsSlotsUntilDurable: strategy.checkpointPath != nil
        )
        try await scheduler.run(&parts)
    }

    /// A round's parts as ``DurableWork``: the checkpoint records them and is saved as the flush.
    private struct Parts: DurableWork {
        let strategy: Strategy
        let session: Strategy.Session
        let reporter: TransferProgressReporter
        let start: Strategy.Checkpoint
        var checkpoint: Strategy.Checkpoint
        var pending: IndexingIterator<[Int]>
        /// Parts recorded since the last save began.
        var unsaved = 0

        init(
            strategy: Strategy,
            session: Strategy.Session,
            reporter: TransferProgressReporter,
            checkpoint: Strategy.Checkpoint
        ) {
            self.strategy = strategy
            self.session = session
            self.reporter = reporter
            self.start = checkpoint
            self.checkpoint = checkpoint
            self.pending = checkpoint.missingParts.makeIterator()
        }

        mutating func next() async throws -> ScheduledItem<Strategy.Checkpoint.Part>? {
            guard let part = self.pending.next() else { return nil }
            let (strategy, start, session, reporter) = (self.strategy, self.start, self.session, self.reporter)
            return ScheduledItem(weight: 1) {
                try await strategy.transfer(part: part, of: start, in: session, reporter: reporter)
            }
        }

        mutating func record(_ landed: Strategy.Checkpoint.Part) throws {
            try self.checkpoint.record(landed)
            self.unsaved += 1
        }

        var isFlushDue: Bool { self.strategy.checkpointPath != nil && self.unsaved > 0 }

        mutating func beginFlush() -> @Sendable () throws -> Void {
            self.unsaved = 0
            let (strategy, session, snapshot) = (self.strategy, self.session, self.checkpoint)
            return {
                guard let path = strategy.checkpointPath else { return }
                try strategy.save(snapshot, in: session, to: path)
            }
        }

        mutating func flushRemaining() throws {
            self.unsaved = 0
            guard let path = self.strategy.checkpointPath else { return }
            try self.strategy.save(self.checkpoint, in: self.session, to: path)
        }
    }
}

extension TransferResult {
    /// The result of a checkpointed transfer: the layout and counts from its checkpoint, the object from its
    /// completion.
    ///
    /// - Parameters:
    ///   - finished: The checkpoint with every part recorded.
    ///   - start: The checkpoint as this call's last round started: its parts count as reused.
    ///   - completion: What the transfer learned about the object.
    ///   - restarts: How many times the transfer started over.
    init<Checkpoint: TransferCheckpoint>(
        _ finished: Checkpoint,
        reusing start: Checkpoint,
        _ completion: TransferCompletion,
        restarts: Int
    ) {
        self.init(
            filePath: finished.filePath,
            etag: completion.etag,
            versionID: completion.versionID,
            crc64: completion.crc64,
            lastModified: completion.lastModified,
            objectSize: finished.objectSize,
            range: finished.objectRange,
            bytesTransferred: finished.totalBytes - start.bytesCompleted,
            bytesReused: start.bytesCompleted,
            partSize: finished.partSize,
            partCount: finished.partCount,
            partsTransferred: finished.partCount - start.completedPartCount,
            partsReused: start.completedPartCount,
            isMultipart: finished.isMultipart,
            restarts: restarts,
            verification: completion.verification,
            contentMD5Verified: completion.contentMD5Verified
        )
    }

    /// The result of a transfer done with one request (a single PUT, one CopyObject): one part, nothing reused.
    ///
    /// - Parameters:
    ///   - written: The service's answer to the request.
    ///   - filePath: The local file, or `""` when there is none.
    ///   - size: The object's size.
    ///   - verification: What was verified.
    ///   - contentMD5Verified: Whether the request carried a `Content-MD5` the service checked.
    init(
        singleRequest written: ObjectWriteResult,
        filePath: String = "",
        size: Int64,
        verification: Verification,
        contentMD5Verified: Bool
    ) {
        self.init(
            filePath: filePath,
            etag: written.etag,
            versionID: written.versionID,
            crc64: written.crc64,
            objectSize: size,
            range: 0..<size,
            bytesTransferred: size,
            bytesReused: 0,
            partSize: size,
            partCount: 1,
            partsTransferred: 1,
            partsReused: 0,
            isMultipart: false,
            restarts: 0,
            verification: verification,
            contentMD5Verified: contentMD5Verified
        )
    }
}
