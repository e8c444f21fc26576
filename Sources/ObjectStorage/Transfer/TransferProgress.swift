//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A snapshot of a transfer's progress, delivered to a progress closure.
///
/// Reports never go backwards, and on a resumed transfer the first report already counts the
/// bytes kept from the earlier run (`resumedBytes`).
public struct TransferProgress: Sendable, Hashable {
    /// Bytes transferred and kept so far, including bytes kept from an earlier run.
    public var completedBytes: Int64
    /// The transfer's total size in bytes; while ``isTotalKnown`` is `false` (a stream of unknown length), the
    /// bytes read from the stream so far, a lower bound.
    public var totalBytes: Int64
    /// Whether ``totalBytes`` is the final size: `false` while a stream of unknown length is still being read
    /// (``ObjectStorageClient/uploadStream(_:bucket:key:attributes:options:logger:progress:)``), `true` otherwise.
    public var isTotalKnown: Bool
    /// Bytes that were already done when this run started (reused from a checkpoint).
    public var resumedBytes: Int64
    /// Average bytes per second over this run (excluding resumed bytes); 0 until measurable.
    public var bytesPerSecond: Double

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - completedBytes: Bytes transferred and kept so far, including resumed ones.
    ///   - totalBytes: The transfer's total size in bytes.
    ///   - resumedBytes: Bytes reused from an earlier run.
    ///   - bytesPerSecond: Average bytes per second over this run.
    ///   - isTotalKnown: Whether `totalBytes` is the final size.
    package init(
        completedBytes: Int64,
        totalBytes: Int64,
        resumedBytes: Int64,
        bytesPerSecond: Double,
        isTotalKnown: Bool = true
    ) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.isTotalKnown = isTotalKnown
        self.resumedBytes = resumedBytes
        self.bytesPerSecond = bytesPerSecond
    }

    /// The completed fraction from 0 to 1 (1 for an empty transfer, 0 while the total is unknown).
    public var fractionCompleted: Double {
        guard isTotalKnown else { return 0 }
        return totalBytes > 0 ? Double(completedBytes) / Double(totalBytes) : 1
    }

    /// The estimated seconds remaining at the current rate, or `nil` when no rate or no total is known yet.
    public var estimatedSecondsRemaining: Double? {
        guard bytesPerSecond > 0, isTotalKnown else { return nil }
        return Double(max(totalBytes - completedBytes, 0)) / bytesPerSecond
    }
}

/// The closure type transfers report progress through. It is called serially, at most every 100 milliseconds
/// (plus a final report), from the transfer's tasks or from the network thread that just sent or received the
/// bytes: keep it quick (update a counter or a progress bar) and hand anything slow to a task of your own.
public typealias TransferProgressHandler = @Sendable (TransferProgress) -> Void
