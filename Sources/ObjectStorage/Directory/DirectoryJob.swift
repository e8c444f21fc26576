//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageCheckpoint

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

/// One run of a directory job: merges the sorted local walk with the sorted listing, name by name, starts the
/// transfers it decides on within one concurrency budget, records each finished object in the manifest, and
/// deletes extraneous names last.
///
/// Both sides are streamed: the walk holds one directory per level and the listing one page, so a tree of any
/// size runs in bounded memory (plus the manifest's records of an earlier run, and the names to delete).
/// Transfers start while the listing goes on.
struct DirectoryJob: Sendable {
    enum Direction: Sendable {
        case upload
        case download
        /// From a prefix (``CopySource``) to a prefix, server-side on one endpoint, streamed across two.
        case copy
    }

    /// Where a copy job reads.
    struct CopySource: Sendable {
        /// The source's client, `nil` for the job's own (a server-side copy).
        var client: ObjectStorageClient?
        var bucket: String
        var prefix: String
    }

    /// One name on one side of the merge: a local file or a listed object.
    struct Entry: Sendable {
        var name: String
        var size: Int64
        /// Whole seconds since 1970: a file's modification time or an object's `Last-Modified`.
        var modifiedSeconds: Int64?
        /// A local file: its path and modification time in nanoseconds (an upload's manifest stamp).
        var path: String?
        var modificationNanoseconds: Int64 = 0
        /// A listed object: its key, ETag and `Last-Modified`.
        var key: String?
        var etag: String?
        var lastModified: Date?
    }

    /// A finished transfer, handed from its task to the loop that records it.
    struct Outcome: Sendable {
        var name: String
        var key: String?
        var path: String?
        var size: Int64
        var stamp: String
        var weight: Int
        var error: (any Error)?
        /// The digests matched (``DirectoryTransferOptions/Comparison/checksum``): nothing was transferred.
        var isUnchanged = false
        /// It went through a part engine, with a checkpoint when the job has a manifest.
        var isLarge = false
    }

    let client: ObjectStorageClient
    let direction: Direction
    let bucket: String
    let prefix: String
    /// The local directory (`""` for a copy).
    let directory: String
    /// A download's directory, held open: every file the job writes, renames or deletes is found from it, one real
    /// directory at a time (`nil` for an upload, a copy, or a dry run).
    let root: DirectoryHandle?
    /// A copy's source (`nil` for an upload or a download).
    let copySource: CopySource?
    let attributes: UploadAttributes
    let options: DirectoryTransferOptions
    let logger: Logger
    let events: DirectoryTransferEventHandler?
    let progress: DirectoryTransferProgressHandler?

    /// The suffix of a small download's temporary file, beside its destination.
    static let partialSuffix = ".objstore-partial"

    /// What names the job in its manifest.
    var identity: String {
        let endpoint = self.client.configuration.endpoint.description
        var identity = "\(self.direction)\n\(self.directory)\n\(endpoint)\n\(self.bucket)\n\(self.prefix)"
        if let source = self.copySource {
            let sourceEndpoint = (source.client ?? self.client).configuration.endpoint.description
            identity += "\n\(sourceEndpoint)\n\(source.bucket)\n\(source.prefix)"
        }
        return identity
    }

    func run() async throws -> DirectoryTransferSummary {
        let journal: DirectoryJobJournal?
        if let manifestPath = self.options.manifestPath, !self.options.isDryRun {
            do {
                journal = try DirectoryJobJournal(path: manifestPath, identity: self.identity)
            } catch {
                throw ObjectStorageError(checkpoint: error)
            }
        } else {
            journal = nil
        }
        var state = RunState()
        do {
            try await self.transfer(journal: journal, state: &state)
        } catch {
            self.syncFileSystem()
            journal?.close(removing: false)
            throw error
        }
        try await self.deleteExtraneous(state: &state)
        self.syncFileSystem()
        if let journal, state.summary.failed == 0 {
            await self.discardAbandonedCheckpoints(journal: journal, state: state)
        }
        journal?.close(removing: state.summary.failed == 0)
        return state.summary
    }

    /// What the loop keeps between objects.
    struct RunState {
        var summary = DirectoryTransferSummary()
        var progress = DirectoryTransferProgress()
        var extraneous: [(name: String, target: String)] = []
        /// The large objects this run started, by name bytes (see ``discardAbandonedCheckpoints``).
        var startedLarge: [[UInt8]: String] = [:]
        /// The large objects this run finished, by name bytes: nothing of theirs is left to discard.
        var finishedLarge: Set<[UInt8]> = []
        /// A download's large objects, whose `<name>.part` files are the job's own (never deleted as extraneous).
        var largeSourceNames: Set<[UInt8]> = []
        /// Local names the walk skipped: never deleted remotely as if they were missing.
        var protectedNames: Set<[UInt8]> = []
        var protectedDirectories: [[UInt8]] = []
    }

