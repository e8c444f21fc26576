//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A bucket's versioning state, as the services name it: never enabled, enabled, or suspended.
enum BucketVersioning: Int, Codable, Sendable {
    case off = 0
    case enabled = 1
    case suspended = 2

    /// The `<Status>` of a `VersioningConfiguration`; `nil` for a bucket that was never versioned.
    var status: String? {
        switch self {
        case .off: nil
        case .enabled: "Enabled"
        case .suspended: "Suspended"
        }
    }
}

/// A version of a key that is not its current object: an older object, or a delete marker.
struct StoredVersion: Sendable {
    var versionID: String
    var lastModified: Int64
    var lastModifiedMilliseconds: Int64
    /// The object; `nil` for a delete marker.
    var object: StoredObject?

    init(_ object: StoredObject) {
        self.versionID = object.metadata.versionID ?? BucketVersioning.nullVersionID
        self.lastModified = object.metadata.lastModified
        self.lastModifiedMilliseconds = object.metadata.lastModifiedMilliseconds
        self.object = object
    }

    init(deleteMarker versionID: String, lastModified: Int64, lastModifiedMilliseconds: Int64) {
        self.versionID = versionID
        self.lastModified = lastModified
        self.lastModifiedMilliseconds = lastModifiedMilliseconds
        self.object = nil
    }

    var isDeleteMarker: Bool { object == nil }
}

extension BucketVersioning {
    /// The id of the version an unversioned or suspended bucket writes (one per key, replaced by each write).
    static let nullVersionID = "null"
}

/// What a version id names.
enum VersionLookup {
    case object(StoredObject)
    case deleteMarker(StoredVersion)
    case none
}

/// The outcome of a DeleteObject: the version it created or removed, and whether that is a delete marker.
struct DeleteOutcome: Sendable {
    var versionID: String?
    var isDeleteMarker = false
}

/// How a bucket's versions change. The current object of a key is `objects[key]`; its older versions and delete
/// markers are `history[key]`, newest first. When a key's newest version is a delete marker, `objects[key]` is
/// `nil` and the marker is `history[key][0]`.
extension StoredBucket {
    /// Whether the bucket holds nothing at all: no object, no older version, no delete marker.
    var holdsNothing: Bool { objects.isEmpty && history.isEmpty }

    /// Makes `object` the current version of its key, as the bucket's versioning says (a new version id when
    /// enabled, the null version otherwise), and returns the version id and the blobs no version keeps any more.
    mutating func install(_ object: StoredObject, newVersionID: String) -> (versionID: String?, released: [Blob]) {
        var object = object
        let key = ObjectKey(object.metadata.key)
        let previous = objects[key]
        var released: [Blob] = []
        switch versioning {
        case .off:
            object.metadata.versionID = nil
            if let previous { released.append(previous.blob) }
        case .enabled:
            object.metadata.versionID = newVersionID
            if let previous { history[key, default: []].insert(StoredVersion(previous), at: 0) }
        case .suspended:
            object.metadata.versionID = BucketVersioning.nullVersionID
            released += releaseNullVersion(of: key)
            if let versioned = objects[key] { history[key, default: []].insert(StoredVersion(versioned), at: 0) }
        }
        objects[key] = object
        if previous == nil { sortedKeys = nil }
        return (object.metadata.versionID, released)
    }

    /// DeleteObject without a version id: removes the current object (unversioned), or hides it behind a new delete
    /// marker (enabled: a new id; suspended: the null version, which replaces the null object).
    mutating func deleteCurrent(
        _ key: ObjectKey,
        newVersionID: String,
        now: (seconds: Int64, milliseconds: Int64)
    ) -> (DeleteOutcome, released: [Blob]) {
        switch versioning {
        case .off:
            guard let removed = objects.removeValue(forKey: key) else { return (DeleteOutcome(), []) }
            sortedKeys = nil
            return (DeleteOutcome(), [removed.blob])
        case .enabled, .suspended:
            var released: [Blob] = []
            let markerID: String
            if versioning == .enabled {
                markerID = newVersionID
                if let current = objects.removeValue(forKey: key) {
                    history[key, default: []].insert(StoredVersion(current), at: 0)
                }
            } else {
                markerID = BucketVersioning.nullVersionID
                released = releaseNullVersion(of: key)
                if let current = objects.removeValue(forKey: key) {
                    history[key, default: []].insert(StoredVersion(current), at: 0)
                }
            }
            let marker = StoredVersion(
                deleteMarker: markerID,
                lastModified: now.seconds,
                lastModifiedMilliseconds: now.milliseconds
            )
            history[key, default: []].insert(marker, at: 0)
            sortedKeys = nil
            return (DeleteOutcome(versionID: markerID, isDeleteMarker: true), released)
        }
    }

