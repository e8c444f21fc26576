//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

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
}
