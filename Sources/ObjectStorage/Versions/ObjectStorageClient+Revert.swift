//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import ObjectStorageCheckpoint
import ObjectStorageSigning

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What a revert did, or with ``RevertOptions/isDryRun`` would do, to one key.
public enum RevertEvent: Sendable, Hashable {
    /// The key's version of that time was copied over it, becoming its current version.
    case restored(key: String, versionID: String)
    /// The key did not exist at that time (or was a delete marker): it was deleted (a delete marker now hides it).
    case deleted(key: String)
    /// The key already was what it was at that time.
    case unchanged(key: String)
}

/// The options of ``ObjectStorageClient/revert(bucket:prefix:to:options:logger:events:)``.
public struct RevertOptions: Sendable {
    /// Where the revert records each key it finished (crash-safe, locked, like a directory job's manifest), so that
    /// a revert killed at any instant and run again with the same arguments finishes exactly once: no key is
    /// restored twice. `nil`: no record (a rerun compares versions again, and may restore a key a second time).
    public var manifestPath: String?
    /// Reports what would be done and changes nothing.
    public var isDryRun = false
    /// How many keys change at once, `1...128` (16 by default).
    public var concurrency = 16

    /// Creates options.
    ///
    /// - Parameters:
    ///   - manifestPath: Where the revert records its progress.
    ///   - isDryRun: Whether nothing is changed.
    ///   - concurrency: How many keys change at once.
    public init(manifestPath: String? = nil, isDryRun: Bool = false, concurrency: Int = 16) {
        self.manifestPath = manifestPath
        self.isDryRun = isDryRun
        self.concurrency = concurrency
    }
}

/// The counts of a revert.
public struct RevertSummary: Sendable, Hashable {
    /// Keys restored to an earlier version.
    public var restored = 0
    /// Keys deleted because they did not exist at that time.
    public var deleted = 0
    /// Keys that already were what they were at that time (or that an earlier, interrupted run finished).
    public var unchanged = 0
}

extension ObjectStorageClient {
    /// Makes every key under `prefix` what it was at `date`: the version current then is copied over the key, and a
    /// key that did not exist then (or was a delete marker) is deleted. The bucket must be versioned.
    ///
    /// A key is changed only when it differs from its version of that time, and never deleted unless it had no
    /// version then: a key whose version of that time cannot be copied fails the revert before it is touched.
    /// Keys change ``RevertOptions/concurrency`` at a time, as the listing finds them (an object of 5 GiB or more is
    /// copied in parts); the first failure stops the revert, after the changes in flight end.
    /// With ``RevertOptions/manifestPath``, a key is recorded as started (with the version it had) before it is
    /// changed and as finished after: a rerun after a crash skips the finished keys, and treats a started key whose
    /// current version has changed since as done, so none is restored twice.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// let yesterday = Date(timeIntervalSinceNow: -86_400)
    /// let summary = try await client.revert(bucket: "site", prefix: "assets/", to: yesterday) { event in
    ///     print(event)
    /// }
    /// print(summary.restored, summary.deleted, summary.unchanged)
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket (versioned).
    ///   - prefix: The keys to revert: this key and every key under `prefix/` (the whole bucket when empty).
    ///   - date: The instant to go back to; not in the future.
    ///   - options: The manifest and dry run.
    ///   - logger: The logger (the client's when `nil`).
    ///   - events: Called with each key's outcome as it is known (in key order when ``RevertOptions/concurrency``
    ///     is 1).
    /// - Returns: The counts.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for a date in the future or a bucket that was never
    ///   versioned (before anything changes); ``ServiceError``; ``ObjectStorageError`` for a manifest that cannot be
    ///   used.
    @discardableResult
    public func revert(
        bucket: String,
        prefix: String,
        to date: Date,
        options: RevertOptions = RevertOptions(),
        logger: Logger? = nil,
        events: (RevertEvent) -> Void = { _ in }
    ) async throws -> RevertSummary {
        guard date <= Date() else {
            throw ObjectStorageError.invalidArgument(
                "cannot revert to \(date.formatted(.iso8601)), which is in the future"
            )
        }
        guard (1...128).contains(options.concurrency) else {
            throw ObjectStorageError.invalidArgument(
                "the revert's concurrency must be between 1 and 128, not \(options.concurrency)"
            )
        }
        guard try await self.getBucketVersioning(bucket: bucket, logger: logger) != nil else {
            throw ObjectStorageError.invalidArgument(
                "bucket '\(bucket)' was never versioned, so it keeps no earlier versions to revert to"
            )
        }
        let manifest: DirectoryManifest?
        if let path = options.manifestPath, !options.isDryRun {
            let identity =
                "revert \(self.configuration.vendor) \(self.configuration.endpoint) \(bucket) "
                + "\(prefix) \(date.timeIntervalSince1970)"
            do {
                manifest = try DirectoryManifest(path: path, identity: identity)
            } catch {
                throw ObjectStorageError(checkpoint: error)
            }
        } else {
            manifest = nil
        }
        var revert = KeyRevert(date: date, isDryRun: options.isDryRun, manifest: manifest)
        let directory = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        var keys = KeyVersionsIterator(self.listObjectVersions(bucket: bucket, prefix: prefix.isEmpty ? nil : prefix)) {
            $0 == prefix || $0.hasPrefix(directory)
        }
        let logger = logger ?? self.logger
        try await withThrowingTaskGroup(of: RevertEvent.self) { group in
            var inFlight = 0
            while let versions = try await keys.next() {
                guard let change = try revert.plan(versions) else { continue }
                switch change {
                case .done(let event):
                    events(event)
                    continue
                case .change(let event, let size):
                    if inFlight == options.concurrency, let finished = try await group.next() {
                        events(try revert.finish(finished))
                        inFlight -= 1
                    }
                    if options.isDryRun {
                        events(try revert.finish(event))
                        continue
                    }
                    group.addTask { [self] in
                        try await self.apply(event, bucket: bucket, size: size, logger: logger)
                        return event
                    }
                    inFlight += 1
                }
            }
            while let finished = try await group.next() { events(try revert.finish(finished)) }
        }
        manifest?.close(removing: true)
        return revert.summary
    }
}

