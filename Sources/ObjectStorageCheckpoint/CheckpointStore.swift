//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads, validates, writes and removes checkpoint files.
///
/// - **Load** never throws: a missing, torn, tampered, foreign or stale checkpoint is returned as
///   ``CheckpointLoadResult/discarded(_:previous:)`` with a typed ``CheckpointInvalidReason`` and
///   logged (debug for "missing", warning otherwise, with `checkpoint.path` and `checkpoint.reason`
///   metadata), and the transfer starts over.
/// - **Save** is crash-safe: the bytes go to `<path>.tmp-<random>` in the same directory (mode
///   0600), are `fsync`ed, renamed over `<path>`, and the directory is `fsync`ed. A crash at any
///   instant leaves either the previous checkpoint or the new one at `<path>`, never a mix; a
///   leftover `*.tmp-*` is ignored by load and removed by ``removeStaleTemporaryFiles(for:)``.
/// - Each save rewrites the whole file (O(parts)); engines with thousands of parts may coalesce
///   saves (at most one in flight, latest state wins) without losing safety.
///
/// The store holds no state besides its logger, so it is cheap to create. Guard a checkpoint with
/// a ``CheckpointLock`` for the whole transfer.
///
/// ```swift
/// let store = CheckpointStore(logger: logger)
/// let path = try CheckpointPaths.download(destination: destination, override: options.checkpointFilePath)
/// let lock = try CheckpointLock.acquire(for: path)
/// defer { lock.release() }
/// var checkpoint = try store.load(at: path, expecting: expectation).checkpoint
///     ?? DownloadCheckpoint(identity: identity, object: probe, partSize: partSize, tempFilePath: temp)
/// try checkpoint.markPartCompleted(3, crc64: crc)
/// try store.save(checkpoint, to: path)
/// ```
package struct CheckpointStore: Sendable {
    /// Where discards are logged.
    package var logger: Logger
    /// Files larger than this are not read (``CheckpointInvalidReason/Code/unreadable``). 64 MiB
    /// by default, far above the ~1.5 MB of a 10,000-part upload checkpoint.
    package var maximumFileSize: Int = 64 << 20

    /// Creates a store.
    ///
    /// - Parameter logger: Where discards are logged; `nil` logs nothing.
    package init(logger: Logger? = nil) {
        self.logger = logger ?? Logger(label: "ObjectStorageCheckpoint", factory: { _ in SwiftLogNoOpLogHandler() })
    }

    /// Loads the download checkpoint at `path` and checks it against the current request and a
    /// fresh probe of the object.
    ///
    /// Checks, in order: the file is readable, JSON, `format`, `kind` = download, `version` = 1,
    /// `digest` = SHA-256 of `data`, the schema, internal consistency, ``DownloadCheckpoint/Identity``
    /// equality, the object (size, ETag, Last-Modified, versionId, CRC64), then the temp file exists
    /// and its real size is ``DownloadCheckpoint/expectedTempFileSize``.
    ///
    /// - Parameters:
    ///   - path: The checkpoint path (see ``CheckpointPaths``).
    ///   - expecting: The current request's identity and the fresh probe.
    /// - Returns: `.loaded`, or `.discarded` with the reason (and the stale checkpoint when authentic).
    package func load(
        at path: String,
        expecting: DownloadCheckpoint.Expectation
    ) -> CheckpointLoadResult<DownloadCheckpoint> {
        let result = read(DownloadCheckpoint.self, at: path, identity: expecting.identity) { checkpoint in
            if let reason = checkpoint.object.mismatch(.objectChanged, from: expecting.object) { return reason }
            // Not following a link: a temp file is the transfer's own regular file, never a link to another.
            switch POSIXFile.linkStatus(checkpoint.tempFilePath) {
            case .failure(let error):
                return CheckpointInvalidReason(
                    code: .tempFileMissing,
                    field: "tempFilePath",
                    message: "temp file \(checkpoint.tempFilePath): \(POSIXFile.errorText(error.value))"
                )
            case .success(let info) where !info.isRegularFile:
                return CheckpointInvalidReason(
                    code: .tempFileMissing,
                    field: "tempFilePath",
                    message: "temp file \(checkpoint.tempFilePath) is not a regular file"
                )
            case .success(let info) where info.size != checkpoint.expectedTempFileSize:
                return CheckpointInvalidReason(
                    code: .tempFileSizeMismatch,
                    field: "tempFilePath",
                    message: "temp file \(checkpoint.tempFilePath) has \(info.size) bytes, expected "
                        + "\(checkpoint.expectedTempFileSize)"
                )
            case .success:
                return nil
            }
        }
        return finish(result, path: path)
    }

    /// Loads the upload checkpoint at `path` and checks it against the current request and the
    /// source file as it is now.
    ///
    /// Checks, in order: readable, JSON, `format`, `kind` = upload, `version` = 1, `digest`, the
    /// schema, internal consistency, ``UploadCheckpoint/Identity`` equality, the source file's
    /// ``FileIdentity`` (size, mtime ns, inode, device), then the ``UploadCheckpoint/ObjectParameters``.
    /// The part size is not compared: a resumed upload keeps the recorded one.
    ///
    /// - Parameters:
    ///   - path: The checkpoint path (see ``CheckpointPaths``).
    ///   - expecting: The current request's identity and parameters (and optionally the source's
    ///     identity, otherwise `stat`ed now).
    /// - Returns: `.loaded`, or `.discarded` with the reason (and the stale checkpoint when authentic,
    ///   whose `uploadId` the caller should abort when it names the same bucket and key).
    package func load(
        at path: String,
        expecting: UploadCheckpoint.Expectation
    ) -> CheckpointLoadResult<UploadCheckpoint> {
        let result = read(UploadCheckpoint.self, at: path, identity: expecting.identity) { checkpoint in
            let current: FileIdentity
            if let source = expecting.source {
                current = source
            } else {
                switch POSIXFile.status(checkpoint.identity.sourcePath) {
                case .success(let info): current = FileIdentity(info)
                case .failure(let error):
                    return CheckpointInvalidReason(
                        code: .sourceMissing,
                        field: "sourcePath",
                        message: "source \(checkpoint.identity.sourcePath): \(POSIXFile.errorText(error.value))"
                    )
                }
            }
            if let reason = checkpoint.source.mismatch(.sourceChanged, from: current) { return reason }
            if checkpoint.copySource != expecting.copySource {
                return CheckpointInvalidReason(
                    code: .sourceChanged,
                    field: "copySource",
                    message: "the copy source is not the object (or version) upload \(checkpoint.uploadId) copies"
                )
            }
            if checkpoint.parameters != expecting.parameters {
                return CheckpointInvalidReason(
                    code: .parametersChanged,
                    field: "parameters",
                    message: "the object parameters differ from those upload \(checkpoint.uploadId) was created with"
                )
            }
            return nil
        }
        return finish(result, path: path)
    }

    /// Writes a download checkpoint crash-safely (see the type's documentation).
    ///
    /// - Parameters:
    ///   - checkpoint: The checkpoint.
    ///   - path: Where to write it.
    /// - Throws: ``CheckpointError``: `.invalidCheckpoint` for inconsistent content,
    ///   `.sensitiveValue` for an endpoint with a query or user info, `.parentDirectoryMissing`,
    ///   `.invalidPath`, or `.fileSystem` (disk full, permissions...). On failure the previous file
    ///   at `path`, if any, is untouched.
    package func save(_ checkpoint: DownloadCheckpoint, to path: String) throws(CheckpointError) {
        try write(checkpoint, to: path)
    }

    /// Writes an upload checkpoint crash-safely (see the type's documentation).
    ///
    /// - Parameters:
    ///   - checkpoint: The checkpoint.
    ///   - path: Where to write it.
    /// - Throws: ``CheckpointError``: `.invalidCheckpoint`, `.sensitiveValue` (a credential-bearing
    ///   header or endpoint), `.parentDirectoryMissing`, `.invalidPath` or `.fileSystem`. On failure
    ///   the previous file at `path`, if any, is untouched.
    package func save(_ checkpoint: UploadCheckpoint, to path: String) throws(CheckpointError) {
        try write(checkpoint, to: path)
    }

    /// The exact bytes `save(_:to:)` writes for `checkpoint`.
    ///
    /// - Parameter checkpoint: The checkpoint.
    /// - Returns: The file's bytes (equal checkpoints give equal bytes).
    /// - Throws: ``CheckpointError`` `.invalidCheckpoint` if encoding fails.
    package static func encode(_ checkpoint: DownloadCheckpoint) throws(CheckpointError) -> [UInt8] {
        try encodeDocument(checkpoint)
    }

    /// The exact bytes `save(_:to:)` writes for `checkpoint`.
    ///
    /// - Parameter checkpoint: The checkpoint.
    /// - Returns: The file's bytes (equal checkpoints give equal bytes).
    /// - Throws: ``CheckpointError`` `.invalidCheckpoint` if encoding fails.
    package static func encode(_ checkpoint: UploadCheckpoint) throws(CheckpointError) -> [UInt8] {
        try encodeDocument(checkpoint)
    }

    /// Removes the checkpoint at `path` (a missing file is fine) and any leftover temporary files of
    /// interrupted saves, then `fsync`s the directory. Does not touch the lock or a temp data file.
    ///
    /// - Parameter path: The checkpoint path.
    /// - Throws: ``CheckpointError`` `.fileSystem` when `unlink` fails for another reason than
    ///   the file being absent.
    package func remove(at path: String) throws(CheckpointError) {
        if unlink(path) != 0, errno != ENOENT {
            throw .fileSystem("unlink", path: path, errno: errno)
        }
        removeStaleTemporaryFiles(for: path)
        try? POSIXFile.syncDirectory(CheckpointPaths.directory(of: path))
    }

    /// Deletes `<path>.tmp-*` files left by saves that were interrupted by a crash. Call it while
    /// holding the checkpoint's ``CheckpointLock`` (a save in progress elsewhere would otherwise
    /// lose its temporary file and fail).
    ///
    /// - Parameter path: The checkpoint path.
    /// - Returns: How many files were removed.
    @discardableResult
    package func removeStaleTemporaryFiles(for path: String) -> Int {
        let directory = CheckpointPaths.directory(of: path)
        let prefix = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]) + ".tmp-"
        guard let stream = opendir(directory) else { return 0 }
        defer { closedir(stream) }
        var names = [String]()
        while let entry = readdir(stream) {
            // Read the name in place: a record is only as long as its name, so loading the whole 256-byte
            // `d_name` array can run past the end of readdir's buffer (and fault on an unmapped page).
            let name = String(
                cString: UnsafeRawPointer(entry).advanced(by: direntNameOffset).assumingMemoryBound(to: CChar.self)
            )
            if name.hasPrefix(prefix) { names.append(name) }
        }
        var removed = 0
        for name in names where unlink(directory == "/" ? "/" + name : directory + "/" + name) == 0 {
            removed += 1
        }
        return removed
    }
}