    // MARK: The merge

    /// The sides of the merge, each yielding entries in name order.
    private enum Side {
        case local(LocalTree)
        case listing(PaginatedSequence<ListObjectsV2Response>.AsyncIterator, prefix: String)
    }

    private func transfer(journal: DirectoryJobJournal?, state: inout RunState) async throws {
        let comparesDestination = self.options.comparison != .always || self.options.deletesExtraneous
        func localSide() throws -> Side {
            // Links are followed only where the directory is the source: a download's destination side is never
            // walked through a link, so nothing behind one is compared, overwritten or deleted.
            .local(
                try LocalTree(
                    root: self.directory,
                    followsSymbolicLinks: self.direction == .upload && self.options.followsSymbolicLinks
                ) {
                    self.direction == .download && $0.hasSuffix(Self.partialSuffix)
                }
            )
        }
        func listing(_ client: ObjectStorageClient, _ bucket: String, _ prefix: String) -> Side {
            .listing(
                client.listObjectsV2(bucket: bucket, prefix: prefix.isEmpty ? nil : prefix).makeAsyncIterator(),
                prefix: prefix
            )
        }
        let destinationListing = listing(self.client, self.bucket, self.prefix)
        var sourceSide: Side
        var destinationSide: Side?
        switch self.direction {
        case .upload:
            sourceSide = try localSide()
            destinationSide = comparesDestination ? destinationListing : nil
        case .download:
            sourceSide = destinationListing
            destinationSide = comparesDestination ? try localSide() : nil
        case .copy:
            let source = self.copySource ?? CopySource(bucket: self.bucket, prefix: self.prefix)
            sourceSide = listing(source.client ?? self.client, source.bucket, source.prefix)
            destinationSide = comparesDestination ? destinationListing : nil
        }
        var sourcePage: [Entry] = []
        var destinationPage: [Entry] = []

        // A transfer's child returns its outcome; the manifest's sync, a child too, returns nil.
        try await withThrowingTaskGroup(of: Outcome?.self) { group in
            var inFlight = 0
            var isSyncing = false
            func reap(_ state: inout RunState) async throws {
                guard let next = try await group.next() else { return }
                guard let outcome = next else {
                    isSyncing = false
                    return
                }
                inFlight -= outcome.weight
                try self.record(outcome, journal: journal, &state)
            }
            // Starts the manifest's sync when records wait for one, beside the transfers. One at a time: while the
            // previous one runs, the loop first waits for it (recording what lands meanwhile), so a power cut loses
            // at most the records of two intervals and of the transfers that were in flight.
            func syncIfDue(_ state: inout RunState) async throws {
                guard let journal, journal.isSyncDue else { return }
                while isSyncing { try await reap(&state) }
                let pending = journal.beginSync()
                isSyncing = true
                group.addTask {
                    try await BlockingIO.run {
                        // The files the records name become durable first.
                        self.syncFileSystem()
                        do throws(CheckpointError) {
                            try pending.run()
                        } catch {
                            throw ObjectStorageError(checkpoint: error)
                        }
                    }
                    return nil
                }
            }
            var source = try await self.next(&sourceSide, page: &sourcePage, isSource: true, &state)
            var destination: Entry?
            if destinationSide != nil {
                destination = try await self.next(&destinationSide!, page: &destinationPage, isSource: false, &state)
            }
            while source != nil || destination != nil {
                try Task.checkCancellation()
                let order: Int
                switch (source, destination) {
                case (let from?, let to?):
                    order =
                        from.name.utf8.elementsEqual(to.name.utf8)
                        ? 0 : (from.name.utf8.lexicographicallyPrecedes(to.name.utf8) ? -1 : 1)
                case (_?, nil): order = -1
                default: order = 1
                }
                let from = order <= 0 ? source : nil
                let to = order >= 0 ? destination : nil
                if order <= 0 { source = try await self.next(&sourceSide, page: &sourcePage, isSource: true, &state) }
                if order >= 0, destinationSide != nil {
                    destination = try await self.next(
                        &destinationSide!,
                        page: &destinationPage,
                        isSource: false,
                        &state
                    )
                }
                state.progress.objectsFound += 1
                guard let planned = try self.plan(source: from, destination: to, journal: journal, &state) else {
                    continue
                }
                let weight = planned.weight
                while inFlight > 0 && inFlight + weight > self.options.concurrency {
                    try await reap(&state)
                }
                try await syncIfDue(&state)
                inFlight += weight
                group.addTask { await planned.run() }
            }
            state.progress.isListingComplete = true
            while inFlight > 0 || isSyncing {
                try await reap(&state)
                try await syncIfDue(&state)
            }
        }
    }