extension ObjectStorageClient {
    /// Makes one key what `event` says: its version of that time copied over it, or a delete marker.
    fileprivate func apply(_ event: RevertEvent, bucket: String, size: Int64, logger: Logger) async throws {
        switch event {
        case .restored(let key, let versionID) where size < 5 << 30:
            try await self.copyObject(
                bucket: bucket,
                key: key,
                sourceBucket: bucket,
                sourceKey: key,
                sourceVersionID: versionID,
                logger: logger
            )
        case .restored(let key, let versionID):
            // Past CopyObject's 5 GiB limit: copied in parts.
            _ = try await self.resumableCopy(
                bucket: bucket,
                key: key,
                sourceBucket: bucket,
                sourceKey: key,
                sourceVersionID: versionID,
                logger: logger
            )
        case .deleted(let key):
            try await self.deleteObject(bucket: bucket, key: key, logger: logger)
        case .unchanged:
            break
        }
    }
}

/// What a revert decides for one key.
private enum KeyRevertPlan {
    /// Nothing to change; the outcome is recorded already.
    case done(RevertEvent)
    /// A change to apply (`size`: the bytes of the version to restore), recorded as started already.
    case change(RevertEvent, size: Int64)
}

/// One revert's decisions and records, key by key (the changes themselves run in the revert's task group).
private struct KeyRevert {
    let date: Date
    let isDryRun: Bool
    let manifest: DirectoryManifest?
    var summary = RevertSummary()
    /// The version each key had when an earlier run started changing it.
    let startedFrom: [String: String]

    init(date: Date, isDryRun: Bool, manifest: DirectoryManifest?) {
        self.date = date
        self.isDryRun = isDryRun
        self.manifest = manifest
        var started: [String: String] = [:]
        for record in manifest.map({ Array($0.started.values) }) ?? [] {
            // "FROM-VERSION KEY": version ids have no space; the key is everything after the first one.
            guard let space = record.firstIndex(of: " ") else { continue }
            started[String(record[record.index(after: space)...])] = String(record[..<space])
        }
        self.startedFrom = started
    }

    /// Decides for one key, given all its versions newest first: a key already as it was at that time is recorded
    /// as finished; one to change is recorded as started (with the version it has now).
    mutating func plan(_ versions: [ListObjectVersionsResponse.Version]) throws -> KeyRevertPlan? {
        guard let current = versions.first else { return nil }
        let key = current.key
        if self.manifest?.finishedRecord(for: key) != nil
            || self.startedFrom[key].map({ $0 != current.versionID }) == true
        {
            // Finished by an earlier run, or changed by it after it recorded the start.
            return .done(try self.finish(.unchanged(key: key), stamp: "earlier"))
        }
        let then = versions.current(at: self.date)
        let existsNow = current.isLatest && !current.isDeleteMarker
        // The same version, or the same bytes (a copy of it that an earlier run made): nothing to do.
        if let then, existsNow,
            then.versionID == current.versionID
                || (then.etag != nil && then.etag == current.etag && then.size == current.size)
        {
            return .done(try self.finish(.unchanged(key: key)))
        }
        if then == nil && !existsNow { return .done(try self.finish(.unchanged(key: key))) }
        if !self.isDryRun {
            do {
                try self.manifest?.appendStart("\(current.versionID) \(key)")
            } catch {
                throw ObjectStorageError(checkpoint: error)
            }
        }
        guard let then else { return .change(.deleted(key: key), size: 0) }
        return .change(.restored(key: key, versionID: then.versionID), size: then.size)
    }

    /// Records `event` as the key's outcome, counts it and returns it.
    mutating func finish(_ event: RevertEvent, stamp: String? = nil) throws -> RevertEvent {
        let key: String
        let outcome: String
        switch event {
        case .restored(let name, let versionID):
            (key, outcome) = (name, "restored \(versionID)")
            self.summary.restored += 1
        case .deleted(let name):
            (key, outcome) = (name, "deleted")
            self.summary.deleted += 1
        case .unchanged(let name):
            (key, outcome) = (name, "unchanged")
            self.summary.unchanged += 1
        }
        guard let manifest, !self.isDryRun else { return event }
        do {
            if try manifest.append(DirectoryManifest.Record(name: key, size: 0, stamp: stamp ?? outcome)) {
                try manifest.sync()
            }
        } catch {
            throw ObjectStorageError(checkpoint: error)
        }
        return event
    }
}
