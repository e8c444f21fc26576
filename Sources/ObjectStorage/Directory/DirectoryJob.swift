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

/// One run of a directory job, put together from parts that each do one job: the two sides (``LocalSide``,
/// ``ListingSide``) merged name by name (``SortedMerge``), the rules that decide what each name needs
/// (``DirectoryPlanner``), the transfers run within one concurrency budget and recorded in the manifest as they
/// finish (``DurableScheduler``, the scheduler of every transfer engine), then the deletions of extraneous names
/// and the clean-up of what the run leaves behind.
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

    /// A finished transfer, handed from its task to the run that records it.
    struct Outcome: Sendable {
        var name: String
        /// The local path (an upload's source, a download's destination), `nil` for a copy.
        var path: String?
        var size: Int64
        var stamp: String
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
    /// Receives the job's events (see ``report(_:_:)``).
    let events: (@Sendable (DirectoryTransferEvent) -> Void)?

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
        if let asOf = self.options.sourceAsOf { identity += "\nas of \(asOf.timeIntervalSince1970)" }
        return identity
    }

    /// What the run keeps between objects.
    struct RunState {
        /// What the job's progress events say.
        struct Progress {
            var objectsDone = 0
            var objectsFound = 0
            var bytesTransferred: Int64 = 0
            var isListingComplete = false

            var event: DirectoryTransferEvent {
                .progress(
                    objectsDone: self.objectsDone,
                    objectsFound: self.objectsFound,
                    bytesTransferred: self.bytesTransferred,
                    isListingComplete: self.isListingComplete
                )
            }
        }

        var summary = DirectoryTransferSummary()
        var progress = Progress()
        var extraneous: [(name: String, target: String)] = []
        /// The large objects this run started, by name bytes (see ``discardAbandonedCheckpoints(manifest:state:)``).
        var startedLarge: [[UInt8]: String] = [:]
        /// The large objects this run finished, by name bytes: nothing of theirs is left to discard.
        var finishedLarge: Set<[UInt8]> = []
    }

    func run() async throws -> DirectoryTransferSummary {
        let manifest: DirectoryManifest?
        if let manifestPath = self.options.manifestPath, !self.options.isDryRun {
            do {
                manifest = try DirectoryManifest(path: manifestPath, identity: self.identity)
            } catch {
                throw ObjectStorageError(checkpoint: error)
            }
        } else {
            manifest = nil
        }
        var run = Run(job: self, merge: try self.merge(), planner: self.planner(), manifest: manifest)
        do {
            let scheduler = DurableScheduler(concurrency: self.options.concurrency, holdsSlotsUntilDurable: false)
            try await scheduler.run(&run)
        } catch {
            self.syncFileSystem()
            manifest?.close(removing: false)
            throw error
        }
        var state = run.state
        try await self.deleteExtraneous(state: &state)
        self.syncFileSystem()
        if let manifest, state.summary.failed == 0 {
            await self.discardAbandonedCheckpoints(manifest: manifest, state: state)
        }
        manifest?.close(removing: state.summary.failed == 0)
        return state.summary
    }

    // MARK: The parts

    /// The two sides, merged: the source and, when the job compares or deletes, the destination.
    private func merge() throws -> SortedMerge<DirectorySide, DirectorySide> {
        let comparesDestination = self.options.comparison != .always || self.options.deletesExtraneous
        let isFiltered: @Sendable (String) -> Bool = { [options] name in
            Self.isFiltered(name, by: options)
        }
        func local() throws -> DirectorySide {
            // Links are followed only where the directory is the source: a download's destination side is never
            // walked through a link, so nothing behind one is compared, overwritten or deleted.
            let tree = try LocalTree(
                root: self.directory,
                followsSymbolicLinks: self.direction == .upload && self.options.followsSymbolicLinks
            ) {
                self.direction == .download && $0.hasSuffix(Self.partialSuffix)
            }
            return .local(LocalSide(tree: tree, isFiltered: isFiltered))
        }
        func listing(_ client: ObjectStorageClient, _ bucket: String, _ prefix: String) -> DirectorySide {
            let pages = client.listObjects(bucket: bucket, prefix: prefix.isEmpty ? nil : prefix)
            return .listing(ListingSide(listing: pages, prefix: prefix, isFiltered: isFiltered))
        }
        /// The source's listing: the current objects, or their versions of ``DirectoryTransferOptions/sourceAsOf``.
        func sourceListing(_ client: ObjectStorageClient, _ bucket: String, _ prefix: String) -> DirectorySide {
            guard let date = self.options.sourceAsOf else { return listing(client, bucket, prefix) }
            let pages = client.listObjectVersions(bucket: bucket, prefix: prefix.isEmpty ? nil : prefix)
            return .listing(ListingSide(versions: pages, at: date, prefix: prefix, isFiltered: isFiltered))
        }
        switch self.direction {
        case .upload:
            return SortedMerge(
                source: try local(),
                destination: comparesDestination ? listing(self.client, self.bucket, self.prefix) : nil
            )
        case .download:
            return SortedMerge(
                source: sourceListing(self.client, self.bucket, self.prefix),
                destination: comparesDestination ? try local() : nil
            )
        case .copy:
            let source = self.copySource ?? CopySource(bucket: self.bucket, prefix: self.prefix)
            return SortedMerge(
                source: sourceListing(source.client ?? self.client, source.bucket, source.prefix),
                destination: comparesDestination ? listing(self.client, self.bucket, self.prefix) : nil
            )
        }
    }

    private func planner() -> DirectoryPlanner {
        DirectoryPlanner(
            direction: self.direction,
            options: self.options,
            prefix: self.prefix,
            directory: self.directory,
            vendor: self.client.configuration.vendor
        )
    }

    /// Whether `name` is left out by the job's patterns.
    static func isFiltered(_ name: String, by options: DirectoryTransferOptions) -> Bool {
        func matches(_ patterns: [String]) -> Bool {
            patterns.contains { fnmatch($0, name, 0) == 0 }
        }
        return matches(options.excludes) && !matches(options.includes)
    }
}

