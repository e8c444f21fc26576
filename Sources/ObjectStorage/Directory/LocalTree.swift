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

/// The regular files under a directory, walked lazily in the order of their names' UTF-8 bytes, the order in
/// which a service lists keys, so a job can merge the two sides without holding either.
///
/// Siblings are sorted with a directory's name followed by `/` (everything under `a/` sorts as `a/` does),
/// so a depth-first walk yields names in byte order. Only one directory's entries per level are held.
/// Symbolic links are skipped unless followed; a followed link to a directory already being walked (a loop)
/// is skipped. Names that are not UTF-8 and directories that cannot be read are reported, not fatal.
///
/// A class: the walk's state (a sorted directory per level) is mutated in place, never copied per step.
final class LocalTree {
    /// A regular file.
    struct File {
        /// The name relative to the root, `/`-separated.
        var name: String
        /// The full path.
        var path: String
        var size: Int64
        var modificationNanoseconds: Int64
    }

    /// What the walk yields.
    enum Item {
        case file(File)
        /// A name left out, with the reason as a sentence.
        case skipped(name: String, path: String, reason: String)
    }

    private struct Entry {
        var sortKey: [UInt8]
        var name: String
        var isDirectory: Bool
        var file: File?
        var identity: FileIdentity?
    }

    private struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private struct Level {
        var relative: String
        var path: String
        var entries: [Entry]
        var next = 0
        var identity: FileIdentity?
    }

    private let followsSymbolicLinks: Bool
    private let ignores: (String) -> Bool
    private var stack: [Level] = []
    private var pending: [Item] = []

    /// Starts a walk of `root`, leaving out the names for which `ignores` is `true` (before they are read).
    ///
    /// - Throws: ``ObjectStorageError/Code/fileSystem`` when `root` is not a readable directory.
    init(root: String, followsSymbolicLinks: Bool, ignores: @escaping (String) -> Bool) throws(ObjectStorageError) {
        self.followsSymbolicLinks = followsSymbolicLinks
        self.ignores = ignores
        let base = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        var info = stat()
        guard stat(base, &info) == 0 else { throw .fileSystem("read the directory", path: root, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw ObjectStorageError(code: .invalidArgument, message: "'\(root)' is not a directory")
        }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        let entries = try self.read(directory: base, relative: "")
        self.stack = [Level(relative: "", path: base, entries: entries, identity: identity)]
    }

    /// The next file or skipped name, `nil` at the end.
    func next() -> Item? {
        while true {
            if !self.pending.isEmpty { return self.pending.removeFirst() }
            guard var level = self.stack.popLast() else { return nil }
            guard level.next < level.entries.count else { continue }
            let entry = level.entries[level.next]
            level.next += 1
            self.stack.append(level)
            if let file = entry.file { return .file(file) }
            guard entry.isDirectory else { continue }
            let relative = level.relative + entry.name + "/"
            let path = level.path + "/" + entry.name
            if let identity = entry.identity, self.stack.contains(where: { $0.identity == identity }) {
                return .skipped(name: relative, path: path, reason: "is a symbolic link back into a directory above it")
            }
            do {
                let entries = try self.read(directory: path, relative: relative)
                self.stack.append(Level(relative: relative, path: path, entries: entries, identity: entry.identity))
            } catch {
                return .skipped(name: relative, path: path, reason: "cannot be read: \(error.message)")
            }
        }
    }

    /// One directory's entries, sorted; files are described, directories entered later.
    private func read(directory: String, relative: String) throws(ObjectStorageError) -> [Entry] {
        guard let handle = opendir(directory) else {
            throw .fileSystem("open the directory", path: directory, errno: errno)
        }
        defer { closedir(handle) }
        var entries: [Entry] = []
        while let pointer = readdir(handle) {
            let bytes = withUnsafeBytes(of: pointer.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if bytes == [UInt8(ascii: ".")] || bytes == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            let name = String(decoding: bytes, as: UTF8.self)
            let path = directory + "/" + name
            guard name.utf8.elementsEqual(bytes) else {
                self.pending.append(.skipped(name: relative + name, path: path, reason: "has a name that is not UTF-8"))
                continue
            }
            if self.ignores(relative + name) { continue }
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }  // vanished since it was listed
            var isLink = false
            if info.st_mode & S_IFMT == S_IFLNK {
                guard self.followsSymbolicLinks else {
                    self.pending.append(.skipped(name: relative + name, path: path, reason: "is a symbolic link"))
                    continue
                }
                isLink = true
                guard stat(path, &info) == 0 else {
                    self.pending.append(
                        .skipped(name: relative + name, path: path, reason: "is a broken symbolic link")
                    )
                    continue
                }
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                entries.append(
                    Entry(
                        sortKey: bytes + [UInt8(ascii: "/")],
                        name: name,
                        isDirectory: true,
                        identity: isLink || self.followsSymbolicLinks
                            ? FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) : nil
                    )
                )
            case S_IFREG:
                let file = File(
                    name: relative + name,
                    path: path,
                    size: Int64(info.st_size),
                    modificationNanoseconds: Self.modificationNanoseconds(info)
                )
                entries.append(Entry(sortKey: bytes, name: name, isDirectory: false, file: file))
            default:
                self.pending.append(
                    .skipped(name: relative + name, path: path, reason: "is not a regular file or a directory")
                )
            }
        }
        entries.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
        return entries
    }

    static func modificationNanoseconds(_ info: stat) -> Int64 {
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        let (seconds, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? Int64(time.tv_sec) : seconds + Int64(time.tv_nsec)
    }
}
