//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import ObjectStorageSigning

/// How ``ObjectStorageClient/uploadFile(from:bucket:key:attributes:options:logger:progress:)`` chooses the part
/// size: a pure function of the file size, the requested size and the vendor.
///
/// 1. The requested size is clamped to the vendor's limits (``limits(for:)``): OSS and OBS accept
///    parts of 100 KiB to 5 GiB, S3 5 MiB to 5 GiB (all but the last part).
/// 2. If the file would need more than ``maximumPartCount`` parts, the size is raised to
///    `ceil(fileSize / 10,000)` rounded up to a whole MiB.
/// 3. A file larger than 10,000 × 5 GiB is refused before any request is sent.
///
/// ```swift
/// let plan = try UploadPartSizing.plan(fileSize: 200 << 30, requestedPartSize: 5 << 20, vendor: .s3)
/// plan.partSize   // 21 MiB: 200 GiB / 10,000 rounded up to a MiB
/// ```
package enum UploadPartSizing {
    /// The most parts a multipart upload may have (OSS, OBS and S3).
    package static let maximumPartCount = 10_000
    /// The alignment of a part size raised to fit ``maximumPartCount`` parts: 1 MiB.
    package static let fitAlignment: Int64 = 1024 * 1024

    /// The part size chosen for one upload.
    package struct Plan: Hashable, Sendable {
        /// The final part size (every part but the last has this size).
        package var partSize: Int64
        /// The number of parts (1 for an empty file).
        package var partCount: Int
        /// The requested size, when it was outside the vendor's limits and clamped.
        package var clampedFrom: Int64?
        /// Whether the size was raised so the file fits in ``UploadPartSizing/maximumPartCount`` parts.
        package var enlargedToFit: Bool

        /// Creates a plan.
        ///
        /// - Parameters:
        ///   - partSize: The final part size.
        ///   - partCount: The number of parts.
        ///   - clampedFrom: The requested size, when clamped.
        ///   - enlargedToFit: Whether the size was raised to fit 10,000 parts.
        package init(partSize: Int64, partCount: Int, clampedFrom: Int64? = nil, enlargedToFit: Bool = false) {
            self.partSize = partSize
            self.partCount = partCount
            self.clampedFrom = clampedFrom
            self.enlargedToFit = enlargedToFit
        }
    }

    /// The part sizes a vendor accepts for every part but the last.
    ///
    /// - Parameter vendor: The vendor.
    /// - Returns: 5 MiB...5 GiB for S3, 100 KiB...5 GiB for OSS and OBS.
    package static func limits(for vendor: StorageVendor) -> ClosedRange<Int64> {
        let maximum: Int64 = 5 * 1024 * 1024 * 1024
        return vendor == .s3 ? (5 * 1024 * 1024)...maximum : (100 * 1024)...maximum
    }

    /// Chooses the part size for a file.
    ///
    /// - Parameters:
    ///   - fileSize: The file's size in bytes (≥ 0).
    ///   - requestedPartSize: The caller's part size (> 0).
    ///   - vendor: The vendor whose limits apply.
    /// - Returns: The final part size and part count.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a negative file size, a part size
    ///   ≤ 0, or a file larger than 10,000 parts of the largest part size.
    package static func plan(
        fileSize: Int64,
        requestedPartSize: Int64,
        vendor: StorageVendor
    ) throws(ObjectStorageError) -> Plan {
        guard fileSize >= 0 else { throw .invalidArgument("file size \(fileSize) is negative") }
        guard requestedPartSize > 0 else {
            throw .invalidArgument("part size \(requestedPartSize) must be positive")
        }
        let limits = self.limits(for: vendor)
        let (most, overflow) = limits.upperBound.multipliedReportingOverflow(by: Int64(maximumPartCount))
        guard overflow || fileSize <= most else {
            throw .invalidArgument(
                "the file has \(fileSize) bytes, more than \(maximumPartCount) parts of \(limits.upperBound) bytes "
                    + "(\(most) bytes) allow for \(vendor)"
            )
        }
        let clamped = min(max(requestedPartSize, limits.lowerBound), limits.upperBound)
        var plan = Plan(
            partSize: clamped,
            partCount: partCount(fileSize: fileSize, partSize: clamped),
            clampedFrom: clamped == requestedPartSize ? nil : requestedPartSize
        )
        if plan.partCount > maximumPartCount {
            let needed = (fileSize + Int64(maximumPartCount) - 1) / Int64(maximumPartCount)
            let aligned = (needed + fitAlignment - 1) / fitAlignment * fitAlignment
            plan.partSize = min(aligned, limits.upperBound)
            plan.partCount = partCount(fileSize: fileSize, partSize: plan.partSize)
            plan.enlargedToFit = true
        }
        return plan
    }

    static func partCount(fileSize: Int64, partSize: Int64) -> Int {
        max(1, Int((fileSize + partSize - 1) / partSize))
    }
}