    /// DeleteObject of one version: removes it for good (an unknown id changes nothing, as on S3). When it was
    /// the current object, the next older version becomes current (or the delete marker above it stays latest).
    mutating func deleteVersion(_ key: ObjectKey, versionID: String) -> (DeleteOutcome, released: [Blob]) {
        if let current = objects[key], (current.metadata.versionID ?? BucketVersioning.nullVersionID) == versionID {
            objects[key] = nil
            if let next = history[key]?.first, let object = next.object {
                objects[key] = object
                history[key]?.removeFirst()
            }
            if history[key]?.isEmpty == true { history[key] = nil }
            sortedKeys = nil
            return (DeleteOutcome(versionID: current.metadata.versionID), [current.blob])
        }
        guard let index = history[key]?.firstIndex(where: { $0.versionID == versionID }),
            let removed = history[key]?.remove(at: index)
        else { return (DeleteOutcome(versionID: versionID), []) }
        // A delete marker that was the latest version uncovers the version under it.
        if index == 0, objects[key] == nil, let next = history[key]?.first, let object = next.object {
            objects[key] = object
            history[key]?.removeFirst()
        }
        if history[key]?.isEmpty == true { history[key] = nil }
        sortedKeys = nil
        return (
            DeleteOutcome(versionID: versionID, isDeleteMarker: removed.isDeleteMarker),
            removed.object.map { [$0.blob] } ?? []
        )
    }

    /// What `versionID` names for `key` (`nil`: the current version).
    func lookup(_ key: ObjectKey, versionID: String?) -> VersionLookup {
        guard let versionID else {
            if let current = objects[key] { return .object(current) }
            if let marker = history[key]?.first, marker.isDeleteMarker { return .deleteMarker(marker) }
            return .none
        }
        if let current = objects[key], (current.metadata.versionID ?? BucketVersioning.nullVersionID) == versionID {
            return .object(current)
        }
        guard let version = history[key]?.first(where: { $0.versionID == versionID }) else { return .none }
        return version.object.map { .object($0) } ?? .deleteMarker(version)
    }

    /// Takes the null version of `key` out (the current object or an older one, or a delete marker), returning
    /// its blob: a suspended bucket's write or delete replaces it.
    private mutating func releaseNullVersion(of key: ObjectKey) -> [Blob] {
        var released: [Blob] = []
        if let current = objects[key],
            (current.metadata.versionID ?? BucketVersioning.nullVersionID) == BucketVersioning.nullVersionID
        {
            released.append(current.blob)
            objects[key] = nil
        }
        if let index = history[key]?.firstIndex(where: { $0.versionID == BucketVersioning.nullVersionID }) {
            if let object = history[key]?.remove(at: index).object { released.append(object.blob) }
            if history[key]?.isEmpty == true { history[key] = nil }
        }
        return released
    }

    /// Every version of every key, keys in UTF-8 byte order and each key's versions newest first.
    func allVersionKeys() -> [String] {
        Set(objects.keys).union(history.keys).map(\.text).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Puts `object` in the place of the version with its version id (the current object or an older one).
    mutating func replace(_ object: StoredObject) {
        let key = ObjectKey(object.metadata.key)
        if objects[key]?.metadata.versionID == object.metadata.versionID {
            objects[key] = object
        } else if let index = history[key]?.firstIndex(where: {
            $0.versionID == (object.metadata.versionID ?? BucketVersioning.nullVersionID)
        }) {
            history[key]?[index].object = object
        }
    }

    /// Runs `change` on the bucket in place (`buckets[name]?.apply(change)` copies none of its dictionaries).
    mutating func apply<Result>(_ change: (inout StoredBucket) -> Result) -> Result { change(&self) }

    /// The versions of `key`, newest first, with whether each is the latest.
    func versions(of key: ObjectKey) -> [StoredVersion] {
        (objects[key].map { [StoredVersion($0)] } ?? []) + (history[key] ?? [])
    }
}
