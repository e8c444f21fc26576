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
/// parallel, verify, rename. See ``ObjectStorageClient/resumableDownload(bucket:key:to:options:progress:logger:)``.
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

    func run() async throws -> ResumableDownloadResult {
        let lock: CheckpointLock?
        if let checkpointPath = self.paths.checkpoint {
            do {
                lock = try CheckpointLock.acquire(for: checkpointPath)
            } catch {
                if error.code == .checkpointLocked {
                    throw ObjectStorageError(code: .checkpointLocked, message: error.message)
                }
                throw ObjectStorageError.fileSystem("lock the checkpoint", path: checkpointPath)
            }
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
            var (checkpoint, file) = try self.prepare(identity: identity, probe: probe, length: transfer.length)
            let reused = checkpoint.bytesCompleted
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
                return ResumableDownloadResult(
                    objectSize: probe.object.size,
                    etag: probe.object.etag,
                    lastModified: probe.object.lastModified,
                    versionID: probe.object.versionId,
                    crc64: probe.object.crc64,
                    range: checkpoint.transferRange,
                    destination: self.paths.destination,
                    bytesDownloaded: counter.value,
                    bytesReused: reused,
                    partCount: checkpoint.partCount,
                    partSize: checkpoint.partSize,
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

    /// Resumes from a valid checkpoint, or creates a fresh checkpoint and temp file.
    private func prepare(
        identity: DownloadCheckpoint.Identity,
        probe: ResumableDownloadSource.Probe,
        length: Int64
    ) throws -> (DownloadCheckpoint, DownloadTempFile) {
        if let checkpointPath = self.paths.checkpoint {
            let expectation = DownloadCheckpoint.Expectation(identity: identity, object: probe.object)
            switch self.store.load(at: checkpointPath, expecting: expectation) {
            case .loaded(let checkpoint) where checkpoint.tempFilePath == self.paths.temp:
                self.logger.debug(
                    "resuming from the checkpoint",
                    metadata: [
                        "os.parts_done": "\(checkpoint.completedParts.count)/\(checkpoint.partCount)",
                        "os.bytes_kept": "\(checkpoint.bytesCompleted)",
                    ]
                )
                return (checkpoint, try DownloadTempFile.reopen(self.paths.temp))
            case .loaded:
                self.logger.notice("starting over: the checkpoint names another temp file")
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
        return (checkpoint, file)
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

    private enum PartOutcome: Sendable {
        case part(index: Int, crc64: UInt64)
        case saverFinished
    }

    /// Fetches every missing part, at most `concurrency` at once, and keeps the checkpoint current
    /// (saves are coalesced: one in flight at a time, always of the latest state).
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
            logger: self.logger
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
        let (snapshots, continuation) = AsyncStream.makeStream(
            of: DownloadCheckpoint.self,
            bufferingPolicy: .bufferingNewest(1)
        )
        try await withThrowingTaskGroup(of: PartOutcome.self) { group in
            defer { continuation.finish() }
            if let checkpointPath {
                group.addTask {
                    for await snapshot in snapshots {
                        try file.syncData()
                        try Self.save(snapshot, store: store, to: checkpointPath)
                    }
                    return .saverFinished
                }
            }
            var pending = missing.makeIterator()
            var inFlight = 0
            while inFlight < concurrency, let index = pending.next() {
                group.addTask {
                    let done = try await fetcher.fetch(part: index)
                    return .part(index: done.index, crc64: done.crc64)
                }
                inFlight += 1
            }
            while inFlight > 0, let outcome = try await group.next() {
                guard case .part(let index, let crc) = outcome else { continue }
                inFlight -= 1
                do {
                    try current.markPartCompleted(index, crc64: crc)
                } catch {
                    throw ObjectStorageError.invalidResponse("\(error)")
                }
                continuation.yield(current)
                if let next = pending.next() {
                    group.addTask {
                        let done = try await fetcher.fetch(part: next)
                        return .part(index: done.index, crc64: done.crc64)
                    }
                    inFlight += 1
                }
            }
        }
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
    ) throws -> ResumableDownloadResult.Verification {
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
    ) throws -> ResumableDownloadResult.Verification {
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
