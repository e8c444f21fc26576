//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

extension ProgressBar {
    /// Prints the summary line of a finished upload or download: both report the same
    /// ``TransferResult``, so one summary serves both directions.
    ///
    /// - Parameter result: What the transfer did.
    func finish(_ result: TransferResult) {
        self.finish(
            totalBytes: result.bytesTransferred + result.bytesReused,
            reusedBytes: result.bytesReused,
            transferredBytes: result.bytesTransferred,
            parts: (result.partsReused, result.partCount),
            restarts: result.restarts
        )
    }
}
