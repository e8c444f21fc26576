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
    }

    /// A finished transfer, handed from its task to the loop that records it.
    struct Outcome: Sendable {
        var name: String
        var key: String
        var path: String
        var size: Int64
        var stamp: String
        var weight: Int
        var error: (any Error)?
        /// The digests matched (``DirectoryTransferOptions/Comparison/checksum``): nothing was transferred.
        var isUnchanged = false
    }

    struct RemoteObject: Sendable {
        var name: String
        var key: String
        var size: Int64
        var etag: String?
        var lastModified: Date?
    }

    let client: ObjectStorageClient
    let direction: Direction
    let bucket: String
    let prefix: String
    let directory: String
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
        return "\(self.direction)\n\(self.directory)\n\(endpoint)\n\(self.bucket)\n\(self.prefix)"
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
        journal?.close(removing: state.summary.failed == 0)
        return state.summary
    }

    /// What the loop keeps between objects.
    struct RunState {
        var summary = DirectoryTransferSummary()
        var progress = DirectoryTransferProgress()
        var extraneous: [(name: String, target: String)] = []
        /// Local names the walk skipped: never deleted remotely as if they were missing.
        var protectedNames: Set<[UInt8]> = []
        var protectedDirectories: [[UInt8]] = []
    }

    // MARK: The merge

    private func transfer(journal: DirectoryJobJournal?, state: inout RunState) async throws {
        let walksLocally =
            self.direction == .upload || self.options.comparison != .always
            || self.options.deletesExtraneous
        let listsRemotely =
            self.direction == .download || self.options.comparison != .always
            || self.options.deletesExtraneous
        var tree =
            walksLocally
            ? try LocalTree(root: self.directory, followsSymbolicLinks: self.options.followsSymbolicLinks) {
                self.direction == .download && $0.hasSuffix(Self.partialSuffix)
            } : nil
        var pages =
            listsRemotely
            ? self.client.listObjectsV2(bucket: self.bucket, prefix: self.prefix.isEmpty ? nil : self.prefix)
                .makeAsyncIterator() : nil
        var page: [RemoteObject] = []

        func nextLocal(_ state: inout RunState) -> LocalTree.File? {
            while let item = tree?.next() {
                switch item {
                case .file(let file):
                    if self.isFiltered(file.name) { continue }
                    return file
                case .skipped(let name, let path, let reason):
                    if self.isFiltered(name) { continue }
                    if name.hasSuffix("/") {
                        state.protectedDirectories.append(Array(name.utf8))
                    } else {
                        state.protectedNames.insert(Array(name.utf8))
                    }
                    if self.direction == .upload {
                        self.report(.skipped, name: name, key: nil, path: path, size: 0, reason: reason, &state)
                    }
                }
            }
            return nil
        }
        func nextRemote(_ state: inout RunState) async throws -> RemoteObject? {
            while true {
                if !page.isEmpty { return page.removeFirst() }
                guard let listed = try await pages?.next() else { return nil }
                page = listed.contents.compactMap { object in
                    guard object.key.utf8.starts(with: self.prefix.utf8), !object.key.hasSuffix("/") else { return nil }
                    let name = String(decoding: object.key.utf8.dropFirst(self.prefix.utf8.count), as: UTF8.self)
                    guard !self.isFiltered(name) else { return nil }
                    return RemoteObject(
                        name: name,
                        key: object.key,
                        size: object.size,
                        etag: object.etag,
                        lastModified: object.lastModified
                    )
                }
            }
        }

        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var inFlight = 0
            func reap(_ state: inout RunState) async throws {
                guard let outcome = try await group.next() else { return }
                inFlight -= outcome.weight
                try self.record(outcome, journal: journal, &state)
            }
            var local = nextLocal(&state)
            var remote = try await nextRemote(&state)
            while local != nil || remote != nil {
                try Task.checkCancellation()
                let order: Int
                switch (local, remote) {
                case (let file?, let object?):
                    order =
                        file.name.utf8.elementsEqual(object.name.utf8)
                        ? 0 : (file.name.utf8.lexicographicallyPrecedes(object.name.utf8) ? -1 : 1)
                case (_?, nil): order = -1
                default: order = 1
                }
                let file = order <= 0 ? local : nil
                let object = order >= 0 ? remote : nil
                if order <= 0 { local = nextLocal(&state) }
                if order >= 0 { remote = try await nextRemote(&state) }
                state.progress.objectsFound += 1
                guard let planned = try self.plan(file: file, object: object, journal: journal, &state) else {
                    continue
                }
                let weight = planned.weight
                while inFlight > 0 && inFlight + weight > self.options.concurrency {
                    try await reap(&state)
                }
                inFlight += weight
                group.addTask { await planned.run() }
            }
            state.progress.isListingComplete = true
            while inFlight > 0 {
                try await reap(&state)
            }
        }
    }

    /// The file and MD5 to compare before transferring, with ``DirectoryTransferOptions/Comparison/checksum``.
    private func digestToCompare(file: LocalTree.File, object: RemoteObject) -> (file: LocalTree.File, md5: String)? {
        guard self.options.comparison == .checksum, file.size == object.size, let md5 = Self.plainMD5(object.etag)
        else { return nil }
        return (file, md5)
    }

    /// A transfer decided on, ready to run in a task of its own.
    struct PlannedTransfer: Sendable {
        var weight: Int
        var run: @Sendable () async -> Outcome
    }

    /// Decides what to do with a name: nothing (returns `nil`, having reported it), or a transfer.
    private func plan(
        file: LocalTree.File?,
        object: RemoteObject?,
        journal: DirectoryJobJournal?,
        _ state: inout RunState
    ) throws -> PlannedTransfer? {
        switch self.direction {
        case .upload:
            guard let file else {
                if let object, self.options.deletesExtraneous, !self.isProtected(object.name, state) {
                    state.extraneous.append((object.name, object.key))
                }
                return nil
            }
            if let object, !self.needsTransfer(file: file, object: object) {
                return self.finishUnchanged(file.name, size: file.size, &state)
            }
            let stamp = String(file.modificationNanoseconds)
            if let record = journal?.finishedRecord(for: file.name), record.size == file.size, record.stamp == stamp {
                return self.finishEarlier(file.name, size: file.size, &state)
            }
            let key = self.prefix + file.name
            do throws(ObjectStorageError) {
                try ObjectNameRules.validateObjectKey(key, for: self.client.configuration.provider)
            } catch {
                self.report(
                    .skipped,
                    name: file.name,
                    key: nil,
                    path: file.path,
                    size: file.size,
                    reason: error.message,
                    &state
                )
                return nil
            }
            return self.planned(
                name: file.name,
                key: key,
                path: file.path,
                size: file.size,
                stamp: stamp,
                source: nil,
                unlessMD5: object.flatMap { self.digestToCompare(file: file, object: $0) },
                journal: journal,
                &state
            )
        case .download:
            guard let object else {
                if let file, self.options.deletesExtraneous { state.extraneous.append((file.name, file.path)) }
                return nil
            }
            if let file, !self.needsTransfer(file: file, object: object) {
                return self.finishUnchanged(object.name, size: object.size, &state)
            }
            let stamp = object.etag ?? ""
            if let record = journal?.finishedRecord(for: object.name), record.size == object.size,
                !stamp.isEmpty, record.stamp == stamp
            {
                return self.finishEarlier(object.name, size: object.size, &state)
            }
            let path: String
            do throws(ObjectStorageError) {
                guard !object.name.hasSuffix(Self.partialSuffix) else {
                    throw ObjectStorageError(
                        code: .unsafePath,
                        message:
                            "key \(ObjectNameRules.display(object.key)) ends in '\(Self.partialSuffix)', the suffix of the job's temporary files"
                    )
                }
                path = try LocalPaths.path(forKey: object.key, removingPrefix: self.prefix, under: self.directory)
            } catch {
                self.report(
                    .skipped,
                    name: object.name,
                    key: object.key,
                    path: nil,
                    size: object.size,
                    reason: error.message,
                    &state
                )
                return nil
            }
            return self.planned(
                name: object.name,
                key: object.key,
                path: path,
                size: object.size,
                stamp: stamp,
                source: object,
                unlessMD5: file.flatMap { self.digestToCompare(file: $0, object: object) },
                journal: journal,
                &state
            )
        }
    }

    private func planned(
        name: String,
        key: String,
        path: String,
        size: Int64,
        stamp: String,
        source: RemoteObject?,
        unlessMD5: (file: LocalTree.File, md5: String)?,
        journal: DirectoryJobJournal?,
        _ state: inout RunState
    ) -> PlannedTransfer? {
        if self.options.isDryRun {
            if let (file, md5) = unlessMD5, (try? Self.file(file.path, size: file.size, hasMD5: md5)) == true {
                return self.finishUnchanged(name, size: size, &state)
            }
            self.report(
                self.direction == .upload ? .uploaded : .downloaded,
                name: name,
                key: key,
                path: path,
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
        let job = self
        let options = transfer
        return PlannedTransfer(weight: weight) {
            var outcome = Outcome(name: name, key: key, path: path, size: size, stamp: stamp, weight: weight)
            do {
                if let (file, md5) = unlessMD5, try Self.file(file.path, size: file.size, hasMD5: md5) {
                    outcome.isUnchanged = true
                    return outcome
                }
                let moved = try await job.move(
                    key: key,
                    path: path,
                    etag: source?.etag,
                    lastModified: source?.lastModified,
                    isLarge: isLarge,
                    options: options
                )
                outcome.stamp = moved ?? stamp
            } catch {
                outcome.error = error
            }
            return outcome
        }
    }
}
