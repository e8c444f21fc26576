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

/// The handful of POSIX calls the Checkpoint layer needs, with `EINTR` retried and failures turned
/// into ``CheckpointError``.
package enum POSIXFile {
    /// The result of `stat`.
    package struct Status: Sendable {
        package var size: Int64
        package var mtimeNanoseconds: Int64
        package var inode: UInt64
        package var device: UInt64
        package var isRegularFile: Bool
        package var isDirectory: Bool
        /// How many names the file has (hard links).
        package var linkCount: UInt64
    }

    /// `strerror(code)` (see ``SystemErrorText``).
    static func errorText(_ code: Int32) -> String {
        SystemErrorText.describe(code)
    }

    static func makeStatus(_ info: stat) -> Status {
        #if canImport(Darwin)
        let seconds = Int64(info.st_mtimespec.tv_sec)
        let nanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        let seconds = Int64(info.st_mtim.tv_sec)
        let nanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        let type = info.st_mode & S_IFMT
        return Status(
            size: Int64(info.st_size),
            mtimeNanoseconds: seconds &* 1_000_000_000 &+ nanoseconds,
            inode: UInt64(info.st_ino),
            device: UInt64(info.st_dev),
            isRegularFile: type == S_IFREG,
            isDirectory: type == S_IFDIR,
            linkCount: UInt64(info.st_nlink)
        )
    }

    /// `stat(path)` (following symlinks); `.failure(errno)` when it fails.
    static func status(_ path: String) -> Result<Status, POSIXErrorNumber> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(POSIXErrorNumber(value: errno)) }
        return .success(makeStatus(info))
    }

    /// `lstat(path)`: what is at `path` itself, a symbolic link not followed; `.failure(errno)` when it fails.
    package static func linkStatus(_ path: String) -> Result<Status, POSIXErrorNumber> {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .failure(POSIXErrorNumber(value: errno)) }
        return .success(makeStatus(info))
    }

    /// `fstat(descriptor)`.
    static func status(descriptor: Int32) -> Result<Status, POSIXErrorNumber> {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(POSIXErrorNumber(value: errno)) }
        return .success(makeStatus(info))
    }

    /// `open` with `O_CLOEXEC` and `EINTR` retried; returns the descriptor or the errno.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0o600) -> Result<Int32, POSIXErrorNumber> {
        while true {
            #if canImport(Darwin)
            let descriptor = Darwin.open(path, flags | O_CLOEXEC, mode)
            #elseif canImport(Musl)
            let descriptor = Musl.open(path, flags | O_CLOEXEC, mode)
            #else
            let descriptor = Glibc.open(path, flags | O_CLOEXEC, mode)
            #endif
            if descriptor >= 0 { return .success(descriptor) }
            if errno != EINTR { return .failure(POSIXErrorNumber(value: errno)) }
        }
    }

    /// Closes `descriptor`, ignoring errors (used on paths that already failed or only read).
    static func closeQuietly(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Writes all of `bytes` to `descriptor`.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(CheckpointError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .fileSystem("write", path: path, errno: errno)
            }
            written += result
        }
    }

    /// Reads the whole regular file at `path`, refusing files larger than `limit` bytes, and a symbolic link at
    /// `path` (`O_NOFOLLOW`: someone may have planted one beside the user's files) or anything but a regular file.
    static func readAll(_ path: String, limit: Int) -> Result<[UInt8], ReadFailure> {
        let descriptor: Int32
        // O_NONBLOCK: a FIFO at the path must not hang the open (it is refused below, as not a regular file).
        switch open(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK) {
        case .success(let value): descriptor = value
        case .failure(let error) where error.value == ENOENT: return .failure(.missing)
        case .failure(let error) where error.value == ELOOP || error.value == EMLINK: return .failure(.notRegularFile)
        case .failure(let error): return .failure(.errno(error.value))
        }
        defer { closeQuietly(descriptor) }
        return readAll(descriptor: descriptor, limit: limit)
    }

    /// Reads the whole regular file open at `descriptor` from its current offset, refusing files larger than
    /// `limit` bytes and anything but a regular file.
    static func readAll(descriptor: Int32, limit: Int) -> Result<[UInt8], ReadFailure> {
        let info: Status
        switch status(descriptor: descriptor) {
        case .success(let value): info = value
        case .failure(let error): return .failure(.errno(error.value))
        }
        guard info.isRegularFile else { return .failure(.notRegularFile) }
        guard info.size <= Int64(limit) else { return .failure(.tooLarge(info.size)) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(Int(info.size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.errno(errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { return .failure(.tooLarge(Int64(bytes.count))) }
        }
        return .success(bytes)
    }

    /// Why ``readAll(_:limit:)`` failed.
    enum ReadFailure: Error {
        case missing
        case notRegularFile
        case tooLarge(Int64)
        case errno(Int32)
    }

    /// `fsync` of a directory so that a rename or unlink inside it is durable.
    static func syncDirectory(_ directory: String) throws(CheckpointError) {
        let descriptor: Int32
        switch open(directory, flags: O_RDONLY | O_DIRECTORY) {
        case .success(let value): descriptor = value
        case .failure(let error): throw .fileSystem("open", path: directory, errno: error.value)
        }
        defer { closeQuietly(descriptor) }
        if fsync(descriptor) != 0 {
            let code = errno
            // Some file systems cannot fsync a directory; the rename itself already happened.
            if code == EINVAL || code == ENOTSUP || code == EBADF { return }
            throw .fileSystem("fsync", path: directory, errno: code)
        }
    }
}

/// An `errno` value (a wrapper so it can be a `Result` failure).
package struct POSIXErrorNumber: Error {
    package var value: Int32
}
