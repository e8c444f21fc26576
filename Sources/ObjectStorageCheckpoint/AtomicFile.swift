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

/// Replaces a file's content so that a crash at any instant leaves either the old or the new bytes.
enum AtomicFile {
    /// Writes `bytes` to `<path>.tmp-<random>` (mode 0600, `O_EXCL`), `fsync`s it, renames it over
    /// `path` and `fsync`s the directory. On failure the temporary file is removed and `path` is
    /// untouched.
    static func write(_ bytes: [UInt8], to path: String) throws(CheckpointError) {
        guard CheckpointRules.isAbsoluteNormalised(path) else {
            throw .invalidPath(path, "a checkpoint path must be absolute and normalised (see CheckpointPaths)")
        }
        let directory = CheckpointPaths.directory(of: path)
        switch POSIXFile.status(directory) {
        case .success(let info) where info.isDirectory: break
        case .success: throw .invalidPath(path, "\(directory) is not a directory")
        case .failure(let error) where error.value == ENOENT || error.value == ENOTDIR:
            throw .parentDirectoryMissing(path, directory: directory)
        case .failure(let error): throw .fileSystem("stat", path: directory, errno: error.value)
        }

        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<8 {
            temporary = path + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            switch POSIXFile.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600) {
            case .success(let value): descriptor = value
            case .failure(let error) where error.value == EEXIST: continue
            case .failure(let error): throw .fileSystem("open", path: temporary, errno: error.value)
            }
            break
        }
        guard descriptor >= 0 else { throw .fileSystem("open", path: temporary, errno: EEXIST) }

        do throws(CheckpointError) {
            // The mode passed to open is reduced by the umask; make sure no one else can read it.
            if fchmod(descriptor, 0o600) != 0 { throw .fileSystem("fchmod", path: temporary, errno: errno) }
            try POSIXFile.writeAll(descriptor, bytes, path: temporary)
            if fsync(descriptor) != 0 { throw .fileSystem("fsync", path: temporary, errno: errno) }
            let closed = close(descriptor)
            descriptor = -1
            if closed != 0 { throw .fileSystem("close", path: temporary, errno: errno) }
            if rename(temporary, path) != 0 { throw .fileSystem("rename", path: path, errno: errno) }
        } catch {
            if descriptor >= 0 { POSIXFile.closeQuietly(descriptor) }
            _ = unlink(temporary)
            throw error
        }
        try POSIXFile.syncDirectory(directory)
    }
}
