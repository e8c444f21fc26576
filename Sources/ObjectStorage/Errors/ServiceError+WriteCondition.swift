//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension ServiceError {
    /// Whether a conditional write (``WriteCondition``) was refused because its condition did not hold, in any
    /// service's dialect: S3's `PreconditionFailed` (412) and `ConditionalRequestConflict` (409, a concurrent
    /// write won), OSS's `FileAlreadyExists` (409). Nothing was written.
    ///
    /// A `PreconditionFailed` also answers a read whose `If-Match` failed: this says "condition not met", and
    /// only the request tells which kind.
    public var isWriteConditionFailure: Bool {
        [.preconditionFailed, .conditionalRequestConflict, .fileAlreadyExists].contains(self.code)
    }
}
