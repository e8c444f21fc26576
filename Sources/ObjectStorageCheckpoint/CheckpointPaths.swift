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

/// Where checkpoints, their locks and download temp files live.
///
/// Defaults sit beside the file being transferred, so they move with it and need no shared
/// directory: `photo.jpg` downloads through `photo.jpg.part` with checkpoint `photo.jpg.dcp`;
/// `backup.tar` uploads with checkpoint `backup.tar.ucp`. An explicit path replaces the default.
/// Paths are made absolute (against the current directory) and lexically normalised; the parent
/// directory must already exist (it is never created), and a checkpoint may not be the transfer's
/// own data file.
///
/// ```swift
/// let checkpoint = try CheckpointPaths.download(destination: "./photo.jpg")  // "/cwd/photo.jpg.dcp"
/// let temp = try CheckpointPaths.downloadTempFile(destination: "./photo.jpg") // "/cwd/photo.jpg.part"
/// ```
package enum CheckpointPaths {
    /// The suffix of a download checkpoint beside its destination.
    package static let downloadSuffix = ".dcp"
    /// The suffix of an upload checkpoint beside its source.
    package static let uploadSuffix = ".ucp"
    /// The suffix of a download's temp file beside its destination.
    package static let tempFileSuffix = ".part"
    /// The suffix of a checkpoint's lock file (see ``CheckpointLock``).
    package static let lockSuffix = ".lock"

    /// The checkpoint path for a download.
    ///
    /// - Parameters:
    ///   - destination: The destination file (relative paths are resolved against the current directory).
    ///   - override: An explicit checkpoint path (the `checkpointFilePath` option), or `nil` for
    ///     `<destination>.dcp`.
    /// - Returns: The absolute checkpoint path.
    /// - Throws: ``CheckpointError`` `.invalidPath` when the checkpoint would be the destination or
    ///   its temp file (or a directory), `.parentDirectoryMissing` when its directory does not exist.
    package static func download(destination: String, override: String? = nil) throws(CheckpointError) -> String {
        let destinationPath = try absolute(destination)
        let path = try absolute(override ?? destinationPath + downloadSuffix)
        try checkDistinct(path, from: destinationPath, role: "destination")
        try checkDistinct(path, from: destinationPath + tempFileSuffix, role: "download temp file")
        try checkUsable(path)
        return path
    }

    /// The checkpoint path for an upload.
    ///
    /// - Parameters:
    ///   - source: The file being uploaded (relative paths are resolved against the current directory).
    ///   - override: An explicit checkpoint path, or `nil` for `<source>.ucp`.
    /// - Returns: The absolute checkpoint path.
    /// - Throws: ``CheckpointError`` `.invalidPath` when the checkpoint would be the source (or a
    ///   directory), `.parentDirectoryMissing` when its directory does not exist.
    package static func upload(source: String, override: String? = nil) throws(CheckpointError) -> String {
        let sourcePath = try absolute(source)
        let path = try absolute(override ?? sourcePath + uploadSuffix)
        try checkDistinct(path, from: sourcePath, role: "source file")
        try checkUsable(path)
        return path
    }

    /// The temp file a download writes into before renaming it over the destination:
    /// `<destination>.part`, in the destination's directory (so the final rename is atomic).
    ///
    /// - Parameter destination: The destination file.
    /// - Returns: The absolute temp file path.
    /// - Throws: ``CheckpointError`` `.invalidPath` for an empty path.
    package static func downloadTempFile(destination: String) throws(CheckpointError) -> String {
        try absolute(destination) + tempFileSuffix
    }

    /// The lock file that guards the checkpoint at `checkpointPath`: `<checkpoint>.lock`.
    ///
    /// - Parameter checkpointPath: The checkpoint path.
    /// - Returns: The lock file path.
    package static func lockFile(for checkpointPath: String) -> String {
        checkpointPath + lockSuffix
    }

    /// `path` made absolute against the current directory and lexically normalised (`.`, `..` and
    /// repeated slashes removed). Symlinks are not resolved.
    ///
    /// - Parameter path: A file path.
    /// - Returns: The absolute path.
    /// - Throws: ``CheckpointError`` `.invalidPath` for an empty path, a NUL byte or a path ending in `/`.
    package static func absolute(_ path: String) throws(CheckpointError) -> String {
        guard !path.isEmpty else { throw .invalidPath(path, "the path is empty") }
        guard !path.utf8.contains(0) else { throw .invalidPath(path, "the path contains a NUL byte") }
        guard !path.hasSuffix("/") else { throw .invalidPath(path, "the path names a directory") }
        var full = path
        if !path.hasPrefix("/") {
            guard let cwd = getcwd(nil, 0) else {
                throw .fileSystem("getcwd", path: path, errno: errno)
            }
            defer { free(cwd) }
            full = String(cString: cwd) + "/" + path
        }
        var components = [Substring]()
        for component in full.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        guard !components.isEmpty else { throw .invalidPath(path, "the path names the root directory") }
        return "/" + components.joined(separator: "/")
    }

    /// The directory part of an absolute, normalised path (`/` for a file at the root).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func checkDistinct(_ path: String, from other: String, role: String) throws(CheckpointError) {
        if path == other { throw .invalidPath(path, "the checkpoint path is the transfer's \(role)") }
        // Also catch two spellings of one file (hard links, symlinked directories).
        if case .success(let a) = POSIXFile.status(path), case .success(let b) = POSIXFile.status(other),
            a.inode == b.inode, a.device == b.device
        {
            throw .invalidPath(path, "the checkpoint path is the same file as the transfer's \(role) \(other)")
        }
    }

    private static func checkUsable(_ path: String) throws(CheckpointError) {
        let directory = directory(of: path)
        switch POSIXFile.status(directory) {
        case .success(let info):
            guard info.isDirectory else { throw .invalidPath(path, "\(directory) is not a directory") }
        case .failure(let error):
            if error.value == ENOENT || error.value == ENOTDIR {
                throw .parentDirectoryMissing(path, directory: directory)
            }
            throw .fileSystem("stat", path: directory, errno: error.value)
        }
        if case .success(let info) = POSIXFile.status(path), info.isDirectory {
            throw .invalidPath(path, "a directory exists at this path")
        }
    }
}
