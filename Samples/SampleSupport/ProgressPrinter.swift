//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorage
import Synchronization

/// Prints a transfer's progress once per 10 % reached, so a long transfer prints a few lines, not thousands.
public final class ProgressPrinter: Sendable {
    private let printedTenths = Mutex(-1)

    /// Creates a printer that has printed nothing yet.
    public init() {}

    /// Prints `progress` if it reached a new multiple of 10 %.
    ///
    /// - Parameter progress: A report from a transfer's progress handler.
    public func callAsFunction(_ progress: TransferProgress) {
        let tenths = Int(progress.fractionCompleted * 10)
        let previous = self.printedTenths.withLock { printed in
            defer { printed = max(printed, tenths) }
            return printed
        }
        guard tenths > previous else { return }
        let percent = Int(progress.fractionCompleted * 100)
        print("  \(percent) %  \(progress.completedBytes) of \(progress.totalBytes) bytes")
    }
}
