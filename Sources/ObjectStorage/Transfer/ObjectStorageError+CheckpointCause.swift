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

    /// The error a transfer throws for a Checkpoint layer failure, the same for uploads and downloads:
    /// a held lock is ``Code/checkpointLocked``, a bad checkpoint path ``Code/invalidArgument``, and a
    /// checkpoint that cannot be written or is not valid to write ``Code/checkpointFailed``.
    ///
    /// - Parameter error: The Checkpoint layer's error.
    init(checkpoint error: CheckpointError) {
        switch error.code {
        case .checkpointLocked:
            self.init(code: .checkpointLocked, message: error.message)
        case .invalidPath, .parentDirectoryMissing:
            self.init(code: .invalidArgument, message: error.message)
        case .unsafePath:
            self.init(code: .unsafePath, message: error.message)
        default:
            self.init(code: .checkpointFailed, message: error.message)
        }
    }
}

extension CheckpointLock {
    /// Takes a transfer's checkpoint lock, failing as both directions do: ``ObjectStorageError/Code/checkpointLocked``
    /// while another transfer (in this process or another) holds it, ``ObjectStorageError/Code/unsafePath`` when a
    /// link or a file with other names stands at the lock's name, ``ObjectStorageError/Code/fileSystem``
    /// when the lock file cannot be created.
    ///
    /// - Parameter path: The checkpoint path.
    /// - Returns: The held lock.
    static func acquireForTransfer(_ path: String) throws(ObjectStorageError) -> CheckpointLock {
        do {
            return try CheckpointLock.acquire(for: path)
        } catch {
            if error.code == .checkpointLocked { throw ObjectStorageError(checkpoint: error) }
            var failure = ObjectStorageError.fileSystem("lock the checkpoint", path: path, cause: error)
            // A link or a second name planted at the lock's name stays what it is.
            if error.code == .unsafePath { failure.code = .unsafePath }
            throw failure
        }
    }
}
