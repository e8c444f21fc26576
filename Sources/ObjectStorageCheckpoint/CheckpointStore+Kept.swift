//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What a paused transfer's checkpoint keeps: the parts a rerun will not move again.
package struct KeptParts: Equatable, Sendable {
    /// The finished parts the checkpoint records.
    package var parts: Int
    /// The transfer's part count.
    package var partCount: Int
    /// The bytes of the finished parts.
    package var bytes: Int64
    /// The transfer's size in bytes.
    package var totalBytes: Int64
}

extension CheckpointStore {
    /// What the upload, copy or download checkpoint at `path` keeps, read without checking it against a request
    /// (for a message after a pause, not for resuming: a rerun checks it in full).
    ///
    /// - Parameter path: The checkpoint path.
    /// - Returns: Its finished parts and bytes, or `nil` when there is no checkpoint there or it is not an
    ///   authentic, consistent one.
    package func kept(at path: String) -> KeptParts? {
        guard case .success(let bytes) = POSIXFile.readAll(path, limit: maximumFileSize) else { return nil }
        let counts: (parts: Int, of: Int, bytes: Int64, length: Int64)
        if case .success(let upload) = CheckpointEnvelope.decode(bytes, as: UploadCheckpoint.self),
            upload.contentProblem() == nil
        {
            counts = (upload.parts.count, upload.partCount, upload.bytesCompleted, upload.layout.length)
        } else if case .success(let download) = CheckpointEnvelope.decode(bytes, as: DownloadCheckpoint.self),
            download.contentProblem() == nil
        {
            counts = (
                download.completedParts.count, download.partCount, download.bytesCompleted, download.layout.length
            )
        } else {
            return nil
        }
        return KeptParts(parts: counts.parts, partCount: counts.of, bytes: counts.bytes, totalBytes: counts.length)
    }
}
