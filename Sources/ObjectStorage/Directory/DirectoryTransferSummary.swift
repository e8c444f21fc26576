//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The totals of a directory job, returned when it ends.
///
/// Each object the job found counts once: as ``transferred``, ``unchanged``, ``finishedEarlier``, ``kept``,
/// ``skipped`` or ``failed``. Every object made it when ``failed`` and ``skipped`` are both zero; a rerun of the same job (with a
/// ``DirectoryTransferOptions/manifestPath``) retries what failed.
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
    /// Names left alone with a reason (``DirectoryTransferEvent/skipped(name:reason:)``).
    public var skipped = 0
    /// Objects not written because the service refused a create-only write (``TransferOptions/writeCondition``
    /// ``WriteCondition/ifAbsent``): the destination had the key. Reported as
    /// ``DirectoryTransferEvent/skipped(name:reason:)`` but counted here, not in ``skipped``: they are what was asked.
    public var kept = 0
    /// Transfers and deletions that failed.
    public var failed = 0
    /// Extraneous names kept because a transfer failed: deletions run only after every transfer succeeded, so this is
    /// zero unless ``failed`` is not.
    public var deletionsWithheld = 0
}
