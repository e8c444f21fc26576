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

/// Thrown inside a download when the object is no longer the probed version (412 on `If-Match`,
/// another ETag or size): the engine discards everything and may start over.
struct ObjectChangedSignal: Error, Sendable {
    var reason: String
}

/// One resumable download: the download direction of ``CheckpointedTransfer``. Each round probes the object,
/// resumes or creates the checkpoint and its preallocated temp file, fetches the missing parts, then verifies
/// the bytes and renames them over the destination. See
/// ``ObjectStorageClient/resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)``.
struct ResumableDownloadStrategy: TransferStrategy {
    let client: ObjectStorageClient
    let source: ResumableDownloadSource
    let options: ResumableDownloadOptions
    let progress: TransferProgressHandler?
    let logger: Logger
    let paths: Paths
    let store: CheckpointStore

    struct Paths: Sendable {
        var destination: DownloadDestination
        /// Beside the destination, in its directory.
        var temp: DownloadDestination
        var checkpoint: String?
    }

    /// What a round's parts share: the temp file, the object as probed, the fetcher, and how a multipart ETag
    /// is checked.
    struct Session: Sendable {
        var file: DownloadTempFile
        var probe: ResumableDownloadSource.Probe
        var fetcher: PartFetcher
        var multipart: MultipartETagCheck?
    }

    var checkpointPath: String? { paths.checkpoint }
    var concurrency: Int { options.concurrency }
    var maximumRestarts: Int { options.restartsOnChange }

