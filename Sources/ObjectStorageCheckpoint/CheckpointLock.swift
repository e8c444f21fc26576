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
    /// The lock file's directory, in which it is checked and deleted by name.
    private let directory: DirectoryHandle
    private let name: String
    private let descriptor: Mutex<Int32>

    private init(checkpointPath: String, lockPath: String, directory: DirectoryHandle, name: String, descriptor: Int32)
    {
        self.checkpointPath = checkpointPath
        self.lockPath = lockPath
        self.directory = directory
        self.name = name
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        release()
    }

    /// Takes the lock for the checkpoint at `checkpointPath`, without waiting.
    ///
    /// - Parameter checkpointPath: The checkpoint path (its directory must exist).
    /// - Returns: The held lock.
    /// The lock file is opened in its directory's ``DirectoryHandle``: a symbolic link, a hard link or anything but
    /// a regular file at its name is refused, so a planted link never makes the lock truncate another file.
    ///
    /// - Throws: ``CheckpointError`` `.checkpointLocked` (with the holder's pid when known) when
    ///   another transfer holds it, `.parentDirectoryMissing` when the directory does not exist,
    ///   `.unsafePath` for a planted link, `.fileSystem` for other failures.
    package static func acquire(for checkpointPath: String) throws(CheckpointError) -> CheckpointLock {
        let lockPath = CheckpointPaths.lockFile(for: checkpointPath)
        let directory: DirectoryHandle
        let name: String
        do {
            (directory, name) = try DirectoryHandle.parentForCheckpoint(lockPath)
        } catch  where error.code == .parentDirectoryMissing {
            throw .parentDirectoryMissing(checkpointPath, directory: CheckpointPaths.directory(of: lockPath))
        }
        for _ in 0..<16 {
            // A releasing holder may remove the file between this open and the check: the inode check below then
            // starts over with the file at the name.
            let descriptor = try directory.openExistingFile(name, flags: O_RDWR, creating: true, allowsUnnamed: true)
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
            if result != 0 {
                let code = errno
                POSIXFile.closeQuietly(descriptor)
                if code == EWOULDBLOCK || code == EAGAIN {
                    var error = CheckpointError.checkpointLocked(path: checkpointPath, lockPath: lockPath)
                    if let holder = readHolder(directory, name) { error.message += " (held by process \(holder))" }
                    throw error
                }
                throw .fileSystem("flock", path: lockPath, errno: code)
            }
            // The file may have been deleted (by a releasing holder) between our open and flock:
            // then we hold a lock nobody else can see. Start over with the file at the path now.
            guard case .success(let held) = POSIXFile.status(descriptor: descriptor),
                case .success(let current) = directory.status(name),
                held.inode == current.inode, held.device == current.device
            else {
                POSIXFile.closeQuietly(descriptor)
                continue
            }
            let pid = Array("\(getpid())\n".utf8)
            if ftruncate(descriptor, 0) == 0 { try? POSIXFile.writeAll(descriptor, pid, path: lockPath) }
            return CheckpointLock(
                checkpointPath: checkpointPath,
                lockPath: lockPath,
                directory: directory,
                name: name,
                descriptor: descriptor
            )
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
                case .success(let current) = self.directory.status(self.name),
                held.inode == current.inode, held.device == current.device
            {
                self.directory.remove(self.name)
            }
            POSIXFile.closeQuietly(descriptor)
            descriptor = -1
        }
    }

    private static func readHolder(_ directory: DirectoryHandle, _ name: String) -> Int32? {
        guard case .success(let descriptor) = directory.openRaw(name, flags: O_RDONLY | O_NONBLOCK) else { return nil }
        defer { POSIXFile.closeQuietly(descriptor) }
        guard case .success(let bytes) = POSIXFile.readAll(descriptor: descriptor, limit: 64) else { return nil }
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
