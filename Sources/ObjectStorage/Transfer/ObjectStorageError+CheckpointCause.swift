//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint

extension ObjectStorageError {
    /// A local file operation failed in the Checkpoint layer, whose message already names the call,
    /// the path and the reason.
    ///
    /// - Parameters:
    ///   - operation: What was attempted, e.g. `lock the checkpoint`.
    ///   - path: The file.
    ///   - error: The Checkpoint layer's error.
    /// - Returns: The error.
    static func fileSystem(_ operation: String, path: String, cause error: CheckpointError) -> ObjectStorageError {
        ObjectStorageError(code: .fileSystem, message: "cannot \(operation) '\(path)': \(error.message)")
    }
}
