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
    /// Writes `bytes` to `<path>.tmp-<random>` (mode 0600, `O_EXCL`, so never through a planted link), `fsync`s
    /// it, renames it over `path` (a link at `path` is replaced, never followed) and `fsync`s the directory, each
    /// relative to one descriptor of the directory (``DirectoryHandle``). On failure the temporary file is removed
    /// and `path` is untouched.
    static func write(_ bytes: [UInt8], to path: String) throws(CheckpointError) {
        guard CheckpointRules.isAbsoluteNormalised(path) else {
            throw .invalidPath(path, "a checkpoint path must be absolute and normalised (see CheckpointPaths)")
        }
        let (directory, name) = try DirectoryHandle.parentForCheckpoint(path)

        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<8 {
            temporary = name + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            switch directory.openRaw(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600) {
            case .success(let value): descriptor = value
            case .failure(let error) where error.value == EEXIST: continue
            case .failure(let error): throw .fileSystem("open", path: directory.path(of: temporary), errno: error.value)
            }
            break
        }
        guard descriptor >= 0 else { throw .fileSystem("open", path: directory.path(of: temporary), errno: EEXIST) }

        let temporaryPath = directory.path(of: temporary)
        do throws(CheckpointError) {
            // The mode passed to open is reduced by the umask; make sure no one else can read it.
            if fchmod(descriptor, 0o600) != 0 { throw .fileSystem("fchmod", path: temporaryPath, errno: errno) }
            try POSIXFile.writeAll(descriptor, bytes, path: temporaryPath)
            if fsync(descriptor) != 0 { throw .fileSystem("fsync", path: temporaryPath, errno: errno) }
            let closed = close(descriptor)
            descriptor = -1
            if closed != 0 { throw .fileSystem("close", path: temporaryPath, errno: errno) }
            if let failure = directory.rename(temporary, to: name) {
                throw .fileSystem("rename", path: path, errno: failure)
            }
        } catch {
            if descriptor >= 0 { POSIXFile.closeQuietly(descriptor) }
            directory.remove(temporary)
            throw error
        }
        try directory.sync()
    }
}

extension DirectoryHandle {
    /// The directory of a checkpoint (or its lock, or a manifest), which must exist (it is never created), and the
    /// file's name in it.
    static func parentForCheckpoint(
        _ path: String
    ) throws(CheckpointError) -> (directory: DirectoryHandle, name: String) {
        do {
            return try DirectoryHandle.parent(of: path)
        } catch  where error.code == .parentDirectoryMissing {
            throw .parentDirectoryMissing(path, directory: CheckpointPaths.directory(of: path))
        } catch  where error.code == .invalidPath {
            let directory = CheckpointPaths.directory(of: path)
            throw .invalidPath(path, "\(directory) is not a directory")
        }
    }
}
