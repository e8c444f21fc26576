//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What vouches that a local file is still the one a checkpoint was made from: size, modification
/// time in nanoseconds, inode and device, from `stat`.
///
/// Unlike a time-zone-dependent mtime string or whole seconds, nanosecond mtime plus inode catches
/// an edit within the same second and a file replaced by `mv`/`cp` even when the size is equal.
///
/// ```swift
/// let identity = try FileIdentity.current(path: "/data/backup.tar")
/// ```
package struct FileIdentity: Codable, Hashable, Sendable {
    /// The size in bytes.
    package var size: Int64
    /// The last modification time, in nanoseconds since the Unix epoch.
    package var mtimeNanoseconds: Int64
    /// The inode number.
    package var inode: UInt64
    /// The device number of the file system holding the file.
    package var device: UInt64

    /// Creates an identity from its parts (tests, or a `stat` done by the caller).
    ///
    /// - Parameters:
    ///   - size: The size in bytes.
    ///   - mtimeNanoseconds: The modification time in nanoseconds since the Unix epoch.
    ///   - inode: The inode number.
    ///   - device: The device number.
    package init(size: Int64, mtimeNanoseconds: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.device = device
    }

    /// The identity of the file at `path` now (symlinks followed).
    ///
    /// - Parameter path: The file.
    /// - Returns: Its size, mtime (ns), inode and device.
    /// - Throws: ``CheckpointError`` `.fileSystem` when `stat` fails (the message carries the
    ///   `errno` text, e.g. "No such file or directory"), `.invalidPath` when it is not a regular file.
    package static func current(path: String) throws(CheckpointError) -> FileIdentity {
        switch POSIXFile.status(path) {
        case .success(let info):
            guard info.isRegularFile else { throw .invalidPath(path, "not a regular file") }
            return FileIdentity(info)
        case .failure(let error):
            throw .fileSystem("stat", path: path, errno: error.value)
        }
    }

    /// The identity of an open file.
    ///
    /// - Parameter fileDescriptor: A descriptor of the file (e.g. the one the upload reads from,
    ///   which pins the inode for the whole transfer).
    /// - Returns: Its size, mtime (ns), inode and device.
    /// - Throws: ``CheckpointError`` `.fileSystem` when `fstat` fails.
    package static func current(fileDescriptor: Int32) throws(CheckpointError) -> FileIdentity {
        switch POSIXFile.status(descriptor: fileDescriptor) {
        case .success(let info): return FileIdentity(info)
        case .failure(let error): throw .fileSystem("fstat", path: "fd \(fileDescriptor)", errno: error.value)
        }
    }

    init(_ info: POSIXFile.Status) {
        self.init(size: info.size, mtimeNanoseconds: info.mtimeNanoseconds, inode: info.inode, device: info.device)
    }

    /// The first field that differs from `other`, in the order size, mtime, inode, device.
    ///
    /// - Parameter other: Another identity.
    /// - Returns: `size`, `mtime`, `inode`, `device`, or `nil` when equal.
    package func firstDifference(from other: FileIdentity) -> String? {
        if self.size != other.size { return "size" }
        if self.mtimeNanoseconds != other.mtimeNanoseconds { return "mtime" }
        if self.inode != other.inode { return "inode" }
        if self.device != other.device { return "device" }
        return nil
    }
}
