//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint
import ObjectStorageTransport

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

extension DirectoryJob {
    // MARK: Deciding

    /// Whether the destination's copy differs from the source's, by ``DirectoryTransferOptions/comparison``.
    func needsTransfer(source: Entry, destination: Entry) -> Bool {
        guard source.size == destination.size else { return true }
        switch self.options.comparison {
        case .always:
            return true
        case .sizeOnly:
            return false
        case .checksum where self.direction == .copy:
            // Two listings: two ETags to compare when both are MD5s.
            if let from = ETagDigest.md5(source.etag), let to = ETagDigest.md5(destination.etag) { return from != to }
            return self.isNewer(source, than: destination)
        case .checksum where self.digestAvailable(source: source, destination: destination):
            // Decided by the local file's digest, in the transfer's task (see `planned`).
            return true
        case .sizeAndModificationTime, .checksum:
            return self.isNewer(source, than: destination)
        }
    }

    /// Whether the source was modified after the destination, in whole seconds (`Last-Modified` has no more).
    private func isNewer(_ source: Entry, than destination: Entry) -> Bool {
        guard let from = source.modifiedSeconds, let to = destination.modifiedSeconds else { return true }
        return from > to
    }

    /// Whether the object side of an upload or a download has an MD5 ETag to compare with the file's digest.
    private func digestAvailable(source: Entry, destination: Entry) -> Bool {
        ETagDigest.md5(self.direction == .upload ? destination.etag : source.etag) != nil
    }

    /// Whether the file's MD5 is `md5` (hexadecimal).
    static func file(_ path: String, size: Int64, hasMD5 md5: String) throws -> Bool {
        let digest = try FileRegionDigest.compute(path: path, range: 0..<size)
        guard let md5Base64 = digest.md5Base64, let bytes = Data(base64Encoded: md5Base64) else { return false }
        return ByteEncoding.hex(Array(bytes)) == md5
    }

    /// Whether `name` is left out by the job's patterns.
    func isFiltered(_ name: String) -> Bool {
        func matches(_ patterns: [String]) -> Bool {
            patterns.contains { fnmatch($0, name, 0) == 0 }
        }
        return matches(self.options.excludes) && !matches(self.options.includes)
    }

    /// Whether a remote name corresponds to a local name the walk skipped (never deleted as missing).
    func isProtected(_ name: String, _ state: RunState) -> Bool {
        let bytes = Array(name.utf8)
        return state.protectedNames.contains(bytes) || state.protectedDirectories.contains { bytes.starts(with: $0) }
    }

    func finishUnchanged(_ name: String, size: Int64, _ state: inout RunState) -> PlannedTransfer? {
        state.summary.unchanged += 1
        state.progress.objectsDone += 1
        self.progress?(state.progress)
        return nil
    }

    func finishEarlier(_ name: String, size: Int64, _ state: inout RunState) -> PlannedTransfer? {
        state.summary.finishedEarlier += 1
        state.progress.objectsDone += 1
        self.progress?(state.progress)
        return nil
    }

    /// The checkpoint of a large object, beside the manifest: named by the job's manifest and a hash of the name.
    static func checkpointPath(manifest: String, name: String, direction: Direction) -> String {
        let suffix = direction == .download ? CheckpointPaths.downloadSuffix : CheckpointPaths.uploadSuffix
        return manifest + "-" + JobFileName.hash(name) + suffix
    }

    // MARK: Moving

    /// Transfers one object; returns the stamp to record when it differs from the planned one (a download's or a
    /// copy's ETag as the service answered it).
    func move(
        _ source: Entry,
        key: String?,
        path: String?,
        isLarge: Bool,
        options: TransferOptions
    ) async throws
        -> String?
    {
        switch self.direction {
        case .upload:
            guard let file = source.path, let key else { return nil }
            _ = try await self.client.uploadFile(
                from: file,
                bucket: self.bucket,
                key: key,
                attributes: self.attributes,
                options: options,
                logger: self.logger
            )
            return nil
        case .copy:
            guard let key, let sourceKey = source.key, let origin = self.copySource else { return nil }
            if origin.client == nil, !isLarge, let etag = source.etag {
                // A small object inside one service: one CopyObject pinned to the listed ETag, as a small download
                // is one GET pinned to it; no HeadObject of its own.
                _ = try await self.client.copyObject(
                    bucket: self.bucket,
                    key: key,
                    sourceBucket: origin.bucket,
                    sourceKey: sourceKey,
                    sourceIfMatch: etag,
                    attributes: self.attributes,
                    logger: self.logger
                )
                return etag
            }
            let result: TransferResult
            if let sourceClient = origin.client {
                result = try await self.client.resumableCopy(
                    bucket: self.bucket,
                    key: key,
                    from: sourceClient,
                    sourceBucket: origin.bucket,
                    sourceKey: sourceKey,
                    attributes: self.attributes,
                    options: options,
                    logger: self.logger
                )
            } else {
                result = try await self.client.resumableCopy(
                    bucket: self.bucket,
                    key: key,
                    sourceBucket: origin.bucket,
                    sourceKey: sourceKey,
                    attributes: self.attributes,
                    options: options,
                    logger: self.logger
                )
            }
            return source.etag ?? result.etag
        case .download:
            guard let path, let key = source.key, let root = self.root else { return nil }
            let destination = try LocalPaths.destination(of: path, under: root, creating: true)
            if isLarge {
                let result = try await self.client.resumableDownload(
                    bucket: self.bucket,
                    key: key,
                    to: destination,
                    options: options,
                    logger: self.logger
                )
                if let lastModified = source.lastModified { Self.setModificationTime(destination, lastModified) }
                return result.etag
            }
            var request = GetObjectRequest(bucket: self.bucket, key: key)
            request.ifMatch = source.etag
            let attributes = try await self.client.download(
                request,
                to: destination,
                through: destination.name + Self.partialSuffix,
                listedSize: source.size,
                logger: self.logger
            )
            return attributes.etag
        }
    }

