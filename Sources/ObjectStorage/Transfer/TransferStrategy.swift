//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging

/// One direction of a checkpointed transfer (`uploadFile`, `resumableDownload`, `resumableCopy`), driven by
/// ``CheckpointedTransfer``, which owns the rest: the lock, the concurrency cap, durable
/// coalesced saves, progress, restarts and cleanup after a failure.
protocol TransferStrategy: Sendable {
    /// The transfer's state on disk.
    associatedtype Checkpoint: TransferCheckpoint
    /// What a round's parts share besides the checkpoint (a download's temp file and probe).
    associatedtype Session: Sendable

    /// The checkpoint file, or `nil` when checkpointing is off (nothing is saved and nothing resumes).
    var checkpointPath: String? { get }
    /// The most parts in flight, plus parts landed but not yet durable in the checkpoint.
    var concurrency: Int { get }
    /// How many times a transfer may start over (``TransferFailure/restart(reason:exhausted:)``).
    var maximumRestarts: Int { get }
    /// The caller's progress closure.
    var progress: TransferProgressHandler? { get }
    /// The transfer's logger.
    var logger: Logger { get }

    /// Starts a round: resumes a valid checkpoint at ``checkpointPath`` or creates (and saves) a fresh one, or
    /// ends the transfer without parts.
    ///
    /// - Parameters:
    ///   - restarts: The restarts so far; a strategy that starts over while preparing counts it here.
    ///   - isRestart: Whether an earlier round of this call failed and was discarded.
    /// - Returns: The round's checkpoint and session, or how the transfer already ended.
    func prepare(restarts: inout Int, isRestart: Bool) async throws -> TransferStart<Self>

    /// Moves one part; runs in a child task, concurrently with other parts.
    ///
    /// - Parameters:
    ///   - part: The part's number or index, one of the checkpoint's ``TransferCheckpoint/missingParts``.
    ///   - checkpoint: The checkpoint as the round started.
    ///   - session: The round's session.
    ///   - reporter: Counts the part's bytes as they move (and takes back those of a failed attempt).
    /// - Returns: The part's record, for ``TransferCheckpoint/record(_:)``.
    func transfer(
        part: Int,
        of checkpoint: Checkpoint,
        in session: Session,
        reporter: TransferProgressReporter
    ) async throws -> Checkpoint.Part

    /// Makes `checkpoint` durable at `path`. The bytes of the parts it records need not be durable yet: an
    /// upload's are on the server, and a resumed download re-reads its recorded parts and fetches again those whose
    /// bytes did not survive. Blocking (it waits for the disk); the core calls it on NIO's thread pool while parts
    /// move, never on the cooperative pool that schedules them, and directly for the last save of a round.
    func save(_ checkpoint: Checkpoint, in session: Session, to path: String) throws

    /// Ends a round whose parts are all recorded and durable: completes the object or commits the file, then
    /// removes the checkpoint.
    ///
    /// - Returns: What the transfer learned about the object and how it was verified.
    func finish(_ checkpoint: Checkpoint, in session: Session) async throws -> TransferCompletion

    /// What the failure of a round means; the core checks cancellation first (a cancelled round is kept).
    ///
    /// - Parameters:
    ///   - error: What the round threw.
    ///   - restarts: The restarts so far.
    func failure(_ error: any Error, restarts: Int) -> TransferFailure

    /// Cleans up a failed round whose work is not kept: without a checkpoint, or discarded (the core then
    /// removes the checkpoint). Never throws; a failure to clean up is logged.
    ///
    /// - Parameters:
    ///   - checkpoint: The round's state when it failed.
    ///   - session: The round's session.
    ///   - discarded: Whether the work is discarded (``TransferFailure/restart(reason:exhausted:)`` or
    ///     ``TransferFailure/discard``) rather than failed without a checkpoint.
    func abandon(_ checkpoint: Checkpoint, in session: Session, discarded: Bool) async
}

extension TransferStrategy {
    /// Runs the transfer with the shared core.
    func run() async throws -> TransferResult {
        try await CheckpointedTransfer(strategy: self).run()
    }
}

/// How ``TransferStrategy/prepare(restarts:isRestart:)`` starts a round.
enum TransferStart<Strategy: TransferStrategy> {
    /// Move the checkpoint's missing parts.
    case parts(Strategy.Checkpoint, Strategy.Session)
    /// A killed run had already finished the transfer this checkpoint records: the core removes the checkpoint
    /// and reports every part as reused.
    case finishedEarlier(Strategy.Checkpoint, TransferCompletion)
    /// The transfer is done without parts (an upload's single PUT).
    case finished(TransferResult)
}

/// What a failed round of a checkpointed transfer means (``TransferStrategy/failure(_:restarts:)``).
enum TransferFailure {
    /// The remote side changed: discard the work and start over from zero, at most
    /// ``TransferStrategy/maximumRestarts`` times; after that, throw `exhausted`.
    case restart(reason: String, exhausted: any Error)
    /// The work cannot be trusted: discard it and fail.
    case discard
    /// Fail; the checkpoint, if any, keeps every finished part for the next call.
    case keep
}

/// Thrown by a strategy when a round's work can no longer be trusted, whatever ``TransferStrategy/failure(_:restarts:)``
/// would make of `underlying`: the core discards the round with its checkpoint, as for ``TransferFailure/discard``,
/// and throws `underlying`, which is what the caller sees.
///
/// A failed `fsync` of a download's temp file is one: Linux may drop the pages it could not write and report success
/// to the next `fsync`, so the bytes a resumed run would re-read from the page cache are not known to be on disk.
struct UntrustworthyWork: Error {
    var underlying: any Error
}

/// What a finished transfer learned about the object, beside what its checkpoint records.
struct TransferCompletion: Sendable {
    var etag: String?
    var versionID: String?
    var crc64: UInt64?
    var lastModified: String?
    var verification: TransferResult.Verification
    var contentMD5Verified = false
}

/// The state of a transfer cut into parts, as ``CheckpointedTransfer`` reads and updates it: the layout,
/// which parts are done, and how a landed part is recorded. The file formats are the Checkpoint layer's.
protocol TransferCheckpoint: Sendable {
    /// The record of one landed part.
    associatedtype Part: Sendable

    /// The local file, as an absolute path: an upload's source, a download's destination.
    var filePath: String { get }
    /// The object's size (for a ranged download, the whole object).
    var objectSize: Int64 { get }
    /// The object offsets the transfer moves.
    var objectRange: Range<Int64> { get }
    /// The bytes the transfer moves (the length of ``objectRange``).
    var totalBytes: Int64 { get }
    /// The bytes of the parts recorded as done.
    var bytesCompleted: Int64 { get }
    var partSize: Int64 { get }
    var partCount: Int { get }
    /// How many parts are recorded as done.
    var completedPartCount: Int { get }
    /// The parts still to move, in order.
    var missingParts: [Int] { get }
    /// What ``TransferResult/isMultipart`` reports.
    var isMultipart: Bool { get }

    /// Records a landed part.
    mutating func record(_ part: Part) throws
}
