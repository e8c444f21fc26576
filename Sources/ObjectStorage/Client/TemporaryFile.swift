//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorageCheckpoint
import ObjectStorageSigning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file created anew beside its destination, in the destination's directory, and renamed over it on success.
final class TemporaryFile {
    private let directory: DirectoryHandle
    private let name: String
    private var descriptor: Int32

    /// The file's path, for messages.
    var path: String { self.directory.path(of: self.name) }

    /// Creates the file `name` beside `destination` (replacing a leftover, or a link planted there, never writing
    /// through it), or a new file at a random name when `name` is `nil`.
    init(beside destination: DownloadDestination, named name: String?) throws(ObjectStorageError) {
        self.directory = destination.directory
        var random = SystemRandomNumberGenerator()
        self.name =
            name ?? destination.name + ".download-"
            + ByteEncoding.hex((0..<6).map { _ in UInt8.random(in: 0...255, using: &random) })
        do {
            self.descriptor = try self.directory.createFile(self.name, flags: O_WRONLY, mode: 0o644)
        } catch {
            throw .downloadFile("create a temporary file", error)
        }
    }

    deinit {
        if self.descriptor >= 0 {
            _ = close(self.descriptor)
            self.directory.remove(self.name)
        }
    }

    func append(_ buffer: ByteBuffer) throws(ObjectStorageError) {
        let result: Int32 = buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var offset = 0
            while offset < bytes.count {
                let written = write(self.descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
        if result != 0 { throw .fileSystem("write", path: self.path, errno: result) }
    }

    /// Renames the file over `destination` (a name in the same directory), after an `fsync` unless `syncing` is
    /// `false`, giving it the modification time `modified` when there is one.
    func commit(to destination: String, syncing: Bool = true, modified: Date? = nil) throws(ObjectStorageError) {
        if syncing {
            guard fsync(self.descriptor) == 0 else { throw .fileSystem("sync", path: self.path, errno: errno) }
        }
        if let modified, var times = Self.timestamps(modified) {
            guard futimens(self.descriptor, &times) == 0 else {
                throw .fileSystem("set the modification time of", path: self.path, errno: errno)
            }
        }
        let closed = close(self.descriptor)
        self.descriptor = -1
        guard closed == 0 else {
            self.directory.remove(self.name)
            throw .fileSystem("close", path: self.path, errno: errno)
        }
        if let failure = self.directory.rename(self.name, to: destination) {
            self.directory.remove(self.name)
            throw .fileSystem("rename into", path: self.directory.path(of: destination), errno: failure)
        }
    }

    func discard() {
        guard self.descriptor >= 0 else { return }
        _ = close(self.descriptor)
        self.descriptor = -1
        self.directory.remove(self.name)
    }
}

extension TemporaryFile {
    /// Gives the file `destination` names (never what a link there points to) the access and modification time
    /// `date`, as ``commit(to:syncing:modified:)`` gives them to the file it renames; a failure is ignored.
    static func setModificationTime(of destination: DownloadDestination, to date: Date) {
        guard var times = Self.timestamps(date) else { return }
        _ = utimensat(destination.directory.descriptor, destination.name, &times, AT_SYMLINK_NOFOLLOW)
    }

    /// The access and the modification time both at `date`, as `futimens` and `utimensat` take them; `nil` for a
    /// date more than about 31,000 years from 1970, as a date parsed from a header is bounded before it becomes an
    /// integer.
    private static func timestamps(_ date: Date) -> [timespec]? {
        let interval = date.timeIntervalSince1970
        guard abs(interval) < 1e12 else { return nil }
        let seconds = interval.rounded(.down)
        let stamp = timespec(tv_sec: Int(seconds), tv_nsec: Int((interval - seconds) * 1e9))
        return [stamp, stamp]
    }
}