    /// The next entry of a side that the filters keep; a local name the walk skipped is reported (on the source
    /// side) and protected from deletion.
    private func next(
        _ side: inout Side,
        page: inout [Entry],
        isSource: Bool,
        _ state: inout RunState
    ) async throws
        -> Entry?
    {
        switch side {
        case .local(let tree):
            while let item = tree.next() {
                switch item {
                case .file(let file):
                    if self.isFiltered(file.name) { continue }
                    return Entry(
                        name: file.name,
                        size: file.size,
                        modifiedSeconds: file.modificationNanoseconds / 1_000_000_000,
                        path: file.path,
                        modificationNanoseconds: file.modificationNanoseconds
                    )
                case .skipped(let name, let path, let reason):
                    if self.isFiltered(name) { continue }
                    if name.hasSuffix("/") {
                        state.protectedDirectories.append(Array(name.utf8))
                    } else {
                        state.protectedNames.insert(Array(name.utf8))
                    }
                    if isSource {
                        self.report(.skipped, name: name, key: nil, path: path, size: 0, reason: reason, &state)
                    }
                }
            }
            return nil
        case .listing(var pages, let prefix):
            defer { side = .listing(pages, prefix: prefix) }
            while true {
                // The page is kept reversed, so taking the next entry is `popLast`.
                if let entry = page.popLast() { return entry }
                guard let listed = try await pages.next() else { return nil }
                page = listed.contents.reversed().compactMap { object in
                    guard object.key.utf8.starts(with: prefix.utf8), !object.key.hasSuffix("/") else { return nil }
                    let name = String(decoding: object.key.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
                    guard !self.isFiltered(name) else { return nil }
                    return Entry(
                        name: name,
                        size: object.size,
                        modifiedSeconds: object.lastModified.map {
                            Int64($0.timeIntervalSince1970.clamped(to: -1e12...1e12))
                        },
                        key: object.key,
                        etag: object.etag,
                        lastModified: object.lastModified
                    )
                }
            }
        }
    }

    /// Whether a local name is the `.part` file of one of this download's large objects (it sorts after the
    /// object's own name, so the object has been seen by then).
    private func isOwnTemporaryFile(_ name: String, _ state: RunState) -> Bool {
        let suffix = CheckpointPaths.tempFileSuffix
        guard self.direction == .download, name.hasSuffix(suffix) else { return false }
        return state.largeSourceNames.contains(Array(name.utf8.dropLast(suffix.utf8.count)))
    }

    /// A transfer decided on, ready to run in a task of its own.
    struct PlannedTransfer: Sendable {
        var weight: Int
        var run: @Sendable () async -> Outcome
    }

    /// Decides what to do with a name: nothing (returns `nil`, having reported it), or a transfer.
    private func plan(
        source: Entry?,
        destination: Entry?,
        journal: DirectoryJobJournal?,
        _ state: inout RunState
    ) throws -> PlannedTransfer? {
        guard let source else {
            if let destination, self.options.deletesExtraneous, !self.isProtected(destination.name, state),
                !self.isOwnTemporaryFile(destination.name, state), let target = destination.key ?? destination.path
            {
                state.extraneous.append((destination.name, target))
            }
            return nil
        }
        if self.direction == .download, source.size >= self.options.largeObjectThreshold {
            state.largeSourceNames.insert(Array(source.name.utf8))
        }
        if let destination, !self.needsTransfer(source: source, destination: destination) {
            return self.finishUnchanged(source.name, size: source.size, &state)
        }
        let stamp = self.direction == .upload ? String(source.modificationNanoseconds) : source.etag ?? ""
        let key: String?
        let path: String?
        do throws(ObjectStorageError) {
            switch self.direction {
            case .upload, .copy:
                key = self.prefix + source.name
                path = nil
                try ObjectNameRules.validateObjectKey(
                    self.prefix + source.name,
                    for: self.client.configuration.provider
                )
            case .download:
                key = nil
                guard !source.name.hasSuffix(Self.partialSuffix) else {
                    throw ObjectStorageError(
                        code: .unsafePath,
                        message:
                            "key \(ObjectNameRules.display(source.key ?? source.name)) ends in '\(Self.partialSuffix)', the suffix of the job's temporary files"
                    )
                }
                path = try LocalPaths.path(
                    forKey: source.key ?? source.name,
                    removingPrefix: self.prefix,
                    under: self.directory
                )
            }
        } catch {
            self.report(
                .skipped,
                name: source.name,
                key: source.key,
                path: source.path,
                size: source.size,
                reason: error.message,
                &state
            )
            return nil
        }
        if let record = journal?.finishedRecord(for: source.name), record.size == source.size, !stamp.isEmpty,
            record.stamp == stamp, self.isStillInPlace(path: path, size: record.size)
        {
            return self.finishEarlier(source.name, size: source.size, &state)
        }
        return try self.planned(
            source: source,
            key: key,
            path: path,
            stamp: stamp,
            unlessMD5: destination.flatMap { self.digestToCompare(source: source, destination: $0) },
            journal: journal,
            &state
        )
    }

    /// Whether what an earlier run recorded is still where it put it: for a download, a regular file of the
    /// recorded size at its path (one `lstat`), so that a rerun after the files were deleted or truncated fetches
    /// them again. An upload's or a copy's object is trusted: checking would cost a request per object.
    private func isStillInPlace(path: String?, size: Int64) -> Bool {
        guard self.direction == .download else { return true }
        guard let path else { return false }
        return LocalPaths.isRegularFile(path, size: size)
    }

    /// The local file and MD5 to compare before transferring, with ``DirectoryTransferOptions/Comparison/checksum``
    /// (a copy compares two ETags in ``needsTransfer(source:destination:)`` instead).
    private func digestToCompare(source: Entry, destination: Entry) -> (path: String, size: Int64, md5: String)? {
        guard self.options.comparison == .checksum, source.size == destination.size else { return nil }
        switch self.direction {
        case .upload:
            guard let path = source.path, let md5 = ETagDigest.md5(destination.etag) else { return nil }
            return (path, source.size, md5)
        case .download:
            guard let path = destination.path, let md5 = ETagDigest.md5(source.etag) else { return nil }
            return (path, source.size, md5)
        case .copy:
            return nil
        }
    }

    private func planned(
        source: Entry,
        key: String?,
        path: String?,
        stamp: String,
        unlessMD5: (path: String, size: Int64, md5: String)?,
        journal: DirectoryJobJournal?,
        _ state: inout RunState
    ) throws -> PlannedTransfer? {
        let name = source.name
        let size = source.size
        if self.options.isDryRun {
            if let (file, fileSize, md5) = unlessMD5, (try? Self.file(file, size: fileSize, hasMD5: md5)) == true {
                return self.finishUnchanged(name, size: size, &state)
            }
            self.report(
                self.action,
                name: name,
                key: key ?? source.key,
                path: path ?? source.path,
                size: size,
                reason: nil,
                &state
            )
            state.summary.transferred += 1
            state.summary.transferredBytes += size
            return nil
        }
        let isLarge = size >= self.options.largeObjectThreshold
        let weight = isLarge ? max(1, min(self.options.transfer.concurrency, self.options.concurrency)) : 1
        var transfer = self.options.transfer
        transfer.enableCheckpoint = isLarge && journal != nil
        transfer.checkpointFilePath = journal.map {
            Self.checkpointPath(manifest: $0.path, name: name, direction: self.direction)
        }
        if isLarge, let journal {
            do {
                try journal.appendStart(name)
            } catch {
                throw ObjectStorageError(checkpoint: error)
            }
            state.startedLarge[Array(name.utf8)] = name
        }
        let job = self
        let options = transfer
        return PlannedTransfer(weight: weight) {
            var outcome = Outcome(
                name: name,
                key: key ?? source.key,
                path: path ?? source.path,
                size: size,
                stamp: stamp,
                weight: weight
            )
            outcome.isLarge = isLarge
            do {
                if let (file, fileSize, md5) = unlessMD5, try Self.file(file, size: fileSize, hasMD5: md5) {
                    outcome.isUnchanged = true
                    return outcome
                }
                let moved = try await job.move(source, key: key, path: path, isLarge: isLarge, options: options)
                outcome.stamp = moved ?? stamp
            } catch {
                outcome.error = error
            }
            return outcome
        }
    }

    /// What a transfer of this job is called in its events.
    var action: DirectoryTransferEvent.Action {
        switch self.direction {
        case .upload: .uploaded
        case .download: .downloaded
        case .copy: .copied
        }
    }
}
