//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import ObjectStorageCheckpoint

/// Where a download lands: a file name in a directory held open (``DirectoryHandle``).
///
/// The download's own files (its temp file, and the destination it is renamed over) are created, opened,
/// renamed and deleted relative to the directory's descriptor, never through a symbolic link planted at their
/// names or a directory swapped after the check. A directory job builds its destinations with
/// ``DirectoryHandle/descend(_:creating:)`` from the job's root, so a key's directories are real directories
/// under it.
package struct DownloadDestination: Sendable {
    /// The directory that holds the destination.
    package var directory: DirectoryHandle
    /// The destination's name in it.
    package var name: String

    /// The destination's absolute path (what a checkpoint records and messages show).
    package var path: String { self.directory.path(of: self.name) }

    package init(directory: DirectoryHandle, name: String) {
        self.directory = directory
        self.name = name
    }

    /// The destination a caller names: made absolute, its directory opened as named (links in the caller's own
    /// path are followed: where it leads is the caller's choice).
    ///
    /// - Parameter path: The destination file.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for an invalid path, a missing directory or a
    ///   destination that is a directory.
    package init(path: String) throws(ObjectStorageError) {
        let absolute: String
        do {
            absolute = try CheckpointPaths.absolute(path)
        } catch {
            throw .invalidArgument("invalid destination: \(error.message)")
        }
        do {
            (self.directory, self.name) = try DirectoryHandle.parent(of: absolute)
        } catch  where error.code == .parentDirectoryMissing || error.code == .invalidPath {
            let directory = String(absolute[..<(absolute.lastIndex(of: "/") ?? absolute.endIndex)])
            throw .invalidArgument("the destination's directory \(directory.isEmpty ? "/" : directory) does not exist")
        } catch {
            throw .downloadFile("open the destination's directory", error)
        }
        if case .success(let info) = self.directory.status(self.name), info.isDirectory {
            throw .invalidArgument("the destination \(absolute) is a directory")
        }
    }

    /// The checkpoint of a download to this destination: `<destination>.dcp`, or `override`.
    ///
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a checkpoint path that cannot be used.
    func checkpointPath(override: String?) throws(ObjectStorageError) -> String {
        do {
            return try CheckpointPaths.download(destination: self.path, override: override)
        } catch {
            throw .invalidArgument("invalid checkpoint path: \(error.message)")
        }
    }

    /// A file beside the destination: its name followed by `suffix`, in the same directory.
    package func sibling(_ suffix: String) -> DownloadDestination {
        DownloadDestination(directory: self.directory, name: self.name + suffix)
    }
}

extension ObjectStorageError {
    /// The error for a Checkpoint layer failure on a download's own files: a planted link stays
    /// ``Code/unsafePath``; anything else is ``Code/fileSystem``, naming what was attempted.
    static func downloadFile(_ operation: String, _ error: CheckpointError) -> ObjectStorageError {
        if error.code == .unsafePath { return ObjectStorageError(code: .unsafePath, message: error.message) }
        return ObjectStorageError(code: .fileSystem, message: "cannot \(operation): \(error.message)")
    }
}
