//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning
import Synchronization

/// What one application of the buckets' lifecycle rules did.
public struct LifecycleReport: Sendable, Hashable {
    /// The current objects that expired, as `bucket/key`: deleted, or hidden behind a delete marker when the
    /// bucket is versioned.
    public internal(set) var expiredObjects: [String] = []
    /// The versions and delete markers removed for good, as `bucket/key?versionId=ID`.
    public internal(set) var removedVersions: [String] = []
    /// The objects and versions moved to another storage class, as `bucket/key CLASS`.
    public internal(set) var transitions: [String] = []
    /// The multipart uploads aborted, as `bucket/key?uploadId=ID`.
    public internal(set) var abortedUploads: [String] = []

    /// Whether the rules changed nothing.
    public var isEmpty: Bool {
        self.expiredObjects.isEmpty && self.removedVersions.isEmpty && self.transitions.isEmpty
            && self.abortedUploads.isEmpty
    }
}

/// When lifecycle actions fall due: a start plus a number of days of `dayLength` seconds; with the services'
/// own day (86,400 s), at the first midnight UTC after that.
struct LifecycleClock {
    var now: Int64
    var dayLength: Int64

    func isDue(from start: Int64, days: Int) -> Bool {
        let due = start.addingSaturating(Int64(days).multipliedSaturating(by: self.dayLength))
        guard self.dayLength == 86_400 else { return self.now >= due }
        let (days, remainder) = due.quotientAndRemainder(dividingBy: 86_400)
        return self.now >= (remainder > 0 ? (days + 1).multipliedSaturating(by: 86_400) : due)
    }

    /// Whether `time` is due for something created at `start`: its days counted from `start`; a date on S3 and OBS
    /// once it has passed, on OSS (`CreatedBeforeDate`) for what was created before it.
    func isDue(_ time: LifecycleTime, from start: Int64, dialect: StorageVendor) -> Bool {
        switch time {
        case .days(let days): return self.isDue(from: start, days: days)
        case .date(let date):
            let midnight = date.midnight.secondsSince1970
            return dialect.kind == .oss ? start < midnight : self.now >= midnight
        }
    }
}

extension ObjectStore {
    /// Applies every bucket's enabled lifecycle rules as of `clock.now`, as a service's daily run does.
    func applyLifecycle(_ clock: LifecycleClock) -> LifecycleReport {
        var report = LifecycleReport()
        var released: [String] = []
        var aborted: [StoredUpload] = []
        state.withLock { buckets in
            for name in buckets.keys.sorted() {
                guard let document = buckets[name]?.documents[RequestHandler.lifecycleSubresource],
                    let root = RequestDocument.parse(document.bytes),
                    let configuration = try? LifecycleConfiguration(document: root)
                else { continue }
                var run = LifecycleRun(bucket: name, dialect: document.dialect, clock: clock)
                for rule in configuration.rules where rule.isEnabled {
                    run.apply(rule, store: self, buckets: &buckets)
                }
                report.expiredObjects += run.report.expiredObjects
                report.removedVersions += run.report.removedVersions
                report.transitions += run.report.transitions
                report.abortedUploads += run.report.abortedUploads
                released += run.released
                aborted += run.aborted
            }
        }
        for path in released { FileIO.remove(path) }
        for upload in aborted { removeUploadFiles(upload) }
        return report
    }
}

/// One bucket's application of its rules.
private struct LifecycleRun {
    let bucket: String
    let dialect: StorageVendor
    let clock: LifecycleClock
    var report = LifecycleReport()
    var released: [String] = []
    var aborted: [StoredUpload] = []

    init(bucket: String, dialect: StorageVendor, clock: LifecycleClock) {
        self.bucket = bucket
        self.dialect = dialect
        self.clock = clock
    }

    mutating func apply(_ rule: LifecycleRule, store: ObjectStore, buckets: inout [String: StoredBucket]) {
        guard let record = buckets[self.bucket] else { return }
        let keys = record.allVersionKeys().filter { $0.hasPrefix(rule.prefix) }
        for key in keys {
            self.applyToCurrent(rule, key: ObjectKey(key), store: store, buckets: &buckets)
            self.applyToNoncurrent(rule, key: ObjectKey(key), store: store, buckets: &buckets)
        }
        if let abort = rule.abortIncompleteUploads {
            for upload in record.uploads.values.sorted(by: { $0.id < $1.id })
            where upload.key.hasPrefix(rule.prefix)
                && self.clock.isDue(abort, from: upload.initiated, dialect: self.dialect)
            {
                buckets[self.bucket]?.uploads[upload.id] = nil
                self.aborted.append(upload)
                self.report.abortedUploads.append("\(self.bucket)/\(upload.key)?uploadId=\(upload.id)")
            }
        }
    }