    init(
        client: ObjectStorageClient,
        source: ResumableDownloadSource,
        destination: DownloadDestination,
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

    // MARK: - Rounds

    /// Probes the object, then resumes from a valid checkpoint or creates a fresh checkpoint and temp file.
    func prepare(restarts: inout Int, isRestart: Bool) async throws -> TransferStart<Self> {
        let probe = try await self.probe()
        let transfer = try self.transferRange(objectSize: probe.object.size)
        let identity = try self.identity(range: transfer.requested)
        if let checkpointPath = self.paths.checkpoint {
            let expectation = DownloadCheckpoint.Expectation(identity: identity, object: probe.object)
            switch self.store.load(at: checkpointPath, expecting: expectation) {
            case .loaded(var checkpoint) where checkpoint.tempFilePath == self.paths.temp.path:
                try self.reverify(&checkpoint, at: checkpointPath)
                self.logger.debug(
                    "resuming from the checkpoint",
                    metadata: [
                        "os.parts_done": "\(checkpoint.completedParts.count)/\(checkpoint.partCount)",
                        "os.bytes_kept": "\(checkpoint.bytesCompleted)",
                    ]
                )
                let file = try DownloadTempFile.reopen(self.paths.temp)
                return .parts(checkpoint, await self.session(checkpoint, file, probe))
            case .loaded:
                self.logger.notice("starting over: the checkpoint names another temp file")
            case .discarded(let reason, let previous?)
            where reason.code == .tempFileMissing && previous.tempFilePath == self.paths.temp.path:
                if let verification = await self.completedEarlier(previous, probe: probe) {
                    self.logger.notice(
                        "the destination already holds the complete download; removed the leftover checkpoint",
                        metadata: [
                            "os.destination": "\(self.paths.destination.path)", "os.verified": "\(verification)",
                        ]
                    )
                    return .finishedEarlier(previous, Self.completion(probe, verification))
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
        var partSize = max(self.options.partSize, (transfer.length + maximumParts - 1) / maximumParts)
        if probe.ignoresRange { partSize = max(transfer.length, 1) }
        let checkpoint: DownloadCheckpoint
        do {
            checkpoint = try DownloadCheckpoint(
                identity: identity,
                object: probe.object,
                partSize: partSize,
                tempFilePath: self.paths.temp.path
            )
        } catch {
            throw ObjectStorageError.invalidArgument(error.message)
        }
        let file = try DownloadTempFile.create(self.paths.temp, size: checkpoint.expectedTempFileSize)
        if let checkpointPath = self.paths.checkpoint {
            try Self.save(checkpoint, store: self.store, to: checkpointPath)
        }
        return .parts(checkpoint, await self.session(checkpoint, file, probe))
    }

    private func session(
        _ checkpoint: DownloadCheckpoint,
        _ file: DownloadTempFile,
        _ probe: ResumableDownloadSource.Probe
    ) async -> Session {
        let multipart = await self.multipartETagCheck(probe, layout: checkpoint.layout, range: checkpoint.transferRange)
        let fetcher = PartFetcher(
            client: self.client,
            source: self.source,
            layout: checkpoint.layout,
            object: probe.object,
            versionID: self.pinnedVersion(probe),
            file: file,
            logger: self.logger,
            writesDirectly: !self.readsBack(checkpoint, probe: probe),
            partMD5s: multipart?.streamed
        )
        return Session(file: file, probe: probe, fetcher: fetcher, multipart: multipart)
    }

    /// Fetches one part into the temp file; see ``PartFetcher``.
    func transfer(
        part: Int,
        of checkpoint: DownloadCheckpoint,
        in session: Session,
        reporter: TransferProgressReporter
    ) async throws -> DownloadCheckpoint.Part {
        try await session.fetcher.fetch(part: part, reporter: reporter)
    }

    /// Saves the checkpoint without first syncing the temp file: a part whose bytes a crash loses (they were in
    /// the page cache, or the file's extents were not yet journaled) fails its CRC-64 when the next run re-reads
    /// the recorded parts, and is fetched again. The file is synced once, before it is
    /// renamed over the destination (see docs/BENCHMARKS.md).
    func save(_ checkpoint: DownloadCheckpoint, in session: Session, to path: String) throws {
        try Self.save(checkpoint, store: self.store, to: path)
    }

    func failure(_ error: any Error, restarts: Int) -> TransferFailure {
        if let change = error as? ObjectChangedSignal {
            let reason = "the object changed during the download (\(change.reason))"
            let exhausted = ObjectStorageError(
                code: .objectChanged,
                message: "\(reason) after \(restarts) restart(s); the partial download was discarded"
            )
            return .restart(reason: reason, exhausted: exhausted)
        }
        if let error = error as? ObjectStorageError, error.code == .integrityMismatch { return .discard }
        return .keep
    }

    /// Deletes the temp file (the core removes the checkpoint); the destination is never touched.
    func abandon(_ checkpoint: DownloadCheckpoint, in session: Session, discarded: Bool) async {
        session.file.remove()
    }

    // MARK: - Checkpoint

    /// The verification of the destination when a killed run had already renamed the complete
    /// download over it (the checkpoint's temp file is gone): the destination has the recorded size,
    /// each part's bytes match the recorded CRC-64 and the object still matches the checkpoint (the
    /// load compared the probe with it). `nil` when the destination is not that download.
    private func completedEarlier(
        _ checkpoint: DownloadCheckpoint,
        probe: ResumableDownloadSource.Probe
    ) async -> TransferResult.Verification? {
        guard checkpoint.isCompleteDownload(at: self.paths.destination.path) else { return nil }
        let multipart = await self.multipartETagCheck(probe, layout: checkpoint.layout, range: checkpoint.transferRange)
        do {
            let destination = try DownloadTempFile.openForReading(self.paths.destination)
            return try self.verify(checkpoint, file: destination, probe: probe, multipart: multipart)
        } catch {
            self.logger.notice(
                "the destination does not verify against the checkpoint",
                metadata: ["os.error": "\(error)", "os.destination": "\(self.paths.destination.path)"]
            )
            return nil
        }
    }

    /// What a download learned about the object: the probe's metadata and the verification.
    private static func completion(
        _ probe: ResumableDownloadSource.Probe,
        _ verification: TransferResult.Verification
    ) -> TransferCompletion {
        TransferCompletion(
            etag: probe.object.etag,
            versionID: probe.object.versionId,
            crc64: probe.object.crc64Polynomial == .xz ? probe.object.crc64 : nil,
            lastModified: probe.object.lastModified,
            verification: verification
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

    private func pinnedVersion(_ probe: ResumableDownloadSource.Probe) -> String? {
        guard case .object = self.source else { return nil }
        return self.options.versionID ?? probe.object.versionId
    }

    // MARK: - Completion

    /// Verifies the bytes, makes them durable and renames them over the destination. A temp file that cannot be
    /// synced is discarded with its checkpoint (``UntrustworthyWork``): the next call starts over.
    func finish(_ checkpoint: DownloadCheckpoint, in session: Session) async throws -> TransferCompletion {
        let (file, probe) = (session.file, session.probe)
        guard checkpoint.isComplete else {
            throw ObjectStorageError.invalidResponse("the download ended with parts missing")
        }
        let verification = try self.verify(checkpoint, file: file, probe: probe, multipart: session.multipart)
        do {
            try file.sync()
        } catch {
            throw UntrustworthyWork(underlying: error)
        }
        try file.commit(to: self.paths.destination.name)
        if let checkpointPath = self.paths.checkpoint {
            try? self.store.remove(at: checkpointPath)
        }
        self.logger.debug("download complete", metadata: ["os.verified": "\(verification)"])
        return Self.completion(probe, verification)
    }

    private func verify(
        _ checkpoint: DownloadCheckpoint,
        file: DownloadTempFile,
        probe: ResumableDownloadSource.Probe,
        multipart: MultipartETagCheck?
    ) throws -> TransferResult.Verification {
        guard self.options.verifiesIntegrity else { return .none(reason: "verification is turned off") }
        let object = checkpoint.object
        guard checkpoint.transferRange == 0..<object.size else {
            return .none(reason: "the service's checksum covers the whole object, not a byte range")
        }
        if let expected = object.crc64 {
            let computed = checkpoint.combinedCRC64() ?? 0
            let nvme = object.crc64Polynomial == .nvme
            guard computed == expected else {
                throw ObjectStorageError.integrityMismatch(
                    checksum: nvme ? "CRC-64/NVME" : "CRC-64/XZ",
                    expected: nvme ? CRC64.base64(expected) : String(expected),
                    actual: nvme ? CRC64.base64(computed) : String(computed),
                    operation: "ResumableDownload"
                )
            }
            return nvme ? .crc64NVME(computed) : .crc64(computed)
        }
        if let encryption = ETagDigest.encryption(in: probe.headers) {
            return .none(reason: "the object is encrypted (\(encryption)); its ETag is not the MD5 of its bytes")
        }
        if let multipart { return try multipart.verify(file, logger: self.logger) }
        guard let md5 = ETagDigest.md5(object.etag) else {
            return .none(reason: "the ETag is not an MD5 (another server's format, or a weak ETag)")
        }
        guard self.options.integrityCheck == .full else {
            return .none(reason: "the ETag is the MD5 of the whole object, which only a second read of the file checks")
        }
        let computed = ByteEncoding.hex(try file.md5(of: 0..<checkpoint.expectedTempFileSize))
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

    /// Whether ``verify(_:file:probe:multipart:)`` will read the whole file back (the MD5 of a single-part ETag):
    /// its parts are then written through the page cache, which still holds them for that pass.
    private func readsBack(_ checkpoint: DownloadCheckpoint, probe: ResumableDownloadSource.Probe) -> Bool {
        self.options.integrityCheck == .full && checkpoint.object.crc64 == nil
            && checkpoint.transferRange == 0..<checkpoint.object.size
            && ETagDigest.md5(checkpoint.object.etag) != nil && ETagDigest.encryption(in: probe.headers) == nil
    }
}

extension DownloadCheckpoint: TransferCheckpoint {
    /// A landed part: its index and the CRC-64 of its bytes.
    typealias Part = (index: Int, crc64: UInt64)

    var filePath: String { identity.destinationPath }
    var objectSize: Int64 { object.size }
    var objectRange: Range<Int64> { transferRange }
    var totalBytes: Int64 { expectedTempFileSize }
    var completedPartCount: Int { completedParts.count }
    var isMultipart: Bool { partCount > 1 }

    mutating func record(_ part: Part) throws {
        do {
            try markPartCompleted(part.index, crc64: part.crc64)
        } catch {
            throw ObjectStorageError.invalidResponse("\(error)")
        }
    }
}