extension CheckpointStore {
    private static func encodeDocument<Document: CheckpointDocument>(
        _ document: Document
    ) throws(CheckpointError) -> [UInt8] {
        do {
            return try CheckpointEnvelope.encode(document)
        } catch {
            throw .invalidCheckpoint("the checkpoint could not be encoded: \(error)")
        }
    }

    private func write<Document: CheckpointDocument>(_ document: Document, to path: String) throws(CheckpointError) {
        if let problem = document.contentProblem() { throw .invalidCheckpoint(problem) }
        if let field = document.sensitiveField() { throw .sensitiveValue(field: field) }
        let bytes = try Self.encodeDocument(document)
        try AtomicFile.write(bytes, to: path)
        logger.trace("checkpoint saved", metadata: ["checkpoint.path": "\(path)", "checkpoint.size": "\(bytes.count)"])
    }

    private func read<Document: CheckpointDocument>(
        _ type: Document.Type,
        at path: String,
        identity: Document.Identity,
        check: (Document) -> CheckpointInvalidReason?
    ) -> CheckpointLoadResult<Document> {
        let bytes: [UInt8]
        switch POSIXFile.readAll(path, limit: maximumFileSize) {
        case .success(let value):
            bytes = value
        case .failure(.missing):
            return .discarded(
                CheckpointInvalidReason(code: .missing, message: "no checkpoint at \(path)"),
                previous: nil
            )
        case .failure(.notRegularFile):
            return .discarded(
                CheckpointInvalidReason(code: .unreadable, message: "\(path) is not a regular file"),
                previous: nil
            )
        case .failure(.tooLarge(let size)):
            return .discarded(
                CheckpointInvalidReason(
                    code: .unreadable,
                    message: "\(path) has \(size) bytes, more than the \(maximumFileSize)-byte limit"
                ),
                previous: nil
            )
        case .failure(.errno(let code)):
            return .discarded(
                CheckpointInvalidReason(code: .unreadable, message: "\(path): \(POSIXFile.errorText(code))"),
                previous: nil
            )
        }
        let document: Document
        switch CheckpointEnvelope.decode(bytes, as: type) {
        case .success(let value): document = value
        case .failure(let reason): return .discarded(reason, previous: nil)
        }
        if let problem = document.contentProblem() {
            return .discarded(CheckpointInvalidReason(code: .invalidContent, message: problem), previous: nil)
        }
        if let field = document.sensitiveField() {
            return .discarded(
                CheckpointInvalidReason(
                    code: .invalidContent,
                    field: field,
                    message: "\(field) could carry a credential"
                ),
                previous: nil
            )
        }
        if let reason = document.identity.mismatch(.identityMismatch, from: identity) ?? check(document) {
            return .discarded(reason, previous: document)
        }
        return .loaded(document)
    }

    private func finish<Document>(
        _ result: CheckpointLoadResult<Document>,
        path: String
    ) -> CheckpointLoadResult<Document> {
        guard case .discarded(let reason, _) = result else {
            logger.debug("resuming from checkpoint", metadata: ["checkpoint.path": "\(path)"])
            return result
        }
        let metadata: Logger.Metadata = [
            "checkpoint.path": "\(path)",
            "checkpoint.reason": "\(reason.code)",
            "checkpoint.field": "\(reason.field ?? "")",
        ]
        if reason.isMissing {
            logger.debug("no checkpoint; starting from the beginning", metadata: metadata)
        } else {
            logger.warning("discarding checkpoint, starting over: \(reason.message)", metadata: metadata)
        }
        return result
    }
}

/// Where `d_name` starts in a `dirent` record.
private let direntNameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
