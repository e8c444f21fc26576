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

/// The crash-safe manifest of a directory job: an append-only record of the objects that are done.
///
/// The file is text, one line per record, each ending in `\n`:
///
/// ```
/// objstore-directory-job/1 <TAB> <job identity>
/// <size> <TAB> <stamp> <TAB> <name>       a finished object
/// - <TAB> - <TAB> <name>                   a large object started (its checkpoint may outlive the run)
/// ```
///
/// Fields are percent-encoded where they hold `%`, a tab, a line break or another control character. The
/// identity names the job (direction, directory, bucket, prefix, endpoint); a manifest of another job is
/// refused, never reused. A record costs one `write(2)` (O(1) per object, whatever the manifest's length), so a
/// killed process loses nothing it recorded; ``sync()``, or the flush that ``beginSync()`` returns, makes the
/// records durable across a power cut, and ``append(_:)`` says when ``syncInterval`` records wait for one. A last
/// line without its `\n` is a write cut short by a crash: it is dropped (and truncated away) on load. Any other
/// line that does not parse makes the manifest invalid.
///
/// The manifest is locked (``CheckpointLock``) while open, so two runs of the same job never interleave.
///
/// It is not for concurrent use: one task at a time (a job's loop), which may hand the flush that
/// ``beginSync()`` returns to a blocking-I/O thread and go on appending meanwhile.
package final class DirectoryManifest: @unchecked Sendable {
    /// A finished object as recorded: its name relative to the job's root, size and change stamp (a local
    /// modification time for an upload, the remote ETag for a download).
    package struct Record: Hashable, Sendable {
        package var name: String
        package var size: Int64
        package var stamp: String

        package init(name: String, size: Int64, stamp: String) {
            self.name = name
            self.size = size
            self.stamp = stamp
        }
    }

    /// The records made durable at least this often.
    package static let syncInterval = 256
    /// The format line's tag.
    static let tag = "objstore-directory-job/1"

    package let path: String
    /// The records of earlier runs, by the name's UTF-8 bytes (names that Swift would call equal, NFC and NFD,
    /// are different keys and different files).
    package private(set) var finished: [[UInt8]: Record] = [:]
    /// The large objects an earlier run started (whose checkpoints may remain), by name bytes.
    package private(set) var started: [[UInt8]: String] = [:]
    private let lock: CheckpointLock
    /// The manifest's directory, in which it is opened and removed by name (see ``DirectoryHandle``).
    private let directory: DirectoryHandle
    private let name: String
    private var descriptor: Int32 = -1
    private var unsynced = 0

    /// Opens the manifest at `path`, creating it for `identity` or loading the records of an earlier run of the
    /// same job.
    ///
    /// - Parameters:
    ///   - path: The manifest file; its directory must exist.
    ///   - identity: What names the job; a manifest written for another identity is refused.
    /// - Throws: ``CheckpointError`` (`checkpointLocked` while another run holds it, `invalidCheckpoint` for a
    ///   manifest of another job or one that does not parse, `unsafePath` for a symbolic or hard link planted at
    ///   its name, `fileSystem`).
    package init(path: String, identity: String) throws(CheckpointError) {
        self.path = path
        (self.directory, self.name) = try DirectoryHandle.parentForCheckpoint(path)
        self.lock = try CheckpointLock.acquire(for: path)
        // From here on, a throw runs `deinit`, which closes the file and releases the lock.
        self.descriptor = try self.directory.openExistingFile(self.name, flags: O_RDWR, creating: true)
        let header = Self.tag + "\t" + Self.encode(identity)
        let (records, started, validLength) = try Self.load(self.descriptor, path: path, header: header)
        if validLength == 0 {
            guard ftruncate(self.descriptor, 0) == 0 else { throw .fileSystem("truncate", path: path, errno: errno) }
            try POSIXFile.writeAll(self.descriptor, Array((header + "\n").utf8), path: path)
            try self.sync()
        } else {
            guard ftruncate(self.descriptor, off_t(validLength)) == 0 else {
                throw .fileSystem("truncate", path: path, errno: errno)
            }
            self.finished = records
            self.started = started
        }
        guard lseek(self.descriptor, 0, SEEK_END) >= 0 else { throw .fileSystem("seek", path: path, errno: errno) }
    }

    deinit {
        if self.descriptor >= 0 { POSIXFile.closeQuietly(self.descriptor) }
        self.lock.release()
    }

    /// The record of an earlier run for `name`, if any.
    package func finishedRecord(for name: String) -> Record? {
        self.finished[Array(name.utf8)]
    }

    /// Appends a finished object: one `write(2)`.
    ///
    /// - Parameter record: The finished object.
    /// - Returns: Whether ``syncInterval`` records now wait for a sync (``beginSync()``), which the caller then
    ///   starts, after making durable what the records describe (the downloaded files), away from its cooperative
    ///   thread.
    /// - Throws: ``CheckpointError`` when the manifest cannot be written.
    @discardableResult
    package func append(_ record: Record) throws(CheckpointError) -> Bool {
        let line = "\(record.size)\t\(Self.encode(record.stamp))\t\(Self.encode(record.name))\n"
        try POSIXFile.writeAll(self.descriptor, Array(line.utf8), path: self.path)
        self.unsynced += 1
        return self.isSyncDue
    }

    /// Whether ``syncInterval`` records wait for a sync, since the manifest opened or the last ``beginSync()``.
    package var isSyncDue: Bool { self.unsynced >= Self.syncInterval }

    /// Records that a large object's transfer starts, so that a later run can discard its checkpoint if the
    /// object is gone by then. One `write(2)`.
    ///
    /// - Parameter name: The object's name.
    /// - Throws: ``CheckpointError`` when the manifest cannot be written.
    package func appendStart(_ name: String) throws(CheckpointError) {
        try POSIXFile.writeAll(self.descriptor, Array("-\t-\t\(Self.encode(name))\n".utf8), path: self.path)
    }

    /// Makes every appended record durable.
    ///
    /// - Throws: ``CheckpointError`` when `fsync` fails.
    package func sync() throws(CheckpointError) {
        try self.beginSync().run()
    }

    /// Starts the count that ``append(_:)`` reports again and returns the flush of every record appended so far,
    /// for the caller to run away from its loop, after making durable what those records describe, while later
    /// records are appended. It must end before ``close(removing:)``.
    ///
    /// - Returns: The flush.
    package func beginSync() -> PendingSync {
        self.unsynced = 0
        return PendingSync(descriptor: self.descriptor, path: self.path)
    }

    /// The flush of the records appended before ``beginSync()``: an `fsync` of the manifest, safe on any thread,
    /// also while later records are appended.
    package struct PendingSync: Sendable {
        fileprivate let descriptor: Int32
        let path: String

        /// Makes the records durable.
        ///
        /// - Throws: ``CheckpointError`` when `fsync` fails.
        package func run() throws(CheckpointError) {
            guard fsync(self.descriptor) == 0 else { throw .fileSystem("sync", path: self.path, errno: errno) }
        }
    }

    /// Closes the manifest and removes it (the job is done) or keeps it, synced, for the next run.
    ///
    /// - Parameter remove: Whether to delete the file.
    package func close(removing remove: Bool) {
        guard self.descriptor >= 0 else { return }
        if !remove { try? self.sync() }
        POSIXFile.closeQuietly(self.descriptor)
        self.descriptor = -1
        if remove {
            self.directory.remove(self.name)
            try? self.directory.sync()
        }
        self.lock.release()
    }

    // MARK: Loading

    /// Reads the manifest: its records and the length of its valid prefix (`0` for an empty file).
    private static func load(
        _ descriptor: Int32,
        path: String,
        header: String
    ) throws(CheckpointError) -> ([[UInt8]: Record], [[UInt8]: String], Int) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .fileSystem("read", path: path, errno: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        guard !bytes.isEmpty else { return ([:], [:], 0) }
        func invalid(_ reason: String) -> CheckpointError {
            CheckpointError(code: .invalidCheckpoint, message: "the directory job manifest \(reason)", path: path)
        }
        var records: [[UInt8]: Record] = [:]
        var started: [[UInt8]: String] = [:]
        var lineStart = 0
        var validLength = 0
        var isHeader = true
        while let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: bytes[lineStart..<newline], as: UTF8.self)
            if isHeader {
                guard line.hasPrefix(Self.tag + "\t") else { throw invalid("is not a manifest of this format") }
                guard line.utf8.elementsEqual(header.utf8) else { throw invalid("belongs to another job") }
                isHeader = false
            } else {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                if fields.count == 3, fields[0] == "-", fields[1] == "-", let name = Self.decode(fields[2]),
                    !name.isEmpty
                {
                    started[Array(name.utf8)] = name
                    lineStart = newline + 1
                    validLength = lineStart
                    continue
                }
                guard fields.count == 3, let size = Int64(fields[0]), size >= 0,
                    let stamp = Self.decode(fields[1]), let name = Self.decode(fields[2]), !name.isEmpty
                else { throw invalid("has a record that does not parse (byte \(lineStart))") }
                records[Array(name.utf8)] = Record(name: name, size: size, stamp: stamp)
            }
            lineStart = newline + 1
            validLength = lineStart
        }
        // A header cut short by a crash is an empty manifest.
        if isHeader { return ([:], [:], 0) }
        return (records, started, validLength)
    }

    // MARK: Encoding

    /// `%`, tab, line breaks and other control characters as `%XX`.
    static func encode(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The inverse of ``encode(_:)``; `nil` for a malformed escape or bytes that are not UTF-8.
    static func decode(_ field: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.utf8.count)
        var iterator = field.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue)
            else { return nil }
            bytes.append(high << 4 | low)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