    /// Gives the file at `destination` (never what a link there points to) the modification time `date`.
    static func setModificationTime(_ destination: DownloadDestination, _ date: Date) {
        guard var times = FileTimestamps.both(date) else { return }
        _ = utimensat(destination.directory.descriptor, destination.name, &times, AT_SYMLINK_NOFOLLOW)
    }

    /// Flushes the downloaded files of a job to disk with one call (they are written without an `fsync` each).
    func syncFileSystem() {
        guard self.direction == .download, !self.options.isDryRun else { return }
        #if canImport(Glibc)
        // `syncfs` (one file system, not all of them) is declared only with _GNU_SOURCE, which the Glibc
        // module does not set.
        typealias SyncFileSystem = @convention(c) (Int32) -> Int32
        guard let root = self.root, let symbol = dlsym(nil, "syncfs") else { return sync() }
        _ = unsafeBitCast(symbol, to: SyncFileSystem.self)(root.descriptor)
        #else
        sync()
        #endif
    }

    // MARK: Recording

    /// Records a finished transfer: the manifest first, then the event.
    func record(_ outcome: Outcome, journal: DirectoryJobJournal?, _ state: inout RunState) throws {
        if outcome.isUnchanged {
            _ = self.finishUnchanged(outcome.name, size: outcome.size, &state)
            return
        }
        if let error = outcome.error {
            if Task.isCancelled || error is CancellationError || Self.failsEveryObject(error) { throw error }
            if let reason = self.reasonARerunFailsToo(outcome, error) {
                self.report(
                    .skipped,
                    name: outcome.name,
                    key: outcome.key,
                    path: outcome.path,
                    size: outcome.size,
                    reason: reason,
                    &state
                )
                return
            }
            state.summary.failed += 1
            self.report(
                .failed,
                name: outcome.name,
                key: outcome.key,
                path: outcome.path,
                size: outcome.size,
                reason: "\(error)",
                error: error,
                &state
            )
            return
        }
        do throws(CheckpointError) {
            let record = DirectoryJobJournal.Record(name: outcome.name, size: outcome.size, stamp: outcome.stamp)
            try journal?.append(record)
        } catch {
            throw ObjectStorageError(checkpoint: error)
        }
        if outcome.isLarge { state.finishedLarge.insert(Array(outcome.name.utf8)) }
        state.summary.transferred += 1
        state.summary.transferredBytes += outcome.size
        state.progress.bytesTransferred += outcome.size
        self.report(
            action,
            name: outcome.name,
            key: outcome.key,
            path: outcome.path,
            size: outcome.size,
            reason: nil,
            &state
        )
    }

    /// Why a failed object would fail again on every rerun, when that is so; such an object is reported as skipped.
    ///
    /// - An upload's file vanished since the walk found it: there is nothing to upload.
    /// - A download's path is refused (`unsafePath`): a file or a symbolic link stands where the key needs a directory,
    ///   as a download of the keys `a` and `a/b` leaves one of them, whichever lands first.
    /// - A download's path is a directory: the same collision the other way round.
    func reasonARerunFailsToo(_ outcome: Outcome, _ error: any Error) -> String? {
        guard let path = outcome.path else { return nil }
        switch self.direction {
        case .upload:
            return access(path, F_OK) != 0 ? "vanished during the job" : nil
        case .download:
            if let error = error as? ObjectStorageError, error.code == .unsafePath { return error.message }
            guard LocalPaths.isDirectory(path) else { return nil }
            return "'\(path)' is a directory, which holds the files of keys that continue this one"
        case .copy:
            return nil
        }
    }

    /// Whether an error would fail every other object too (the bucket is missing, the credentials are refused, the
    /// endpoint cannot be reached after the retries): the job stops at the first, rather than report one failure
    /// per object.
    static func failsEveryObject(_ error: any Error) -> Bool {
        if let error = error as? ServiceError {
            return [.noSuchBucket, .invalidAccessKeyID, .signatureDoesNotMatch, .requestTimeTooSkewed]
                .contains(error.code)
        }
        if let error = error as? TransportError {
            return [.connectFailed, .hostNotFound, .tlsFailed, .redirectRefused, .unsafeHTTPClient].contains(error.code)
        }
        return false
    }

