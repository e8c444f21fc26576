//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An error raised by the Checkpoint layer: a bad checkpoint path, a held lock, an I/O failure
/// while saving, or checkpoint content that is not valid to save.
///
/// A checkpoint that fails validation on *load* is not an error: ``CheckpointStore`` returns
/// ``CheckpointLoadResult/discarded(_:previous:)`` with a ``CheckpointInvalidReason`` instead, so a
/// transfer always restarts cleanly.
///
/// Messages carry context (paths, sizes, `errno` text) and never a secret.
///
/// ```swift
/// do {
///     let lock = try CheckpointLock.acquire(for: checkpointPath)
///     defer { lock.release() }
/// } catch let error as CheckpointError where error.code == .checkpointLocked {
///     print(error.message)  // "checkpoint /data/big.iso.dcp is in use by another transfer (lock ...)"
/// }
/// ```
package struct CheckpointError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong. A plain enum: the type is not public, so no client outside the package switches over it
    /// and the codes need no open set.
    package enum Code: String, Hashable, Sendable, CustomStringConvertible {
        /// A checkpoint path that is empty, a directory, or the same as the transfer's destination,
        /// source or temp file.
        case invalidPath
        /// The directory that should contain the checkpoint (or its lock) does not exist. It is
        /// never created implicitly.
        case parentDirectoryMissing
        /// Another transfer (in this process or another one) holds the checkpoint's lock.
        case checkpointLocked
        /// A system call failed (`open`, `write`, `fsync`, `rename`, `stat`...); the message names
        /// the call, the path and the `errno` text.
        case fileSystem
        /// Checkpoint content that is inconsistent: a zero part size, a part index out of range, a
        /// byte range outside the object, a relative path...
        case invalidCheckpoint
        /// Checkpoint content that could carry a credential: an endpoint with a query or user info,
        /// or an `Authorization`/security-token/SSE-C key header. Refused, never written.
        case sensitiveValue
        /// A name where a transfer keeps a file, or a directory on its way, is a symbolic link, a directory, or a
        /// file with other names (a hard link): it is refused, never followed or written through.
        case unsafePath

        /// The code's name, e.g. `checkpointLocked`.
        package var description: String {
            self.rawValue
        }
    }

    /// What went wrong.
    package var code: Code
    /// A description with context (paths, sizes, `errno` text). Never contains a secret.
    package var message: String
    /// The file the error is about, when there is one.
    package var path: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: A description with context; must not contain secrets.
    ///   - path: The file the error is about, if any.
    package init(code: Code, message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    /// `CheckpointError.<code>: <message>`.
    package var description: String { "CheckpointError.\(self.code): \(self.message)" }

    /// The checkpoint at `path` is locked by another transfer.
    ///
    /// - Parameters:
    ///   - path: The checkpoint path.
    ///   - lockPath: The lock file that is held.
    /// - Returns: The error.
    package static func checkpointLocked(path: String, lockPath: String) -> CheckpointError {
        CheckpointError(
            code: .checkpointLocked,
            message: "checkpoint \(path) is in use by another transfer (lock \(lockPath) is held); "
                + "wait for it to finish or stop it before resuming",
            path: path
        )
    }

    static func invalidPath(_ path: String, _ reason: String) -> CheckpointError {
        CheckpointError(code: .invalidPath, message: "invalid checkpoint path '\(path)': \(reason)", path: path)
    }

    static func parentDirectoryMissing(_ path: String, directory: String) -> CheckpointError {
        CheckpointError(
            code: .parentDirectoryMissing,
            message: "directory \(directory) for checkpoint \(path) does not exist (it is not created automatically)",
            path: path
        )
    }

    static func fileSystem(_ call: String, path: String, errno code: Int32) -> CheckpointError {
        CheckpointError(
            code: .fileSystem,
            message: "\(call)(\(path)) failed: \(SystemErrorText.withNumber(code))",
            path: path
        )
    }

    static func invalidCheckpoint(_ reason: String) -> CheckpointError {
        CheckpointError(code: .invalidCheckpoint, message: reason)
    }

    static func sensitiveValue(field: String) -> CheckpointError {
        CheckpointError(
            code: .sensitiveValue,
            message: "checkpoint field '\(field)' could carry a credential; checkpoints never store credentials"
        )
    }
}
