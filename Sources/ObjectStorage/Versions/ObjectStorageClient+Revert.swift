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

    /// Creates options.
    ///
    /// - Parameters:
    ///   - manifestPath: Where the revert records its progress.
    ///   - isDryRun: Whether nothing is changed.
    public init(manifestPath: String? = nil, isDryRun: Bool = false) {
        self.manifestPath = manifestPath
        self.isDryRun = isDryRun
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
    ///   - events: Called with each key's outcome, in key order.
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
        var revert = KeyRevert(client: self, bucket: bucket, date: date, options: options, manifest: manifest)
        let directory = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        var versions: [ListObjectVersionsResponse.Version] = []
        for try await page in self.listObjectVersions(bucket: bucket, prefix: prefix.isEmpty ? nil : prefix) {
            for version in page.versions where version.key == prefix || version.key.hasPrefix(directory) {
                if let last = versions.last, last.key != version.key {
                    events(try await revert.run(versions, logger: logger))
                    versions.removeAll(keepingCapacity: true)
                }
                versions.append(version)
            }
        }
        if !versions.isEmpty { events(try await revert.run(versions, logger: logger)) }
        manifest?.close(removing: true)
        return revert.summary
    }
}

/// One revert's work, key by key.
private struct KeyRevert {
    let client: ObjectStorageClient
    let bucket: String
    let date: Date
    let options: RevertOptions
    let manifest: DirectoryManifest?
    var summary = RevertSummary()
    /// The version each key had when an earlier run started changing it.
    let startedFrom: [String: String]

    init(client: ObjectStorageClient, bucket: String, date: Date, options: RevertOptions, manifest: DirectoryManifest?)
    {
        self.client = client
        self.bucket = bucket
        self.date = date
        self.options = options
        self.manifest = manifest
        var started: [String: String] = [:]
        for record in manifest.map({ Array($0.started.values) }) ?? [] {
            // "FROM-VERSION KEY": version ids have no space; the key is everything after the first one.
            guard let space = record.firstIndex(of: " ") else { continue }
            started[String(record[record.index(after: space)...])] = String(record[..<space])
        }
        self.startedFrom = started
    }

    /// Reverts one key, given all its versions newest first.
    mutating func run(_ versions: [ListObjectVersionsResponse.Version], logger: Logger?) async throws -> RevertEvent {
        guard let current = versions.first else {
            throw ObjectStorageError.invalidResponse("the version listing named a key without versions")
        }
        let key = current.key
        if self.manifest?.finishedRecord(for: key) != nil
            || self.startedFrom[key].map({ $0 != current.versionID }) == true
        {
            // Finished by an earlier run, or changed by it after it recorded the start.
            try self.finish(key, stamp: "earlier")
            self.summary.unchanged += 1
            return .unchanged(key: key)
        }
        // The version current at `date`: the newest written at or before it.
        let then = versions.first { ($0.lastModified ?? .distantFuture) <= self.date }
        let existedThen = then.map { !$0.isDeleteMarker } ?? false
        let existsNow = current.isLatest && !current.isDeleteMarker
        // The same version, or the same bytes (a copy of it that an earlier run made): nothing to do.
        if let then, existedThen, existsNow,
            then.versionID == current.versionID
                || (then.etag != nil && then.etag == current.etag && then.size == current.size)
        {
            try self.finish(key, stamp: "unchanged")
            self.summary.unchanged += 1
            return .unchanged(key: key)
        }
        if !existedThen && !existsNow {
            try self.finish(key, stamp: "unchanged")
            self.summary.unchanged += 1
            return .unchanged(key: key)
        }
        if !self.options.isDryRun { try self.manifest?.appendStart("\(current.versionID) \(key)") }
        if let then, existedThen {
            if !self.options.isDryRun {
                try await self.client.copyObject(
                    bucket: self.bucket,
                    key: key,
                    sourceBucket: self.bucket,
                    sourceKey: key,
                    sourceVersionID: then.versionID,
                    logger: logger
                )
            }
            try self.finish(key, stamp: "restored \(then.versionID)")
            self.summary.restored += 1
            return .restored(key: key, versionID: then.versionID)
        }
        if !self.options.isDryRun {
            try await self.client.deleteObject(bucket: self.bucket, key: key, logger: logger)
        }
        try self.finish(key, stamp: "deleted")
        self.summary.deleted += 1
        return .deleted(key: key)
    }

    private func finish(_ key: String, stamp: String) throws {
        guard let manifest, !self.options.isDryRun else { return }
        do {
            if try manifest.append(DirectoryManifest.Record(name: key, size: 0, stamp: stamp)) {
                try manifest.sync()
            }
        } catch {
            throw ObjectStorageError(checkpoint: error)
        }
    }
}