extension DirectoryJob {
    /// One run as the scheduler's work: each name of the merge, decided by the planner, becomes a transfer (or an
    /// event); each finished transfer is recorded in the manifest, which the scheduler makes durable beside the
    /// transfers, the downloaded files first.
    struct Run: DurableWork {
        let job: DirectoryJob
        var merge: SortedMerge<DirectorySide, DirectorySide>
        var planner: DirectoryPlanner
        let manifest: DirectoryManifest?
        var state = RunState()

        init(
            job: DirectoryJob,
            merge: SortedMerge<DirectorySide, DirectorySide>,
            planner: DirectoryPlanner,
            manifest: DirectoryManifest?
        ) {
            self.job = job
            self.merge = merge
            self.planner = planner
            self.manifest = manifest
        }

        mutating func next() async throws -> ScheduledItem<Outcome>? {
            while let step = try await self.merge.next() {
                try Task.checkCancellation()
                switch step {
                case .skipped(let name, _, let reason, let onSource):
                    self.planner.leftOut(name)
                    if onSource {
                        self.state.progress.objectsFound += 1
                        self.job.report(.skipped(name: name, reason: reason), &self.state)
                    }
                case .pair(let source, let destination):
                    self.state.progress.objectsFound += 1
                    let earlier = source.flatMap { self.manifest?.finishedRecord(for: $0.name) }
                    let decision = self.planner.decide(source: source, destination: destination, earlier: earlier)
                    if let item = try self.job.schedule(
                        decision,
                        source: source,
                        destination: destination,
                        manifest: self.manifest,
                        &self.state
                    ) {
                        return item
                    }
                }
            }
            self.state.progress.isListingComplete = true
            self.job.events?(self.state.progress.event)
            return nil
        }

        mutating func record(_ landed: Outcome) throws {
            try self.job.record(landed, manifest: self.manifest, &self.state)
        }

        var isFlushDue: Bool { self.manifest?.isSyncDue ?? false }

        mutating func beginFlush() -> @Sendable () throws -> Void {
            guard let pending = self.manifest?.beginSync() else { return {} }
            let job = self.job
            return {
                // The files the records name become durable first.
                job.syncFileSystem()
                do throws(CheckpointError) {
                    try pending.run()
                } catch {
                    throw ObjectStorageError(checkpoint: error)
                }
            }
        }

        mutating func flushRemaining() throws {
            guard let manifest = self.manifest else { return }
            self.job.syncFileSystem()
            do throws(CheckpointError) {
                try manifest.sync()
            } catch {
                throw ObjectStorageError(checkpoint: error)
            }
        }
    }
}
