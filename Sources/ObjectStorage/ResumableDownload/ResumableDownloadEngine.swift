//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOHTTP1
import ObjectStorageCheckpoint
import ObjectStorageSigning
import ObjectStorageTransport
import Synchronization

/// Thrown inside a download when the object is no longer the probed version (412 on `If-Match`,
/// another ETag or size): the engine discards everything and may start over.
struct ObjectChangedSignal: Error, Sendable {
    var reason: String
}

/// One resumable download: probe, load or create the checkpoint, fetch the missing parts in
/// parallel, verify, rename. See
/// ``ObjectStorageClient/resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)``.
struct ResumableDownloadEngine: Sendable {
    let client: ObjectStorageClient
    let source: ResumableDownloadSource
    let options: ResumableDownloadOptions
    let progress: TransferProgressHandler?
    let logger: Logger
    let paths: Paths
    let store: CheckpointStore

    struct Paths: Sendable {
        var destination: String
        var temp: String
        var checkpoint: String?
    }

    init(
        client: ObjectStorageClient,
        source: ResumableDownloadSource,
        destination: String,
        options: ResumableDownloadOptions,
        progress: TransferProgressHandler?,
        logger: Logger
    ) throws {
        try Self.validate(options)
        self.client = client
        self.source = source
        self.options = options
        self.progress = progress
        self.logger = logger
        self.paths = try Self.resolvePaths(destination: destination, options: options)
        self.store = CheckpointStore(logger: logger)
    }

    func run() async throws -> TransferResult {
        let lock: CheckpointLock?
        if let checkpointPath = self.paths.checkpoint {
            lock = try CheckpointLock.acquireForTransfer(checkpointPath)
            self.store.removeStaleTemporaryFiles(for: checkpointPath)
        } else {
            lock = nil
        }
        defer { lock?.release() }

        var restarts = 0
        var reporter: TransferProgressReporter?
        var reportedTotal: Int64 = -1
        while true {
            let probe = try await self.probe()
            let transfer = try self.transferRange(objectSize: probe.object.size)
            let identity = try self.identity(range: transfer.requested)
            var checkpoint: DownloadCheckpoint
            let file: DownloadTempFile
            switch try self.prepare(identity: identity, probe: probe, length: transfer.length) {
            case .resume(let resumed, let resumedFile):
                (checkpoint, file) = (resumed, resumedFile)
            case .finishedEarlier(let finished, let verification):
                return self.finishedEarlier(finished, verification: verification, probe: probe, restarts: restarts)
            }
            let reused = checkpoint.bytesCompleted
            let reusedParts = checkpoint.completedParts.count
            if reporter == nil || reportedTotal != checkpoint.expectedTempFileSize {
                reportedTotal = checkpoint.expectedTempFileSize
                reporter = TransferProgressReporter(
                    totalBytes: checkpoint.expectedTempFileSize,
                    resumedBytes: reused,
                    handler: self.progress
                )
                reporter?.begin()
            } else {
                reporter?.add(reused)
            }
            let counter = ByteCounter()
            do {
                try await self.fetchParts(
                    &checkpoint,
                    file: file,
                    probe: probe,
                    reporter: reporter,
                    counter: counter
                )
                let verification = try self.finish(checkpoint, file: file, probe: probe)
                reporter?.finish()
                return self.result(
                    checkpoint,
                    probe: probe,
                    downloaded: counter.value,
                    reused: reused,
                    reusedParts: reusedParts,
                    restarts: restarts,
                    verification: verification
                )
            } catch let change as ObjectChangedSignal {
                self.discard()
                reporter?.remove(reused + counter.value)
                guard restarts < self.options.restartsOnChange else {
                    throw ObjectStorageError(
                        code: .objectChanged,
                        message: "the object changed during the download (\(change.reason)) after \(restarts) "
                            + "restart(s); the partial download was discarded"
                    )
                }
                restarts += 1
                self.logger.notice(
                    "the object changed during the download; starting over",
                    metadata: ["os.reason": "\(change.reason)", "os.restart": "\(restarts)"]
                )
            } catch let error as ObjectStorageError where error.code == .integrityMismatch {
                self.discard()
                throw error
            } catch {
                if self.paths.checkpoint == nil { DownloadTempFile.remove(file.path) }
                if Task.isCancelled {
                    self.logger.debug("download paused", metadata: ["os.bytes_kept": "\(checkpoint.bytesCompleted)"])
                    throw CancellationError()
                }
                throw error
            }
        }
    }

    // MARK: - Checkpoint and temp file

