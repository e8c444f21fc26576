//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageSystem
import NIOCore
import NIOPosix
import ObjectStorageSigning

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin POSIX file helpers for blobs: immutable files written once, then renamed into place.
enum FileIO {
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var errorNumber: Int32
        var description: String { "\(operation) \(path) failed: errno \(errorNumber)" }
    }

    /// Starts blocking file work on the servers' own thread pool and returns a task for its result. Swift's
    /// cooperative pool has one thread per core: a thread held by a disk wait there is a core that hashes no bytes
    /// meanwhile. Not NIO's shared pool either: a client in the same process (the SDK, tests) reads files, syncs
    /// checkpoints and writes downloads there, and the two would queue behind each other.
    static func startBlocking<Result: Sendable>(
        _ work: @escaping @Sendable () throws -> Result
    ) -> Task<Result, any Error> {
        Task { try await blockingPool.runIfActive(work) }
    }

    /// The threads that run the servers' blocking file work (for the life of the process, like NIO's own pool).
    static let blockingPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        return pool
    }()

    /// Opens `path` for writing, creating or truncating it; a symbolic link there is refused (`ELOOP`), never
    /// followed, so a link planted in the data directory cannot make the server write elsewhere.
    static func openForWriting(_ path: String) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw Failure(operation: "open", path: path, errorNumber: errno) }
        return fd
    }

    static func openForReading(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(operation: "open", path: path, errorNumber: errno) }
        return fd
    }

    /// Opens a new file for writing past the page cache (`O_DIRECT`); `nil` where the platform or the file system
    /// has no direct I/O (the caller then opens it normally). Writes must then be whole aligned blocks.
    static func openForDirectWriting(_ path: String) -> Int32? {
        guard directIOFlag != 0 else { return nil }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | directIOFlag, 0o644)
        return fd >= 0 ? fd : nil
    }

    /// Opens a file for reading past the page cache (`O_DIRECT`); `nil` where that is not available. Reads must
    /// then be aligned (offset, length and memory), except that one may end at the end of the file.
    static func openForDirectReading(_ path: String) -> Int32? {
        guard directIOFlag != 0 else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | directIOFlag)
        return fd >= 0 ? fd : nil
    }

    /// `O_DIRECT`, or 0 where the platform has no direct I/O.
    private static let directIOFlag = COSSystem_direct_io_flag()

    /// Turns direct I/O off for `fd` (a file system may refuse it only at the first write, and a short write
    /// leaves the rest unaligned); `false` if it was not on.
    private static func clearDirectIO(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        guard directIOFlag != 0, flags >= 0, flags & directIOFlag != 0 else { return false }
        return fcntl(fd, F_SETFL, flags & ~directIOFlag) == 0
    }

    /// Writes all of `bytes` at `offset` (positioned writes; with direct I/O if `fd` has it, else through the
    /// page cache).
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, offset: Int64, path: String) throws {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let written = pwrite(fd, base + done, bytes.count - done, off_t(offset) + off_t(done))
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EINVAL, clearDirectIO(fd) { continue }
                throw Failure(operation: "write", path: path, errorNumber: errno)
            }
            done += written
        }
    }

    static func truncate(_ fd: Int32, size: Int64, path: String) throws {
        guard ftruncate(fd, off_t(size)) == 0 else {
            throw Failure(operation: "truncate", path: path, errorNumber: errno)
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "write", path: path, errorNumber: errno)
            }
            offset += written
        }
    }

    /// Writes all of `buffers` with as few `writev` calls as the kernel allows.
    static func writeAll(_ fd: Int32, _ buffers: [ByteBuffer], path: String) throws {
        var vectors: [iovec] = []
        vectors.reserveCapacity(buffers.count)
        try withIOVectors(buffers[...], &vectors) { vectors in
            var vectors = vectors
            var index = 0
            while index < vectors.count {
                let written = vectors[index...].withUnsafeBufferPointer { pending in
                    writev(fd, pending.baseAddress, Int32(min(pending.count, 1024)))
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure(operation: "write", path: path, errorNumber: errno)
                }
                var remaining = written
                while index < vectors.count, remaining >= vectors[index].iov_len {
                    remaining -= vectors[index].iov_len
                    index += 1
                }
                if remaining > 0 {
                    vectors[index].iov_base = vectors[index].iov_base.map { $0 + remaining }
                    vectors[index].iov_len -= remaining
                }
            }
        }
    }

    /// Calls `body` with an `iovec` for each buffer, every buffer's bytes pinned for the duration of the call.
    private static func withIOVectors(
        _ buffers: ArraySlice<ByteBuffer>,
        _ vectors: inout [iovec],
        _ body: ([iovec]) throws -> Void
    ) throws {
        guard let first = buffers.first else { return try body(vectors) }
        try first.withUnsafeReadableBytes { bytes in
            vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count))
            try withIOVectors(buffers.dropFirst(), &vectors, body)
        }
    }

    /// Reads up to `count` bytes at `offset`; fewer only at end of file.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, offset: Int64) throws -> Int {
        var total = 0
        while total < buffer.count {
            let got = pread(fd, buffer.baseAddress! + total, buffer.count - total, off_t(offset) + off_t(total))
            if got < 0 {
                if errno == EINTR { continue }
                if errno == EINVAL, clearDirectIO(fd) { continue }
                throw Failure(operation: "read", path: "fd \(fd)", errorNumber: errno)
            }
            if got == 0 { break }
            total += got
        }
        return total
    }

    /// Appends the whole of the file at `source` to `destination`, in the kernel where possible.
    static func append(contentsOf source: String, to destination: Int32, destinationPath: String) throws {
        let input = try openForReading(source)
        defer { close(input) }
        #if os(Linux)
        while true {
            let copied = sendfile(destination, input, nil, 64 << 20)
            if copied > 0 { continue }
            if copied == 0 { return }
            if errno == EINTR { continue }
            if errno == EXDEV || errno == ENOSYS || errno == EINVAL { break }
            throw Failure(operation: "sendfile", path: destinationPath, errorNumber: errno)
        }
        #endif
        let chunk = 4 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while true {
            let got = try read(input, into: buffer, offset: offset)
            if got == 0 { return }
            try writeAll(destination, UnsafeRawBufferPointer(rebasing: buffer[0..<got]), path: destinationPath)
            offset += Int64(got)
        }
    }

    static func closeFile(_ fd: Int32) { _ = close(fd) }

    static func rename(_ from: String, _ to: String) throws {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard Glibc_rename(from, to) == 0 else { throw Failure(operation: "rename", path: to, errorNumber: errno) }
        #endif
    }

    static func link(_ from: String, _ to: String) -> Bool {
        #if canImport(Glibc)
        return Glibc.link(from, to) == 0
        #elseif canImport(Musl)
        return Musl.link(from, to) == 0
        #else
        return Darwin.link(from, to) == 0
        #endif
    }

    static func remove(_ path: String) { _ = unlink(path) }

    static func makeDirectory(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw Failure(operation: "mkdir", path: prefix, errorNumber: errno)
            }
        }
    }

    static func removeDirectory(_ path: String) { _ = rmdir(path) }

    static func writeFileAtomically(_ path: String, temporary: String, bytes: [UInt8]) throws {
        let fd = try openForWriting(temporary)
        do {
            try bytes.withUnsafeBytes { try writeAll(fd, $0, path: temporary) }
            closeFile(fd)
            try rename(temporary, path)
        } catch {
            closeFile(fd)
            remove(temporary)
            throw error
        }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let fd = try? openForReading(path) else { return nil }
        defer { closeFile(fd) }
        var result = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let got = chunk.withUnsafeMutableBytes { pointer in
                (try? read(fd, into: pointer, offset: Int64(result.count))) ?? 0
            }
            if got == 0 { return result }
            result += chunk[0..<got]
        }
    }

    static func listDirectory(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            // Read the name in place: a record is only as long as its name, so loading the whole 256-byte
            // `d_name` array can run past the end of readdir's buffer (and fault on an unmapped page).
            let name = String(
                cString: UnsafeRawPointer(entry).advanced(by: direntNameOffset).assumingMemoryBound(to: CChar.self)
            )
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: count)
        for index in stride(from: 0, to: count, by: 8) {
            let word = generator.next()
            for byte in 0..<min(8, count - index) {
                bytes[index + byte] = UInt8(truncatingIfNeeded: word >> (8 * byte))
            }
        }
        return bytes
    }

    static func randomHex(_ byteCount: Int = 16) -> String {
        // Not a draw per byte: each draw is a `getrandom` call, 16 of them for one name.
        ByteEncoding.hex(randomBytes(byteCount))
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
private func Glibc_rename(_ from: String, _ to: String) -> Int32 {
    #if canImport(Glibc)
    return Glibc.rename(from, to)
    #elseif canImport(Musl)
    return Musl.rename(from, to)
    #else
    return Darwin.rename(from, to)
    #endif
}
#endif

/// Where `d_name` starts in a `dirent` record.
private let direntNameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
