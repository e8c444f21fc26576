//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageDirectIO
import NIOCore
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
final class DownloadTempFile: Sendable {
    let path: String
    let descriptor: Int32
    /// The same file opened for direct I/O (`O_DIRECT`: writes go from the caller's buffer to the disk,
    /// bypassing the page cache), or `nil` where the platform or file system has none. Offsets, lengths and
    /// buffer addresses of its writes are multiples of ``directAlignment``.
    let directDescriptor: Int32?

    /// The alignment direct writes need (the largest logical block size in common use).
    static let directAlignment = 4096

    private init(path: String, descriptor: Int32, direct: Bool = false) {
        self.path = path
        self.descriptor = descriptor
        self.directDescriptor = direct ? Self.openDirect(path) : nil
    }

    deinit {
        _ = close(self.descriptor)
        if let directDescriptor { _ = close(directDescriptor) }
    }

    /// Opens `path` for direct writes; `nil` when the platform or file system cannot.
    private static func openDirect(_ path: String) -> Int32? {
        let flag = COSDirectIO_open_flag()
        guard flag != 0 else { return nil }
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | flag)
        return descriptor >= 0 ? descriptor : nil
    }

    /// Creates (or truncates) `path`, sizes it to `size` bytes and makes that durable (the file, its size and its
    /// directory entry): checkpoints are saved without syncing the file, and one that names a temp file a power
    /// loss took away, or cut short, would be discarded whole on the next run.
    static func create(_ path: String, size: Int64) throws(ObjectStorageError) -> DownloadTempFile {
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw .fileSystem("create", path: path, errno: errno) }
        let file = DownloadTempFile(path: path, descriptor: descriptor, direct: true)
        guard ftruncate(descriptor, off_t(size)) == 0 else {
            throw .fileSystem("preallocate", path: path, errno: errno)
        }
        try file.reserve(size)
        try file.sync()
        Self.syncDirectory(of: path)
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

    /// Opens an existing temp file whose size was checked by the checkpoint load.
    static func reopen(_ path: String) throws(ObjectStorageError) -> DownloadTempFile {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileSystem("open", path: path, errno: errno) }
        return DownloadTempFile(path: path, descriptor: descriptor, direct: true)
    }

    /// Opens an existing file read-only (to check a destination a killed run already renamed).
    static func openForReading(_ path: String) throws(ObjectStorageError) -> DownloadTempFile {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileSystem("open", path: path, errno: errno) }
        return DownloadTempFile(path: path, descriptor: descriptor)
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

    /// Renames the file over `destination` and syncs the directory so the rename is durable.
    func commit(to destination: String) throws(ObjectStorageError) {
        guard rename(self.path, destination) == 0 else {
            throw .fileSystem("rename into", path: destination, errno: errno)
        }
        Self.syncDirectory(of: destination)
    }

    /// Deletes `path` (a missing file is fine).
    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// `fsync`s the directory containing `path` (best effort).
    static func syncDirectory(of path: String) {
        let directory = Self.directory(of: path)
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// What is at `path`: nothing, a directory, or something else.
    enum Kind { case missing, directory, other }

    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .other
    }
}
