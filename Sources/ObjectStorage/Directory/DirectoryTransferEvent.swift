//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What happened to one object of a directory job, reported as it happens.
public struct DirectoryTransferEvent: Sendable {
    /// The kind of event.
    public enum Action: String, Sendable, Hashable {
        /// A file was uploaded to ``key``.
        case uploaded
        /// An object was downloaded to ``path``.
        case downloaded
        /// An object was copied to ``key`` (a prefix-to-prefix job).
        case copied
        /// ``key`` (an upload) or ``path`` (a download) was deleted: the source has no such name.
        case deleted
        /// The name was left alone: ``reason`` says why (an unsafe key, a symbolic link, a name that is not UTF-8).
        case skipped
        /// The transfer or deletion failed: ``reason`` says why. The job goes on with the other objects.
        case failed
    }

    /// What happened.
    public var action: Action
    /// The name relative to the directory and the prefix (`/`-separated).
    public var name: String
    /// The object key, when there is one.
    public var key: String?
    /// The local path, when there is one.
    public var path: String?
    /// The object's size in bytes (`0` when unknown).
    public var size: Int64
    /// Why an object was skipped or failed, as a sentence.
    public var reason: String?
    /// The error of a failure.
    public var error: (any Error)?
    /// Whether this is what a dry run would do, not what it did.
    public var isDryRun: Bool
}

/// The totals of a directory job.
public struct DirectoryTransferSummary: Sendable, Hashable {
    /// Objects transferred (or that a dry run would transfer).
    public var transferred = 0
    /// Their bytes.
    public var transferredBytes: Int64 = 0
    /// Objects left alone because the destination already had them (``DirectoryTransferOptions/comparison``).
    public var unchanged = 0
    /// Objects an earlier run of the same job had finished (from its manifest).
    public var finishedEarlier = 0
    /// Names deleted from the destination (or that a dry run would delete).
    public var deleted = 0
    /// Names skipped with a reason.
    public var skipped = 0
    /// Transfers or deletions that failed.
    public var failed = 0
    /// Extraneous names kept because a transfer failed (deletions run only after every transfer succeeded).
    public var deletionsWithheld = 0

    /// Whether every object made it: nothing failed and nothing was skipped.
    public var isComplete: Bool { failed == 0 && skipped == 0 && deletionsWithheld == 0 }

    /// A summary with zero everywhere.
    public init() {}
}

/// The aggregate progress of a directory job, reported after each object.
public struct DirectoryTransferProgress: Sendable, Hashable {
    /// Objects finished so far (transferred, unchanged, finished earlier, skipped or failed).
    public var objectsDone = 0
    /// Objects found so far; the total once ``isListingComplete``.
    public var objectsFound = 0
    /// Bytes transferred so far.
    public var bytesTransferred: Int64 = 0
    /// Whether both sides have been listed to the end.
    public var isListingComplete = false
}

/// Receives a directory job's events, one at a time, in the order they happen.
public typealias DirectoryTransferEventHandler = @Sendable (DirectoryTransferEvent) -> Void
/// Receives a directory job's progress.
public typealias DirectoryTransferProgressHandler = @Sendable (DirectoryTransferProgress) -> Void
