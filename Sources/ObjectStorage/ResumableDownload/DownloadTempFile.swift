//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageSystem
import NIOCore
import ObjectStorageCheckpoint
import ObjectStorageSigning

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The preallocated file a resumable download writes its parts into (with `pwrite`, at each part's
/// offset) before it is renamed over the destination. Shared by the part tasks: `pwrite` at
/// disjoint offsets needs no lock.
///
/// It lives beside the destination, in the destination's ``DirectoryHandle``: it is created new (never through a
/// link planted at its name), reopened only when it is a regular file of its own, and renamed by name within that
/// directory.
final class DownloadTempFile: Sendable {
    let directory: DirectoryHandle
    let name: String
    let descriptor: Int32
    /// The same file opened for direct I/O (`O_DIRECT`: writes go from the caller's buffer to the disk,
    /// bypassing the page cache), or `nil` where the platform or file system has none. Offsets, lengths and
    /// buffer addresses of its writes are multiples of ``directAlignment``.
    let directDescriptor: Int32?

    /// The alignment direct writes need (the largest logical block size in common use).
    static let directAlignment = 4096

    /// The file's path, for messages and the checkpoint.
    var path: String { self.directory.path(of: self.name) }

    private init(_ location: DownloadDestination, descriptor: Int32, direct: Bool = false) {
        self.directory = location.directory
        self.name = location.name
        self.descriptor = descriptor
        self.directDescriptor = direct ? Self.openDirect(location, sameFileAs: descriptor) : nil
    }

    deinit {
        _ = close(self.descriptor)
        if let directDescriptor { _ = close(directDescriptor) }
    }

    /// Opens the file at `location` for direct writes; `nil` when the platform or file system cannot, or when the
    /// name no longer holds the file open at `descriptor`.
    private static func openDirect(_ location: DownloadDestination, sameFileAs descriptor: Int32) -> Int32? {
        let flag = COSSystem_direct_io_flag()
        guard flag != 0, case .success(let direct) = location.directory.openRaw(location.name, flags: O_WRONLY | flag)
        else { return nil }
        var opened = stat()
        var held = stat()
        guard fstat(direct, &opened) == 0, fstat(descriptor, &held) == 0, opened.st_ino == held.st_ino,
            opened.st_dev == held.st_dev
        else {
            _ = close(direct)
            return nil
        }
        return direct
    }

    /// Creates `location` anew (removing a leftover or anything planted at its name), sizes it to `size` bytes
    /// and makes that durable (the file, its size and its directory entry): checkpoints are saved without syncing
    /// the file, and one that names a temp file a power loss took away, or cut short, would be discarded whole on
    /// the next run.
    static func create(_ location: DownloadDestination, size: Int64) throws(ObjectStorageError) -> DownloadTempFile {
        let descriptor: Int32
        do {
            descriptor = try location.directory.createFile(location.name, flags: O_RDWR, mode: 0o666)
        } catch {
            throw .downloadFile("create the temp file", error)
        }
        let file = DownloadTempFile(location, descriptor: descriptor, direct: true)
        guard ftruncate(descriptor, off_t(size)) == 0 else {
            throw .fileSystem("preallocate", path: file.path, errno: errno)
        }
        try file.reserve(size)
        try file.sync()
        try? location.directory.sync()
        return file
    }

    /// Reserves the blocks for `size` bytes, so a full disk fails here, before the first request,
    /// rather than part way. File systems that cannot reserve keep the sparse file.
    private func reserve(_ size: Int64) throws(ObjectStorageError) {
        #if os(Linux)
        guard size > 0 else { return }
        var result: Int32
        repeat {
            result = posix_fallocate(self.descriptor, 0, off_t(size))
        } while result == EINTR
        switch result {
        case 0, EOPNOTSUPP, ENOSYS, EINVAL: return
        default: throw .fileSystem("preallocate", path: self.path, errno: result)
        }
        #endif
    }

    /// Opens an existing temp file whose size was checked by the checkpoint load: a regular file of its own, never
    /// a link.
    static func reopen(_ location: DownloadDestination) throws(ObjectStorageError) -> DownloadTempFile {
        do {
            let descriptor = try location.directory.openExistingFile(location.name, flags: O_RDWR)
            return DownloadTempFile(location, descriptor: descriptor, direct: true)
        } catch {
            throw .downloadFile("reopen the temp file", error)
        }
    }

    /// Opens an existing file read-only (to check a destination a killed run already renamed), never through a
    /// link.
    static func openForReading(_ location: DownloadDestination) throws(ObjectStorageError) -> DownloadTempFile {
        do {
            let descriptor = try location.directory.openExistingFile(location.name, flags: O_RDONLY)
            return DownloadTempFile(location, descriptor: descriptor)
        } catch {
            throw .downloadFile("open the destination", error)
        }
    }

    /// Writes all of `buffer` at `offset`.
    func write(_ buffer: ByteBuffer, at offset: Int64) throws(ObjectStorageError) {
        try buffer.withUnsafeReadableBytes { (bytes) throws(ObjectStorageError) in try self.write(bytes, at: offset) }
    }

    /// Writes all of `bytes` at `offset`, directly to the disk when they are aligned for it (see
    /// ``directDescriptor``), else through the page cache.
    func writeDirect(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(ObjectStorageError) {
        let alignment = Self.directAlignment
        guard let directDescriptor, let base = bytes.baseAddress, Int(bitPattern: base) % alignment == 0,
            bytes.count % alignment == 0, offset % Int64(alignment) == 0
        else { return try self.write(bytes, at: offset) }
        switch Self.writeAll(directDescriptor, bytes, at: offset) {
        case nil:
            return
        case EINVAL?:
            // The file system refuses this direct write: the page cache takes it instead.
            try self.write(bytes, at: offset)
        case let failure?:
            throw .fileSystem("write", path: self.path, errno: failure)
        }
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(ObjectStorageError) {
        if let failure = Self.writeAll(self.descriptor, bytes, at: offset) {
            throw .fileSystem("write", path: self.path, errno: failure)
        }
    }

    /// `pwrite`s all of `bytes` at `offset`; the `errno` of a failure, or `nil`.
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Int32? {
        let failure: Int32 = {
            guard let base = bytes.baseAddress else { return 0 }
            var done = 0
            while done < bytes.count {
                let written = pwrite(descriptor, base + done, bytes.count - done, off_t(offset + Int64(done)))
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += written
            }
            return 0
        }()
        return failure == 0 ? nil : failure
    }

    /// Flushes data and metadata to disk.
    func sync() throws(ObjectStorageError) {
        guard fsync(self.descriptor) == 0 else { throw .fileSystem("sync", path: self.path, errno: errno) }
    }

    /// The MD5 of the file's bytes in `range`, read in 1 MiB chunks.
    func md5(of range: Range<Int64>) throws(ObjectStorageError) -> [UInt8] {
        var hash = Hashing.MD5()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = range.lowerBound
        while offset < range.upperBound {
            let wanted = Int(min(Int64(buffer.count), range.upperBound - offset))
            let count = buffer.withUnsafeMutableBytes { pread(self.descriptor, $0.baseAddress, wanted, off_t(offset)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .fileSystem("read", path: self.path, errno: errno)
            }
            if count == 0 { throw .fileSystem("read (file shorter than expected)", path: self.path) }
            buffer.withUnsafeBytes { hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += Int64(count)
        }
        return hash.finalize()
    }

    /// Renames the file over `destination` (a name in the same directory; whatever is there, a link included, is
    /// replaced, never followed) and syncs the directory so the rename is durable. The name must still hold this
    /// file: one put in its place since is never renamed over the destination.
    func commit(to destination: String) throws(ObjectStorageError) {
        var held = stat()
        guard fstat(self.descriptor, &held) == 0, case .success(let current) = self.directory.status(self.name),
            current.inode == UInt64(held.st_ino), current.device == UInt64(held.st_dev)
        else {
            throw ObjectStorageError(
                code: .unsafePath,
                message: "'\(self.path)' was replaced during the download; refusing to rename it over the destination"
            )
        }
        if let failure = self.directory.rename(self.name, to: destination) {
            throw .fileSystem("rename into", path: self.directory.path(of: destination), errno: failure)
        }
        try? self.directory.sync()
    }

    /// Deletes the file's name (a missing file is fine).
    func remove() {
        self.directory.remove(self.name)
    }
}
