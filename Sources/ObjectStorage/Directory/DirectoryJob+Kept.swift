//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension DirectoryJob {
    /// The reason a refused create-only write is reported with.
    static let keptReason = "already exists at the destination (create-only write)"

    /// Whether `error` is the service refusing an upload's or a copy's create-only write
    /// (``TransferOptions/writeCondition`` ``WriteCondition/ifAbsent``) because the key exists: the object is then
    /// reported as skipped and counted in ``DirectoryTransferSummary/kept``, not as a failure. The service decides,
    /// in the write itself, so no HEAD precedes each object and a key written meanwhile is not overwritten either.
    func isKept(_ error: any Error) -> Bool {
        guard self.direction != .download, self.options.transfer.writeCondition == .ifAbsent else { return false }
        return (error as? ServiceError)?.isWriteConditionFailure == true
    }
}