    /// What ``prepare(identity:probe:length:)`` found.
    private enum Prepared {
        /// Fetch the checkpoint's missing parts into the temp file.
        case resume(DownloadCheckpoint, DownloadTempFile)
        /// A killed run had already renamed the complete, verified download over the destination.
        case finishedEarlier(DownloadCheckpoint, TransferResult.Verification)
    }

    /// Resumes from a valid checkpoint, or creates a fresh checkpoint and temp file.
    private func prepare(
        identity: DownloadCheckpoint.Identity,
        probe: ResumableDownloadSource.Probe,
        length: Int64
    ) throws -> Prepared {
        if let checkpointPath = self.paths.checkpoint {
            let expectation = DownloadCheckpoint.Expectation(identity: identity, object: probe.object)
            switch self.store.load(at: checkpointPath, expecting: expectation) {
            case .loaded(var checkpoint) where checkpoint.tempFilePath == self.paths.temp:
                try self.reverify(&checkpoint, at: checkpointPath)
                self.logger.debug(
                    "resuming from the checkpoint",
                    metadata: [
                        "os.parts_done": "\(checkpoint.completedParts.count)/\(checkpoint.partCount)",
                        "os.bytes_kept": "\(checkpoint.bytesCompleted)",
                    ]
                )
                return .resume(checkpoint, try DownloadTempFile.reopen(self.paths.temp))
            case .loaded:
                self.logger.notice("starting over: the checkpoint names another temp file")
            case .discarded(let reason, let previous?)
            where reason.code == .tempFileMissing && previous.tempFilePath == self.paths.temp:
                if let verification = self.completedEarlier(previous, probe: probe) {
                    return .finishedEarlier(previous, verification)
                }
                self.logger.notice(
                    "starting the download over from zero",
                    metadata: ["os.reason": "\(reason)", "os.checkpoint": "\(checkpointPath)"]
                )
            case .discarded(let reason, _):
                if !reason.isMissing {
                    self.logger.notice(
                        "starting the download over from zero",
                        metadata: ["os.reason": "\(reason)", "os.checkpoint": "\(checkpointPath)"]
                    )
                }
            }
        }
        let maximumParts = ResumableDownloadOptions.maximumPartCount
        var partSize = max(self.options.partSize, (length + maximumParts - 1) / maximumParts)
        if probe.ignoresRange { partSize = max(length, 1) }
        let checkpoint: DownloadCheckpoint
        do {
            checkpoint = try DownloadCheckpoint(
                identity: identity,
                object: probe.object,
                partSize: partSize,
                tempFilePath: self.paths.temp
            )
        } catch {
            throw ObjectStorageError.invalidArgument(error.message)
        }
        let file = try DownloadTempFile.create(self.paths.temp, size: checkpoint.expectedTempFileSize)
        if let checkpointPath = self.paths.checkpoint {
            try Self.save(checkpoint, store: self.store, to: checkpointPath)
        }
        return .resume(checkpoint, file)
    }

    /// The verification of the destination when a killed run had already renamed the complete
    /// download over it (the checkpoint's temp file is gone): the destination has the recorded size,
    /// each part's bytes match the recorded CRC-64 and the object still matches the checkpoint (the
    /// load compared the probe with it). `nil` when the destination is not that download.
    private func completedEarlier(
        _ checkpoint: DownloadCheckpoint,
        probe: ResumableDownloadSource.Probe
    ) -> TransferResult.Verification? {
        guard checkpoint.isCompleteDownload(at: self.paths.destination) else { return nil }
        do {
            let destination = try DownloadTempFile.openForReading(self.paths.destination)
            return try self.verify(checkpoint, file: destination, probe: probe)
        } catch {
            self.logger.notice(
                "the destination does not verify against the checkpoint",
                metadata: ["os.error": "\(error)", "os.destination": "\(self.paths.destination)"]
            )
            return nil
        }
    }

    /// Ends a download that a killed run had already completed: removes the checkpoint and reports
    /// the destination as it is (nothing fetched).
    private func finishedEarlier(
        _ checkpoint: DownloadCheckpoint,
        verification: TransferResult.Verification,
        probe: ResumableDownloadSource.Probe,
        restarts: Int
    ) -> TransferResult {
        if let checkpointPath = self.paths.checkpoint { try? self.store.remove(at: checkpointPath) }
        self.logger.notice(
            "the destination already holds the complete download; removed the leftover checkpoint",
            metadata: ["os.destination": "\(self.paths.destination)", "os.verified": "\(verification)"]
        )
        let reporter = TransferProgressReporter(
            totalBytes: checkpoint.expectedTempFileSize,
            resumedBytes: checkpoint.bytesCompleted,
            handler: self.progress
        )
        reporter.begin()
        reporter.finish()
        return self.result(
            checkpoint,
            probe: probe,
            downloaded: 0,
            reused: checkpoint.bytesCompleted,
            reusedParts: checkpoint.completedParts.count,
            restarts: restarts,
            verification: verification
        )
    }