    /// Reports an event and the progress it makes.
    func report(
        _ action: DirectoryTransferEvent.Action,
        name: String,
        key: String?,
        path: String?,
        size: Int64,
        reason: String?,
        error: (any Error)? = nil,
        _ state: inout RunState
    ) {
        if action == .skipped { state.summary.skipped += 1 }
        if action != .deleted { state.progress.objectsDone += 1 }
        self.events?(
            DirectoryTransferEvent(
                action: action,
                name: name,
                key: key,
                path: path,
                size: size,
                reason: reason,
                error: error,
                isDryRun: self.options.isDryRun
            )
        )
        self.progress?(state.progress)
    }

    // MARK: Cleaning up

    /// Discards what large objects started by this job and never finished left behind, once the job ends with no
    /// failure: their source vanished, or their name is now filtered out, so no run will resume them. An upload's
    /// multipart upload is aborted (its parts are billed until then) and a download's `.part` file deleted, with
    /// their checkpoints. A copy's unfinished multipart upload is left to `ls --incomplete` / `rm --incomplete`.
    func discardAbandonedCheckpoints(journal: DirectoryJobJournal, state: RunState) async {
        let started = journal.started.merging(state.startedLarge) { first, _ in first }
        for (bytes, name) in started
        where !state.finishedLarge.contains(bytes) && journal.finished[bytes] == nil {
            var options = TransferOptions(enableCheckpoint: true)
            options.checkpointFilePath = Self.checkpointPath(
                manifest: journal.path,
                name: name,
                direction: self.direction
            )
            switch self.direction {
            case .upload:
                _ = try? await self.client.abandonUploadFile(
                    from: self.directory + "/" + name,
                    options: options,
                    logger: self.logger
                )
            case .download:
                guard
                    let path = try? LocalPaths.path(
                        forKey: self.prefix + name,
                        removingPrefix: self.prefix,
                        under: self.directory
                    ),
                    let root = self.root,
                    let destination = try? LocalPaths.destination(of: path, under: root, creating: false)
                else { continue }
                _ = try? self.client.abandonResumableDownload(to: destination, options: options, logger: self.logger)
            case .copy:
                continue
            }
        }
    }

    // MARK: Deleting

    /// Deletes the names the source does not have, once every transfer has succeeded.
    func deleteExtraneous(state: inout RunState) async throws {
        let extraneous = state.extraneous
        state.extraneous = []
        guard !extraneous.isEmpty else { return }
        guard state.summary.failed == 0 else {
            state.summary.deletionsWithheld = extraneous.count
            return
        }
        if self.options.isDryRun {
            for (name, target) in extraneous {
                state.summary.deleted += 1
                let isKey = self.direction != .download
                self.report(
                    .deleted,
                    name: name,
                    key: isKey ? target : nil,
                    path: isKey ? nil : target,
                    size: 0,
                    reason: nil,
                    &state
                )
            }
            return
        }
        switch self.direction {
        case .upload, .copy:
            var start = 0
            while start < extraneous.count {
                try Task.checkCancellation()
                let batch = extraneous[start..<min(start + 1000, extraneous.count)]
                start += batch.count
                let names = Dictionary(batch.map { ($0.target, $0.name) }) { first, _ in first }
                let response = try await self.client.deleteObjects(bucket: self.bucket, keys: batch.map(\.target))
                for key in response.deleted {
                    state.summary.deleted += 1
                    self.report(.deleted, name: names[key] ?? key, key: key, path: nil, size: 0, reason: nil, &state)
                }
                for failure in response.failures {
                    state.summary.failed += 1
                    let reason = "\(failure.code): \(failure.message)"
                    self.report(
                        .failed,
                        name: names[failure.key] ?? failure.key,
                        key: failure.key,
                        path: nil,
                        size: 0,
                        reason: reason,
                        &state
                    )
                }
            }
        case .download:
            for (name, path) in extraneous {
                switch self.deleteFile(path) {
                case nil:
                    state.summary.deleted += 1
                    self.report(.deleted, name: name, key: nil, path: path, size: 0, reason: nil, &state)
                case let reason?:
                    state.summary.failed += 1
                    self.report(.failed, name: name, key: nil, path: path, size: 0, reason: reason, &state)
                }
            }
        }
    }

    /// Deletes a file of a download's directory, found from the job's root one real directory at a time, so that
    /// a link in the way (planted, or swapped in since the walk) never leads the deletion outside the directory.
    ///
    /// - Returns: `nil` when the file is gone, else why it is not.
    private func deleteFile(_ path: String) -> String? {
        guard let root = self.root else { return "the job's directory is not open" }
        let destination: DownloadDestination
        do {
            destination = try LocalPaths.destination(of: path, under: root, creating: false)
        } catch  where error.code == .unsafePath {
            return "not deleted: \(error.message)"
        } catch {
            var info = stat()
            return lstat(path, &info) != 0 && errno == ENOENT ? nil : "cannot delete: \(error.message)"
        }
        guard let failure = destination.directory.remove(destination.name) else { return nil }
        return "cannot delete: \(SystemErrorText.describe(failure))"
    }
}

extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
