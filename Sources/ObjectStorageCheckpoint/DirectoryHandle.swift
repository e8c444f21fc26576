//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory held open by its descriptor, in which the files a transfer keeps beside the user's own (temp
/// files, checkpoints, locks, manifests, the destination itself) are created, opened, renamed and deleted by
/// name.
///
/// Anyone who can create a file in that directory (a shared or group-writable folder, a CI workspace) may plant
/// a symbolic link or a hard link at a name a transfer is about to use, or swap a directory for a link between a
/// check and a use. The handle defeats each:
/// - The directory is looked up once; every later call is relative to its descriptor (`openat`, `renameat`,
///   `unlinkat`, `fstatat`), so a path component swapped afterwards redirects nothing.
/// - A name is never followed when it is a symbolic link (`O_NOFOLLOW`, `AT_SYMLINK_NOFOLLOW`): the call fails
///   with ``CheckpointError/Code/unsafePath``.
/// - ``createFile(_:flags:mode:)`` removes what is at the name and creates a new file with `O_EXCL`, so neither a
///   symbolic link nor a hard link to another file is ever written through.
/// - ``openExistingFile(_:flags:creating:)`` (a resumed temp file, a lock, a manifest) accepts only a regular file
///   with no other name (one link).
/// - ``descend(_:creating:)`` walks below the directory one component at a time, each opened with
///   `O_NOFOLLOW | O_DIRECTORY`, so the directories a listing's keys name stay under the job's root.
///
/// The directory a user names (`/data` in `/data/big.iso`) is opened as named, following its links: where the
/// user's own path leads is the user's choice.
///
/// ```swift
/// let (directory, name) = try DirectoryHandle.parent(of: "/data/big.iso")
/// let descriptor = try directory.createFile(name + ".part", flags: O_RDWR, mode: 0o644)
/// ```
package final class DirectoryHandle: Sendable {
    /// The directory's path, for messages (the descriptor, not this path, is what calls use).
    package let path: String
    /// The open directory.
    package let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        POSIXFile.closeQuietly(self.descriptor)
    }

    /// Opens the directory at `path` as the user named it.
    ///
    /// - Parameter path: A directory path.
    /// - Returns: The handle.
    /// - Throws: ``CheckpointError`` `.parentDirectoryMissing` when nothing is there, `.invalidPath` when it is not a
    ///   directory, `.fileSystem` for other failures.
    package static func open(_ path: String) throws(CheckpointError) -> DirectoryHandle {
        switch POSIXFile.open(path, flags: O_RDONLY | O_DIRECTORY) {
        case .success(let descriptor):
            return DirectoryHandle(path: path, descriptor: descriptor)
        case .failure(let error) where error.value == ENOENT:
            throw CheckpointError(
                code: .parentDirectoryMissing,
                message: "directory \(path) does not exist",
                path: path
            )
        case .failure(let error) where error.value == ENOTDIR:
            throw .invalidPath(path, "it is not a directory")
        case .failure(let error):
            throw .fileSystem("open the directory", path: path, errno: error.value)
        }
    }

    /// The directory of an absolute path, opened as named, and the path's last component.
    ///
    /// - Parameter path: An absolute, normalised file path (see ``CheckpointPaths/absolute(_:)``).
    /// - Returns: The handle and the file's name in it.
    /// - Throws: As ``open(_:)``; `.invalidPath` for a path that is not absolute or names no file.
    package static func parent(of path: String) throws(CheckpointError) -> (directory: DirectoryHandle, name: String) {
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/") else {
            throw .invalidPath(path, "the path is not absolute")
        }
        let name = String(path[path.index(after: slash)...])
        guard !name.isEmpty, name != ".", name != ".." else { throw .invalidPath(path, "the path names no file") }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (try open(directory), name)
    }

    /// The path of `name` in this directory, for messages.
    package func path(of name: String) -> String {
        self.path == "/" ? "/" + name : self.path + "/" + name
    }

    /// Opens the directory `components` below this one, one component at a time, each a real directory: a
    /// symbolic link or a file on the way is refused, never followed.
    ///
    /// - Parameters:
    ///   - components: The names of the directories, outermost first (none: this directory).
    ///   - creating: Whether a missing directory is created (mode 0777 less the umask).
    /// - Returns: The innermost directory.
    /// - Throws: ``CheckpointError`` `.unsafePath` for a component that is a symbolic link or not a directory,
    ///   `.parentDirectoryMissing` for a missing one when not `creating`, `.fileSystem` for other failures.
    package func descend(
        _ components: some Sequence<Substring>,
        creating: Bool
    ) throws(CheckpointError)
        -> DirectoryHandle
    {
        var current = self
        for component in components {
            let name = String(component)
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
                throw .invalidPath(current.path(of: name), "a directory name must be one plain component")
            }
            current = try current.child(name, creating: creating)
        }
        return current
    }

    private func child(_ name: String, creating: Bool) throws(CheckpointError) -> DirectoryHandle {
        let path = self.path(of: name)
        for _ in 0..<4 {
            switch self.openRaw(name, flags: O_RDONLY | O_DIRECTORY) {
            case .success(let descriptor):
                return DirectoryHandle(path: path, descriptor: descriptor)
            case .failure(let error) where error.value == ENOENT && creating:
                // Another transfer of the same job may create it first: then open what it made.
                if mkdirat(self.descriptor, name, 0o777) != 0, errno != EEXIST {
                    throw .fileSystem("create the directory", path: path, errno: errno)
                }
            case .failure(let error) where error.value == ENOENT:
                throw CheckpointError(
                    code: .parentDirectoryMissing,
                    message: "directory \(path) does not exist",
                    path: path
                )
            case .failure(let error):
                throw Self.refusal(error.value, path: path, expecting: "a directory")
                    ?? .fileSystem(
                        "open the directory",
                        path: path,
                        errno: error.value
                    )
            }
        }
        throw .fileSystem("create the directory", path: path, errno: ENOENT)
    }

    /// Opens `name` (never following a symbolic link), with `O_CLOEXEC` and `EINTR` retried.
    ///
    /// - Parameters:
    ///   - name: A file name in this directory.
    ///   - flags: `open(2)` flags; `O_NOFOLLOW` and `O_CLOEXEC` are added.
    ///   - mode: The mode of a file `O_CREAT` creates.
    /// - Returns: The descriptor, or the `errno` (`ELOOP` for a symbolic link).
    package func openRaw(_ name: String, flags: Int32, mode: UInt32 = 0o600) -> Result<Int32, POSIXErrorNumber> {
        while true {
            let descriptor = openat(
                self.descriptor,
                name,
                flags | O_NOFOLLOW | O_CLOEXEC,
                mode_t(truncatingIfNeeded: mode)
            )
            if descriptor >= 0 { return .success(descriptor) }
            if errno != EINTR { return .failure(POSIXErrorNumber(value: errno)) }
        }
    }

    /// Creates `name` as a new, empty file with `O_EXCL`, so nothing is written through: whatever is at the name (a
    /// leftover of an earlier run, or a link someone planted) is removed, and the creation tried again. The usual
    /// case, a free name, costs one `openat`; a taken one, an `unlinkat` and another `openat`.
    ///
    /// - Parameters:
    ///   - name: A file name in this directory.
    ///   - flags: The access mode and other `open(2)` flags (`O_CREAT | O_EXCL | O_NOFOLLOW` are added).
    ///   - mode: The new file's mode (less the umask).
    /// - Returns: The descriptor.
    /// - Throws: ``CheckpointError`` `.unsafePath` when a directory stands at the name, `.fileSystem` when the
    ///   file cannot be created (or something re-creates the name each time it is removed).
    package func createFile(_ name: String, flags: Int32, mode: UInt32) throws(CheckpointError) -> Int32 {
        for _ in 0..<8 {
            switch self.openRaw(name, flags: flags | O_CREAT | O_EXCL, mode: mode) {
            case .success(let descriptor): return descriptor
            case .failure(let error) where error.value == EEXIST: break
            case .failure(let error): throw .fileSystem("create", path: self.path(of: name), errno: error.value)
            }
            if unlinkat(self.descriptor, name, 0) != 0, errno != ENOENT {
                let code = errno
                let path = self.path(of: name)
                if code == EISDIR || code == EPERM, case .success(let info) = self.status(name), info.isDirectory {
                    throw CheckpointError(
                        code: .unsafePath,
                        message: "'\(path)' is a directory, where a file is needed",
                        path: path
                    )
                }
                throw .fileSystem("remove", path: path, errno: code)
            }
        }
        throw .fileSystem("create", path: self.path(of: name), errno: EEXIST)
    }

    /// Opens a file that a transfer made earlier (a resumed temp file, a lock, a manifest), or creates it when
    /// `creating` and it is missing, accepting only a regular file that has no other name.
    ///
    /// A file whose name was removed between the open and the check (no name left) is accepted only with
    /// `allowsUnnamed`: a lock's acquirer, which notices that the name now holds another file and starts over.
    ///
    /// - Parameters:
    ///   - name: A file name in this directory.
    ///   - flags: The access mode and other `open(2)` flags.
    ///   - creating: Whether a missing file is created (mode 0600).
    ///   - allowsUnnamed: Whether a file removed since it was opened is returned rather than refused.
    /// - Returns: The descriptor.
    /// - Throws: ``CheckpointError`` `.unsafePath` for a symbolic link, a file with another name (a hard link)
    ///   or something that is not a regular file; `.fileSystem` for other failures (`ENOENT` when missing, or
    ///   removed since it was opened).
    package func openExistingFile(
        _ name: String,
        flags: Int32,
        creating: Bool = false,
        allowsUnnamed: Bool = false
    ) throws(CheckpointError) -> Int32 {
        let path = self.path(of: name)
        // O_NONBLOCK: a FIFO planted at the name must not hang the open; it is refused just below.
        let descriptor: Int32
        switch self.openRaw(name, flags: flags | O_NONBLOCK | (creating ? O_CREAT : 0)) {
        case .success(let value): descriptor = value
        case .failure(let error):
            throw Self.refusal(error.value, path: path, expecting: "a regular file")
                ?? .fileSystem("open", path: path, errno: error.value)
        }
        let status = POSIXFile.status(descriptor: descriptor)
        if case .success(let info) = status, info.isRegularFile, info.linkCount == 0, !allowsUnnamed {
            POSIXFile.closeQuietly(descriptor)
            throw .fileSystem("open", path: path, errno: ENOENT)
        }
        guard case .success(let info) = status, info.isRegularFile, info.linkCount <= 1 else {
            POSIXFile.closeQuietly(descriptor)
            throw CheckpointError(
                code: .unsafePath,
                message: "'\(path)' is not a regular file of its own (a device, a FIFO, or a file with other names); "
                    + "refusing to write to it",
                path: path
            )
        }
        let statusFlags = fcntl(descriptor, F_GETFL)
        if statusFlags >= 0 { _ = fcntl(descriptor, F_SETFL, statusFlags & ~O_NONBLOCK) }
        return descriptor
    }

    /// What is at `name`, not following a symbolic link (`fstatat` with `AT_SYMLINK_NOFOLLOW`).
    package func status(_ name: String) -> Result<POSIXFile.Status, POSIXErrorNumber> {
        var info = stat()
        guard fstatat(self.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            return .failure(POSIXErrorNumber(value: errno))
        }
        return .success(POSIXFile.makeStatus(info))
    }

    /// Removes `name` (a link is removed, never what it points to).
    ///
    /// - Returns: `nil` when removed or already missing, else the `errno`.
    @discardableResult
    package func remove(_ name: String) -> Int32? {
        unlinkat(self.descriptor, name, 0) == 0 || errno == ENOENT ? nil : errno
    }

    /// Renames `name` over `newName` in this directory (whatever is at `newName`, a link included, is replaced,
    /// never followed).
    ///
    /// - Returns: `nil` on success, else the `errno`.
    package func rename(_ name: String, to newName: String) -> Int32? {
        renameat(self.descriptor, name, self.descriptor, newName) == 0 ? nil : errno
    }

    /// `fsync`s the directory, so that the names created, renamed and removed in it are durable. File systems
    /// that cannot sync a directory are ignored (the operations themselves are done).
    ///
    /// - Throws: ``CheckpointError`` `.fileSystem` for another failure.
    package func sync() throws(CheckpointError) {
        guard fsync(self.descriptor) != 0 else { return }
        let code = errno
        if code == EINVAL || code == ENOTSUP || code == EBADF { return }
        throw .fileSystem("fsync", path: self.path, errno: code)
    }

    /// The error for an `open` that met something other than `expecting`: a symbolic link (`ELOOP`; `EMLINK` on
    /// some BSDs) or, for a directory, a file (`ENOTDIR`). `nil` for other failures.
    static func refusal(_ code: Int32, path: String, expecting: String) -> CheckpointError? {
        switch code {
        case ELOOP, EMLINK:
            return CheckpointError(
                code: .unsafePath,
                message: "'\(path)' is a symbolic link where \(expecting) is needed; refusing to follow it",
                path: path
            )
        case ENOTDIR where expecting == "a directory":
            return CheckpointError(
                code: .unsafePath,
                message: "'\(path)' is not a directory; refusing to write through it",
                path: path
            )
        case ENXIO:
            // O_NONBLOCK | O_WRONLY on a FIFO nobody reads.
            return CheckpointError(code: .unsafePath, message: "'\(path)' is not a regular file", path: path)
        default:
            return nil
        }
    }
}