    /// What a finished download reports: the object as probed, the layout, and the bytes moved.
    private func result(
        _ checkpoint: DownloadCheckpoint,
        probe: ResumableDownloadSource.Probe,
        downloaded: Int64,
        reused: Int64,
        reusedParts: Int,
        restarts: Int,
        verification: TransferResult.Verification
    ) -> TransferResult {
        TransferResult(
            filePath: self.paths.destination,
            etag: probe.object.etag,
            versionID: probe.object.versionId,
            crc64: probe.object.crc64,
            lastModified: probe.object.lastModified,
            objectSize: probe.object.size,
            range: checkpoint.transferRange,
            bytesTransferred: downloaded,
            bytesReused: reused,
            partSize: checkpoint.partSize,
            partCount: checkpoint.partCount,
            partsTransferred: checkpoint.partCount - reusedParts,
            partsReused: reusedParts,
            isMultipart: checkpoint.partCount > 1,
            restarts: restarts,
            verification: verification,
            contentMD5Verified: false
        )
    }

    /// Re-reads the parts the checkpoint records as done and forgets those whose bytes in the temp
    /// file no longer match their CRC-64 (damaged on disk, or recorded before they were durable), so
    /// they are fetched again instead of failing the final check after the whole download.
    private func reverify(_ checkpoint: inout DownloadCheckpoint, at checkpointPath: String) throws {
        let damaged: [Int]
        do {
            damaged = try checkpoint.verifyCompletedParts()
        } catch {
            throw ObjectStorageError(code: .fileSystem, message: error.message)
        }
        guard !damaged.isEmpty else { return }
        self.logger.notice(
            "parts recorded as done have other bytes in the temp file; fetching them again",
            metadata: ["os.parts": "\(damaged)", "os.temp": "\(checkpoint.tempFilePath)"]
        )
        try Self.save(checkpoint, store: self.store, to: checkpointPath)
    }

    static func save(_ checkpoint: DownloadCheckpoint, store: CheckpointStore, to path: String) throws {
        do {
            try store.save(checkpoint, to: path)
        } catch {
            throw ObjectStorageError(code: .checkpointFailed, message: error.message)
        }
    }

    /// Deletes the temp file and the checkpoint.
    private func discard() {
        DownloadTempFile.remove(self.paths.temp)
        if let checkpointPath = self.paths.checkpoint { try? self.store.remove(at: checkpointPath) }
    }

    // MARK: - Parts

    /// Fetches every missing part and keeps the checkpoint current.
    ///
    /// A part holds its concurrency slot until the checkpoint that records it is durable: a new part
    /// starts only while the parts in flight plus the parts landed but not yet saved are fewer than
    /// `concurrency`, so a SIGKILL never costs more than `concurrency` parts. Saves are coalesced: one
    /// in flight at a time, always of the latest state.
    ///
    /// A save first makes the landed bytes durable (`fdatasync`), so the checkpoint never records a part
    /// that is not on disk. Parts are mostly written with direct I/O (``PartWriter``), so that sync has little
    /// left to write (see docs/BENCHMARKS.md). Saves run on NIO's thread pool, never on the cooperative pool
    /// that schedules the parts.
    private func fetchParts(
        _ checkpoint: inout DownloadCheckpoint,
        file: DownloadTempFile,
        probe: ResumableDownloadSource.Probe,
        reporter: TransferProgressReporter?,
        counter: ByteCounter
    ) async throws {
        let fetcher = PartFetcher(
            client: self.client,
            source: self.source,
            layout: checkpoint.layout,
            object: probe.object,
            versionID: self.pinnedVersion(probe),
            file: file,
            reporter: reporter,
            counter: counter,
            logger: self.logger,
            writesDirectly: !self.readsBack(checkpoint, probe: probe)
        )
        let missing = checkpoint.missingParts
        guard !missing.isEmpty else { return }
        let store = self.store
        let checkpointPath = self.paths.checkpoint
        let concurrency = self.options.concurrency
        var current = checkpoint
        defer {
            checkpoint = current
            if let checkpointPath {
                // The final state, whatever happened (a pause keeps every finished part).
                try? file.syncData()
                try? Self.save(current, store: store, to: checkpointPath)
            }
        }
        try await DurablePartScheduler.run(
            parts: missing,
            concurrency: concurrency,
            transfer: { index in
                let done = try await fetcher.fetch(part: index)
                return (index: done.index, crc64: done.crc64)
            },
            record: { landed in
                do {
                    try current.markPartCompleted(landed.index, crc64: landed.crc64)
                } catch {
                    throw ObjectStorageError.invalidResponse("\(error)")
                }
            },
            prepareSave: checkpointPath.map { path in
                { _ in
                    let snapshot = current
                    return {
                        try await BlockingIO.run {
                            try file.syncData()
                            try Self.save(snapshot, store: store, to: path)
                        }
                    }
                }
            }
        )
    }

