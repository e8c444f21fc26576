//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import ObjectStorageCheckpoint

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps object keys to files under a local directory without ever leaving it: the building block
/// for downloading a listing (`objstore cp --recursive`).
///
/// An object key is not a path. It may be `../../etc/passwd`, `/etc/passwd`, `a\..\b` or contain NUL,
/// and a download that joined it to a directory would write outside that directory. ``path(forKey:removingPrefix:under:)``
/// refuses such keys with ``ObjectStorageError/Code/unsafePath`` instead of "cleaning" them (a cleaned
/// key would silently collide with another one); the caller skips the object and reports it.
/// ``destination(of:under:creating:)`` then opens the directories in between from a handle on the job's root, one
/// at a time, refusing a symbolic link or a file on the way, so a link planted inside the directory (or swapped in
/// after a check) cannot redirect the write, or a deletion, either.
///
/// ```swift
/// let root = try DirectoryHandle.open("/data/photos")
/// for object in objects {
///     guard let path = try? LocalPaths.path(forKey: object.key, removingPrefix: "photos/", under: "/data/photos")
///     else { continue }  // report the skipped key
///     let destination = try LocalPaths.destination(of: path, under: root, creating: true)
///     _ = try await client.resumableDownload(bucket: "media", key: object.key, to: destination, options: options, logger: nil)
/// }
/// ```
package enum LocalPaths {
    /// The longest file-name component accepted, in UTF-8 bytes (`NAME_MAX` on Linux and macOS).
    package static let maximumComponentLength = 255

    /// The longest path accepted, in UTF-8 bytes, its terminating NUL excluded (`PATH_MAX` less one): a longer one
    /// could be created one directory at a time, but no path-based tool (nor a rerun's checks) could then name it.
    package static let maximumPathLength = Int(PATH_MAX) - 1

    /// Whether a key names a "directory marker" object (it ends with `/`): such objects have no file
    /// of their own and are skipped by a listing download, not refused.
    ///
    /// - Parameter key: The object key.
    /// - Returns: `true` when the key ends with `/`.
    package static func isDirectoryMarker(_ key: String) -> Bool {
        key.hasSuffix("/")
    }

    /// The local path for an object key: `directory` joined with the key minus `prefix`, checked.
    ///
    /// - Parameters:
    ///   - key: The object key.
    ///   - prefix: The listing's prefix, removed from the start of the key (`""` for none). A key that
    ///     does not start with it is refused.
    ///   - directory: The local directory the file must stay in.
    /// - Returns: `directory/relative/key`.
    /// - Throws: ``ObjectStorageError/Code/unsafePath`` for a key whose remainder is empty, absolute
    ///   (`/`), contains a NUL, a backslash, a control character, an empty, `.` or `..` component, or a
    ///   component longer than ``maximumComponentLength`` bytes, or a path longer than ``maximumPathLength`` bytes;
    ///   ``ObjectStorageError/Code/invalidArgument`` for an empty directory.
    package static func path(
        forKey key: String,
        removingPrefix prefix: String = "",
        under directory: String
    ) throws(ObjectStorageError) -> String {
        guard !directory.isEmpty, !directory.utf8.contains(0) else {
            throw .invalidArgument("the local directory path is empty or contains NUL")
        }
        func refuse(_ reason: String) -> ObjectStorageError {
            ObjectStorageError(code: .unsafePath, message: "key \(ObjectNameRules.display(key)) \(reason)")
        }
        guard key.hasPrefix(prefix) else {
            throw refuse("does not start with the prefix \(ObjectNameRules.display(prefix))")
        }
        let relative = key.dropFirst(prefix.count)
        guard !relative.isEmpty else { throw refuse("names the prefix itself, not a file under it") }
        guard !relative.utf8.contains(0) else { throw refuse("contains a NUL character") }
        guard !relative.contains("\\") else { throw refuse("contains a backslash (a path separator on Windows)") }
        guard !relative.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw refuse("contains a control character")
        }
        guard !relative.hasPrefix("/") else { throw refuse("is an absolute path") }
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        for component in components {
            guard !component.isEmpty else { throw refuse("has an empty path component ('//' or a trailing '/')") }
            guard component != ".", component != ".." else { throw refuse("has a '.' or '..' component") }
            guard component.utf8.count <= self.maximumComponentLength else {
                throw refuse("has a component longer than \(self.maximumComponentLength) bytes")
            }
        }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let path = base + "/" + components.joined(separator: "/")
        guard path.utf8.count <= self.maximumPathLength else {
            throw refuse(
                "would be the local path of \(path.utf8.count) bytes, longer than the system's limit of "
                    + "\(self.maximumPathLength) (PATH_MAX)"
            )
        }
        return path
    }

    /// Opens the directories between the job's root and `path`'s parent, one at a time from `root` (creating them
    /// when asked), each a real directory: a symbolic link or a file on the way is refused, never followed.
    ///
    /// - Parameters:
    ///   - path: A path returned by ``path(forKey:removingPrefix:under:)`` for the directory `root` holds open.
    ///   - root: The job's directory.
    ///   - creating: Whether missing directories are created.
    /// - Returns: The file's name in its directory, held open.
    /// - Throws: ``ObjectStorageError/Code/unsafePath`` when a component is a symbolic link or a file, or `path` is
    ///   not under `root`; ``ObjectStorageError/Code/fileSystem`` when a directory cannot be opened or created.
    package static func destination(
        of path: String,
        under root: DirectoryHandle,
        creating: Bool
    ) throws(ObjectStorageError) -> DownloadDestination {
        let base = root.path.hasSuffix("/") ? String(root.path.dropLast()) : root.path
        guard path.hasPrefix(base + "/") else {
            throw ObjectStorageError(code: .unsafePath, message: "'\(path)' is not under '\(root.path)'")
        }
        var components = path.dropFirst(base.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard let name = components.popLast(), !name.isEmpty else {
            throw ObjectStorageError(code: .unsafePath, message: "'\(path)' names no file under '\(root.path)'")
        }
        do {
            return DownloadDestination(directory: try root.descend(components, creating: creating), name: String(name))
        } catch  where error.code == .unsafePath {
            throw ObjectStorageError(code: .unsafePath, message: error.message)
        } catch {
            throw .downloadFile("open the directory of '\(path)'", error)
        }
    }

    /// `path` made absolute, its symbolic links and `.` and `..` components resolved, without a trailing `/`
    /// (`realpath`): what a job's manifest names its directory by.
    ///
    /// - Parameter path: An existing path.
    /// - Returns: The resolved path.
    /// - Throws: ``ObjectStorageError/Code/fileSystem`` when it does not exist or cannot be read.
    package static func resolved(_ path: String) throws(ObjectStorageError) -> String {
        guard let resolved = realpath(path, nil) else {
            throw ObjectStorageError.fileSystem("read the directory", path: path, errno: errno)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Removes `path` if it is an empty directory (`rmdir`), and does nothing otherwise.
    package static func removeIfEmptyDirectory(_ path: String) { _ = rmdir(path) }

    /// Whether `path` is a directory (not a symbolic link to one).
    package static func isDirectory(_ path: String) -> Bool {
        Self.kind(of: path) == .directory
    }

    /// Whether `path` is a regular file (not a symbolic link to one) of `size` bytes.
    package static func isRegularFile(_ path: String, size: Int64) -> Bool {
        Self.kind(of: path) == .regularFile(size: size)
    }

    private enum Kind: Equatable {
        case directory, missing, other
        case regularFile(size: Int64)
    }

    /// What is at `path`, without following a symbolic link (one `lstat`: `FileManager.attributesOfItem`
    /// also reads the owner's names from /etc/passwd and /etc/group, for every call).
    private static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regularFile(size: Int64(info.st_size))
        default: return .other
        }
    }
}