    /// Days before dates, each in its order.
    private static func order(_ time: LifecycleTime) -> Int64 {
        switch time {
        case .days(let days): Int64(days)
        case .date(let date): Int64(Int32.max) + date.midnight.secondsSince1970
        }
    }

    private static func matches(_ rule: LifecycleRule, tags: [StoredTag]?) -> Bool {
        rule.tags.allSatisfy { wanted in tags?.contains { $0.key == wanted.key && $0.value == wanted.value } == true }
    }

    private mutating func applyToCurrent(
        _ rule: LifecycleRule,
        key: ObjectKey,
        store: ObjectStore,
        buckets: inout [String: StoredBucket]
    ) {
        guard let record = buckets[self.bucket] else { return }
        if let current = record.objects[key], Self.matches(rule, tags: current.metadata.tags) {
            let created = current.metadata.lastModified
            if let expiration = rule.expiration, self.clock.isDue(expiration, from: created, dialect: self.dialect) {
                let now = (self.clock.now, Int64(0))
                if let (_, blobs) = try? store.changeKey(
                    key,
                    of: self.bucket,
                    in: &buckets,
                    { record in
                        record.deleteCurrent(key, newVersionID: ObjectStore.newVersionID(), now: now)
                    }
                ) {
                    self.released += blobs.flatMap(\.paths)
                    self.report.expiredObjects.append("\(self.bucket)/\(key.text)")
                }
                return
            }
            // Of the transitions due, the one furthest along (the coldest class the rule reaches by now).
            let due = rule.transitions.filter { self.clock.isDue($0.time, from: created, dialect: self.dialect) }
                .max { Self.order($0.time) < Self.order($1.time) }
            if let due, current.metadata.storageClass != due.storageClass {
                do {
                    try store.changeKey(key, of: self.bucket, in: &buckets) { record in
                        record.objects[key]?.metadata.storageClass = due.storageClass
                    }
                    self.report.transitions.append("\(self.bucket)/\(key.text) \(due.storageClass)")
                } catch {
                    // Left as it was; the next run tries again.
                }
            }
        } else if rule.removesExpiredDeleteMarkers, record.objects[key] == nil,
            let history = record.history[key], history.count == 1, history[0].isDeleteMarker
        {
            let marker = history[0].versionID
            if (try? store.changeKey(key, of: self.bucket, in: &buckets, { $0.deleteVersion(key, versionID: marker) }))
                != nil
            {
                self.report.removedVersions.append("\(self.bucket)/\(key.text)?versionId=\(marker)")
            }
        }
    }

    /// Noncurrent versions: each became noncurrent when the version above it was written.
    private mutating func applyToNoncurrent(
        _ rule: LifecycleRule,
        key: ObjectKey,
        store: ObjectStore,
        buckets: inout [String: StoredBucket]
    ) {
        guard let record = buckets[self.bucket], let history = record.history[key],
            rule.noncurrentVersionExpirationDays != nil || !rule.noncurrentVersionTransitions.isEmpty
        else { return }
        var expired: [String] = []
        var moved: [(Int, String)] = []
        for (index, version) in history.enumerated() {
            let successor = index == 0 ? record.objects[key]?.metadata.lastModified : history[index - 1].lastModified
            guard let since = successor, Self.matches(rule, tags: version.object?.metadata.tags) else { continue }
            if let days = rule.noncurrentVersionExpirationDays, self.clock.isDue(from: since, days: days) {
                expired.append(version.versionID)
            } else if let object = version.object,
                let due = rule.noncurrentVersionTransitions.last(where: {
                    if case .days(let days) = $0.time { self.clock.isDue(from: since, days: days) } else { false }
                }), object.metadata.storageClass != due.storageClass
            {
                moved.append((index, due.storageClass))
            }
        }
        if !moved.isEmpty {
            do {
                try store.changeKey(key, of: self.bucket, in: &buckets) { record in
                    for (index, storageClass) in moved {
                        record.history[key]?[index].object?.metadata.storageClass = storageClass
                    }
                }
                for (index, storageClass) in moved {
                    self.report.transitions.append(
                        "\(self.bucket)/\(key.text)?versionId=\(history[index].versionID) \(storageClass)"
                    )
                }
            } catch {
                // The key's files could not be written: it stays as it was, and the next run tries again.
            }
        }
        for versionID in expired {
            if let (_, blobs) = try? store.changeKey(
                key,
                of: self.bucket,
                in: &buckets,
                {
                    $0.deleteVersion(key, versionID: versionID)
                }
            ) {
                self.released += blobs.flatMap(\.paths)
                self.report.removedVersions.append("\(self.bucket)/\(key.text)?versionId=\(versionID)")
            }
        }
    }
}