    private func pinnedVersion(_ probe: ResumableDownloadSource.Probe) -> String? {
        guard case .object = self.source else { return nil }
        return self.options.versionID ?? probe.object.versionId
    }

    // MARK: - Completion

    /// Verifies the bytes, makes them durable and renames them over the destination.
    private func finish(
        _ checkpoint: DownloadCheckpoint,
        file: DownloadTempFile,
        probe: ResumableDownloadSource.Probe
    ) throws -> TransferResult.Verification {
        guard checkpoint.isComplete else {
            throw ObjectStorageError.invalidResponse("the download ended with parts missing")
        }
        let verification = try self.verify(checkpoint, file: file, probe: probe)
        try file.sync()
        try file.commit(to: self.paths.destination)
        if let checkpointPath = self.paths.checkpoint {
            try? self.store.remove(at: checkpointPath)
        }
        self.logger.debug("download complete", metadata: ["os.verified": "\(verification)"])
        return verification
    }

    private func verify(
        _ checkpoint: DownloadCheckpoint,
        file: DownloadTempFile,
        probe: ResumableDownloadSource.Probe
    ) throws -> TransferResult.Verification {
        guard self.options.verifyIntegrity else { return .none(reason: "verification is turned off") }
        let object = checkpoint.object
        guard checkpoint.transferRange == 0..<object.size else {
            return .none(reason: "the service's checksum covers the whole object, not a byte range")
        }
        if let expected = object.crc64 {
            let computed = checkpoint.combinedCRC64() ?? 0
            guard computed == expected else {
                throw ObjectStorageError.integrityMismatch(
                    checksum: "CRC-64/XZ",
                    expected: String(expected),
                    actual: String(computed),
                    operation: "ResumableDownload"
                )
            }
            return .crc64(computed)
        }
        guard let md5 = Self.singlePartMD5(etag: object.etag) else {
            return .none(reason: "the ETag is not an MD5 (a multipart upload or another server's format)")
        }
        if let encryption = Self.encryption(in: probe.headers) {
            return .none(reason: "the object is encrypted (\(encryption)); its ETag is not the MD5 of its bytes")
        }
        let computed = ByteEncoding.hex(try file.md5(length: checkpoint.expectedTempFileSize))
        guard computed == md5 else {
            throw ObjectStorageError.integrityMismatch(
                checksum: "MD5",
                expected: md5,
                actual: computed,
                operation: "ResumableDownload"
            )
        }
        return .md5(computed)
    }

    /// Whether ``verify(_:file:probe:)`` will read the whole file back (the MD5 of a single-part ETag):
    /// its parts are then written through the page cache, which still holds them for that pass.
    private func readsBack(_ checkpoint: DownloadCheckpoint, probe: ResumableDownloadSource.Probe) -> Bool {
        self.options.verifyIntegrity && checkpoint.object.crc64 == nil
            && checkpoint.transferRange == 0..<checkpoint.object.size
            && Self.singlePartMD5(etag: checkpoint.object.etag) != nil && Self.encryption(in: probe.headers) == nil
    }

    /// The lowercase hex MD5 in a single-part ETag (`"<32 hex>"`), or `nil`.
    static func singlePartMD5(etag: String) -> String? {
        var text = Substring(etag)
        if text.hasPrefix("W/") { return nil }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        guard text.utf8.count == 32, ByteEncoding.bytes(fromHex: String(text)) != nil else { return nil }
        return text.lowercased()
    }

    /// The server-side encryption named in the probe's headers, if any (its ETag is then no MD5).
    static func encryption(in headers: HTTPHeaders) -> String? {
        for header in headers {
            let name = header.name.lowercased()
            if name.hasSuffix("server-side-encryption-customer-algorithm") { return "SSE-C" }
            if name.hasSuffix("server-side-encryption"), header.value.lowercased().contains("kms") {
                return header.value
            }
        }
        return nil
    }
}

/// Bytes received during one round of a download.
final class ByteCounter: Sendable {
    private let count = Atomic<Int64>(0)

    func add(_ value: Int64) { self.count.add(value, ordering: .relaxed) }

    var value: Int64 { self.count.load(ordering: .relaxed) }
}
