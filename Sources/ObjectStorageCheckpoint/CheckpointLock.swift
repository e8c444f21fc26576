//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory, exclusive lock that stops two transfers — in this process or in others — from
/// resuming the same checkpoint at once. Hold it from before the checkpoint is loaded until after
/// it is removed or the transfer stops.
///
/// **Mechanism.** `flock(LOCK_EX | LOCK_NB)` on a sidecar file `<checkpoint>.lock` (mode 0600;
/// it contains the holder's process id, for diagnostics). `flock` locks belong to an open file
/// description, so a second ``acquire(for:)`` in the same process fails just like one from another
/// process, and the kernel drops the lock when the holder exits — even on `SIGKILL` — so a crash
/// never leaves a stuck lock (a leftover lock *file* is harmless and reused).
///
/// **Lock file life cycle.** Created by ``acquire(for:)`` if absent. ``release()`` (or `deinit`)
/// deletes it while still holding the lock, then closes it. A competitor that opened the old file
/// just before the deletion and then wins the lock notices that the path no longer names the file
/// it locked, and retries with a fresh one, so deleting is safe. The lock is only advisory: tools
/// that do not take it (an editor, `rm`) are not stopped.
///
/// Not supported on network file systems where `flock` is a no-op (some NFS setups).
///
/// ```swift
/// let lock = try CheckpointLock.acquire(for: checkpointPath)   // throws .checkpointLocked if held
/// defer { lock.release() }
/// ```
package final class CheckpointLock: Sendable {
    /// The checkpoint this lock guards.
    package let checkpointPath: String
    /// The lock file (`<checkpoint>.lock`).
    package let lockPath: String
    private let descriptor: Mutex<Int32>

    private init(checkpointPath: String, lockPath: String, descriptor: Int32) {
        self.checkpointPath = checkpointPath
        self.lockPath = lockPath
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        release()
    }

    /// Takes the lock for the checkpoint at `checkpointPath`, without waiting.
    ///
    /// - Parameter checkpointPath: The checkpoint path (its directory must exist).
    /// - Returns: The held lock.
    /// - Throws: ``CheckpointError`` `.checkpointLocked` (with the holder's pid when known) when
    ///   another transfer holds it, `.parentDirectoryMissing` when the directory does not exist,
    ///   `.fileSystem` for other failures.
    package static func acquire(for checkpointPath: String) throws(CheckpointError) -> CheckpointLock {
        let lockPath = CheckpointPaths.lockFile(for: checkpointPath)
        for _ in 0..<16 {
            let descriptor: Int32
            switch POSIXFile.open(lockPath, flags: O_RDWR | O_CREAT, mode: 0o600) {
            case .success(let value): descriptor = value
            case .failure(let error) where error.value == ENOENT || error.value == ENOTDIR:
                throw .parentDirectoryMissing(checkpointPath, directory: CheckpointPaths.directory(of: lockPath))
            case .failure(let error): throw .fileSystem("open", path: lockPath, errno: error.value)
            }
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
            if result != 0 {
                let code = errno
                POSIXFile.closeQuietly(descriptor)
                if code == EWOULDBLOCK || code == EAGAIN {
                    var error = CheckpointError.checkpointLocked(path: checkpointPath, lockPath: lockPath)
                    if let holder = readHolder(lockPath) { error.message += " (held by process \(holder))" }
                    throw error
                }
                throw .fileSystem("flock", path: lockPath, errno: code)
            }
            // The file may have been deleted (by a releasing holder) between our open and flock:
            // then we hold a lock nobody else can see. Start over with the file at the path now.
            guard case .success(let held) = POSIXFile.status(descriptor: descriptor),
                case .success(let current) = POSIXFile.status(lockPath),
                held.inode == current.inode, held.device == current.device
            else {
                POSIXFile.closeQuietly(descriptor)
                continue
            }
            let pid = Array("\(getpid())\n".utf8)
            if ftruncate(descriptor, 0) == 0 { try? POSIXFile.writeAll(descriptor, pid, path: lockPath) }
            return CheckpointLock(checkpointPath: checkpointPath, lockPath: lockPath, descriptor: descriptor)
        }
        throw .checkpointLocked(path: checkpointPath, lockPath: lockPath)
    }

    /// Whether the lock is still held (``release()`` not yet called).
    package var isHeld: Bool { descriptor.withLock { $0 >= 0 } }

    /// Deletes the lock file and releases the lock. Safe to call more than once.
    package func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            // Delete only the file we locked (never one a later holder created).
            if case .success(let held) = POSIXFile.status(descriptor: descriptor),
                case .success(let current) = POSIXFile.status(lockPath),
                held.inode == current.inode, held.device == current.device
            {
                _ = unlink(lockPath)
            }
            POSIXFile.closeQuietly(descriptor)
            descriptor = -1
        }
    }

    private static func readHolder(_ lockPath: String) -> Int32? {
        guard case .success(let bytes) = POSIXFile.readAll(lockPath, limit: 64) else { return nil }
        return Int32(String(decoding: bytes, as: UTF8.self).trimmingWhitespace())
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
