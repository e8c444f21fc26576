//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorageSigning
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the server knows about one object version.
struct ObjectMetadata: Codable, Sendable {
    var key: String
    var size: Int64
    /// Lowercase hex MD5, or `md5-of-part-md5s-N` for a multipart object; unquoted.
    var etag: String
    var crc64: UInt64
    /// S3's `x-amz-checksum-crc64nvme`; `nil` for an object stored by a server that did not keep it.
    var crc64nvme: UInt64?
    var lastModified: Int64
    var lastModifiedMilliseconds: Int64
    var contentType: String
    var userMetadata: [String: String]
    /// Stored representation headers: cache-control, content-disposition, content-encoding, content-language, expires.
    var headers: [String: String]
    var storageClass: String?
    var acl: String?
    var partsCount: Int?
    /// The size of each part of a multipart object, in order (what `?partNumber=` serves); `nil` otherwise.
    var partSizes: [Int64]?
    /// The files of the bytes in the bucket's `data` directory, in order (one, or the parts of a multipart object).
    var dataFiles: [DataFile]?
    /// OBS's `x-obs-checksum-crc64ecma` (``OBSChecksum``): `crc64`, when the object's upload sent it; `nil` otherwise.
    var obsChecksum: UInt64? = nil
    /// The object's tags, in the order they were set; `nil` or empty for none.
    var tags: [StoredTag]? = nil
    /// The version id: `nil` in a bucket that was never versioned, `null` for a suspended bucket's writes.
    var versionID: String? = nil
    /// What made the object, when not a PUT, a copy or a multipart upload: an append (``StoredObjectType/appendable``)
    /// or OSS's PutSymlink (``StoredObjectType/symlink``); `nil` for a normal object.
    var objectType: StoredObjectType? = nil
    /// The restore of an archived object, once one was asked for (``RestoreRecord``).
    var restore: RestoreRecord? = nil
    /// The key a symlink points to (in its bucket), as PutSymlink named it; `nil` unless ``objectType`` is
    /// ``StoredObjectType/symlink``.
    var symlinkTarget: String? = nil
    /// The server-side encryption reported for the object (its write's own, or the bucket's default then).
    var encryption: StoredEncryption? = nil

    struct DataFile: Codable, Sendable {
        var name: String
        var size: Int64
    }
}

/// The kinds of object the services name apart from normal ones (`x-oss-object-type`, `x-obs-object-type`).
enum StoredObjectType: String, Codable, Sendable {
    /// Made by AppendObject (OSS, OBS): appends go on while it stays one; a PUT or a copy makes it normal.
    case appendable = "Appendable"
    /// Made by OSS's PutSymlink: no bytes of its own, a GET serves its target's.
    case symlink = "Symlink"
}

/// The attributes given when an object is created, kept by a multipart upload until completion.
struct ObjectAttributes: Sendable {
    var contentType: String
    var userMetadata: [String: String] = [:]
    var headers: [String: String] = [:]
    var storageClass: String?
    var acl: String?
    var tags: [StoredTag]?
    /// The write's own `x-*-server-side-encryption`, or the bucket's default encryption.
    var encryption: StoredEncryption? = nil
}

struct StoredObject: Sendable {
    var metadata: ObjectMetadata
    var blob: Blob
}

struct StoredPart: Sendable {
    var number: Int
    var size: Int64
    var md5: [UInt8]
    var crc64: UInt64
    var crc64nvme: UInt64
    var lastModified: Int64
    var blob: Blob
    var etag: String { ByteEncoding.hex(md5) }
}

struct StoredUpload: Sendable {
    var id: String
    var key: String
    var initiated: Int64
    var attributes: ObjectAttributes
    var parts: [Int: StoredPart] = [:]
}

/// An object key as the services compare keys: by its UTF-8 bytes. (Swift's `String` equality is canonical
/// equivalence, under which "e" + U+0301 and U+00E9 are one string, but they are two keys.)
struct ObjectKey: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: ObjectKey, rhs: ObjectKey) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    func hash(into hasher: inout Hasher) {
        for byte in self.text.utf8 { hasher.combine(byte) }
    }
}

struct StoredBucket: Sendable {
    var name: String
    var created: Int64
    /// The current object of each key (see ``StoredBucket/install(_:newVersionID:)`` for versions).
    var objects: [ObjectKey: StoredObject] = [:]
    /// The older versions and delete markers of each key, newest first.
    var history: [ObjectKey: [StoredVersion]] = [:]
    var versioning = BucketVersioning.off
    var uploads: [String: StoredUpload] = [:]
    /// The configuration documents by sub-resource (`cors`).
    var documents: [String: BucketDocument] = [:]
    /// The keys of `objects` in UTF-8 byte order; `nil` once a key was added or removed, until the next listing.
    var sortedKeys: [String]?
}

/// A part named in a CompleteMultipartUpload request.
struct RequestedPart: Sendable {
    var number: Int
    var etag: String
}

/// Buckets, objects and uploads, in memory or in a data directory.
///
/// Directory layout: `buckets/NAME/bucket.json`, `buckets/NAME/meta/SHA256(key).json` (the current object),
/// `buckets/NAME/meta/SHA256(key).versions.json` (older versions and delete markers), `buckets/NAME/data/ID`
/// (immutable blobs), `uploads/ID/...` (parts), `tmp/`.
final class ObjectStore: Sendable {
    let root: String?
    /// The buckets; extensions in other files (lifecycle) change them under this lock too.
    let state: Mutex<[String: StoredBucket]>

    init(storage: LocalObjectServer.Storage) throws {
        switch storage.backing {
        case .memory:
            root = nil
            state = Mutex([:])
        case .directory(let path):
            let root = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
            self.root = root
            try FileIO.makeDirectory(root + "/buckets")
            try FileIO.makeDirectory(root + "/tmp")
            try FileIO.makeDirectory(root + "/uploads")
            state = Mutex(Self.load(root: root))
        }
    }

    // MARK: Paths

    func temporaryPath() -> String? {
        root.map { "\($0)/tmp/\(FileIO.randomHex())" }
    }

    private func bucketDirectory(_ bucket: String) -> String? { root.map { "\($0)/buckets/\(bucket)" } }

    private static func metadataFileName(_ key: String) -> String {
        ByteEncoding.hex(Hashing.SHA256.hash(key)) + ".json"
    }

    private static func versionsFileName(_ key: String) -> String {
        ByteEncoding.hex(Hashing.SHA256.hash(key)) + ".versions.json"
    }

    // MARK: Buckets

    func listBuckets() -> [(name: String, created: Int64)] {
        state.withLock { buckets in buckets.values.map { ($0.name, $0.created) } }.sorted { $0.name < $1.name }
    }

    func bucketExists(_ bucket: String) -> Bool { state.withLock { $0[bucket] != nil } }

    func createBucket(_ bucket: String, now: Int64, dialect: StorageVendor) throws(ServerError) {
        try state.withLock { (buckets) throws(ServerError) in
            guard buckets[bucket] == nil else { throw .bucketExists(bucket, dialect: dialect) }
            if let directory = bucketDirectory(bucket), let root {
                do {
                    try FileIO.makeDirectory(directory + "/meta")
                    try FileIO.makeDirectory(directory + "/data")
                    let record = Array("{\"created\":\(now)}".utf8)
                    try FileIO.writeFileAtomically(
                        directory + "/bucket.json",
                        temporary: "\(root)/tmp/\(FileIO.randomHex())",
                        bytes: record
                    )
                } catch {
                    throw .internalError("cannot create the bucket directory")
                }
            }
            buckets[bucket] = StoredBucket(name: bucket, created: now)
        }
    }

    func deleteBucket(_ bucket: String) throws(ServerError) {
        let removed = try state.withLock { (buckets) throws(ServerError) -> StoredBucket in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            guard record.holdsNothing else { throw .bucketNotEmpty(bucket) }
            buckets[bucket] = nil
            return record
        }
        for upload in removed.uploads.values { removeUploadFiles(upload) }
        if let directory = bucketDirectory(bucket) {
            for name in removed.documents.keys { FileIO.remove(directory + "/config/\(name).json") }
            FileIO.removeDirectory(directory + "/config")
            FileIO.remove(directory + "/bucket.json")
            FileIO.removeDirectory(directory + "/meta")
            FileIO.removeDirectory(directory + "/data")
            FileIO.removeDirectory(directory)
        }
    }

    // MARK: Objects

    func object(_ bucket: String, _ key: String, versionID: String? = nil) throws(ServerError) -> ObjectMetadata {
        try state.withLock { (buckets) throws(ServerError) in
            try Self.find(key, versionID: versionID, in: buckets, bucket: bucket).metadata
        }
    }

    /// Looks the object up and opens its blob in one step, so the version read is the version described.
    func openObject(
        _ bucket: String,
        _ key: String,
        versionID: String? = nil
    ) throws(ServerError) -> (ObjectMetadata, BlobReader) {
        try state.withLock { (buckets) throws(ServerError) in
            let object = try Self.find(key, versionID: versionID, in: buckets, bucket: bucket)
            do {
                return (object.metadata, try BlobReader(object.blob))
            } catch {
                throw .internalError("cannot open the object data")
            }
        }
    }

    func blob(_ bucket: String, _ key: String, versionID: String? = nil) throws(ServerError) -> (ObjectMetadata, Blob) {
        try state.withLock { (buckets) throws(ServerError) in
            let object = try Self.find(key, versionID: versionID, in: buckets, bucket: bucket)
            return (object.metadata, object.blob)
        }
    }

    /// The object `versionID` (the current one when `nil`) names; a delete marker answers as the services do.
    private static func find(
        _ key: String,
        versionID: String?,
        in buckets: [String: StoredBucket],
        bucket: String
    ) throws(ServerError) -> StoredObject {
        guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
        switch record.lookup(ObjectKey(key), versionID: versionID) {
        case .object(let object): return object
        case .deleteMarker(let marker): throw .deleteMarker(marker, key: key, named: versionID != nil)
        case .none: throw versionID == nil ? .noSuchKey(key) : .noSuchVersion(versionID ?? "", key: key)
        }
    }

    /// Makes `blob` (temporary files or memory) the current version of `metadata.key`, and returns its version id
    /// (`nil` in a bucket that was never versioned).
    ///
    /// - Parameter condition: Checked against the current object under the lock, before anything is replaced, so
    ///   that of concurrent conditional writes of one key only those the condition admits commit; on refusal the
    ///   blob's files are removed. `conflict` as in ``WriteCondition/check(_:key:conflict:)``.
    @discardableResult
    func commit(
        _ bucket: String,
        metadata: ObjectMetadata,
        blob: Blob,
        condition: WriteCondition? = nil,
        conflict: Bool = false
    ) throws(ServerError) -> String? {
        var metadata = metadata
        let finalBlob = try place(blob, in: bucket, metadata: &metadata)
        let (versionID, released) = try state.withLock { (buckets) throws(ServerError) -> (String?, [Blob]) in
            let objectKey = ObjectKey(metadata.key)
            do throws(ServerError) {
                guard buckets[bucket] != nil else { throw .noSuchBucket(bucket) }
                try condition?.check(
                    buckets[bucket]?.objects[objectKey]?.metadata,
                    key: metadata.key,
                    conflict: conflict
                )
                return try changeKey(objectKey, of: bucket, in: &buckets) { record in
                    record.install(StoredObject(metadata: metadata, blob: finalBlob), newVersionID: Self.newVersionID())
                }
            } catch {
                for path in finalBlob.paths { FileIO.remove(path) }
                throw error
            }
        }
        for path in released.flatMap(\.paths) { FileIO.remove(path) }
        return versionID
    }

    /// Moves the temporary files of `blob` into the bucket's `data` directory (a data directory only) and names them in
    /// `metadata`; on failure every file is removed.
    private func place(_ blob: Blob, in bucket: String, metadata: inout ObjectMetadata) throws(ServerError) -> Blob {
        guard case .files(let files) = blob, let directory = bucketDirectory(bucket) else { return blob }
        var placed: [BlobFile] = []
        var names: [ObjectMetadata.DataFile] = []
        for file in files {
            let name = FileIO.randomHex()
            do {
                try FileIO.rename(file.path, directory + "/data/" + name)
            } catch {
                for path in files.dropFirst(placed.count).map(\.path) + placed.map(\.path) { FileIO.remove(path) }
                throw .noSuchBucket(bucket)
            }
            placed.append(BlobFile(path: directory + "/data/" + name, size: file.size))
            names.append(ObjectMetadata.DataFile(name: name, size: file.size))
        }
        metadata.dataFiles = names
        return .files(placed)
    }

    /// A new version id: 32 hex digits, unique, opaque (as the services' ids are).
    static func newVersionID() -> String { FileIO.randomHex() }

    // MARK: Appends

    /// Checks an append at `position` against what the key holds, as OSS and OBS check it: a key without a current
    /// object (none, or a delete marker) takes only position 0; an appendable object only its length.
    ///
    /// - Throws: 409 `ObjectNotAppendable` for any other object; 409 `PositionNotEqualToLength` with the position
    ///   expected.
    static func checkAppend(
        to current: ObjectMetadata?,
        position: Int64,
        dialect: StorageVendor
    ) throws(ServerError) {
        guard let current else {
            guard position == 0 else { throw .positionNotEqualToLength(expected: 0, dialect: dialect) }
            return
        }
        guard current.objectType == .appendable else { throw .objectNotAppendable }
        guard current.size == position else {
            throw .positionNotEqualToLength(expected: current.size, dialect: dialect)
        }
    }

    /// The current object an append at `position` extends, with its bytes open; `nil` when the key has none (and
    /// `position` is 0). See ``checkAppend(to:position:dialect:)`` for the refusals.
    func appendBase(
        _ bucket: String,
        _ key: String,
        position: Int64,
        dialect: StorageVendor
    ) throws(ServerError) -> (metadata: ObjectMetadata, reader: BlobReader)? {
        try state.withLock { (buckets) throws(ServerError) in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            let current = record.objects[ObjectKey(key)]
            try Self.checkAppend(to: current?.metadata, position: position, dialect: dialect)
            guard let current else { return nil }
            do {
                return (current.metadata, try BlobReader(current.blob))
            } catch {
                throw .internalError("cannot open the object data")
            }
        }
    }

    /// Makes `blob` (`metadata.key`'s bytes after an append at `position`) the current object, if the key still holds
    /// `base`, the object the append extended (`nil`: none), checked under the lock so that of concurrent appends at
    /// one position one commits and the others are refused with the position they should have named.
    ///
    /// The first append of a key creates a version as any write does; later ones change that version in place (OSS
    /// keeps no version per append). Returns the version id.
    @discardableResult
    func commitAppend(
        _ bucket: String,
        metadata: ObjectMetadata,
        blob: Blob,
        base: ObjectMetadata?,
        position: Int64,
        dialect: StorageVendor
    ) throws(ServerError) -> String? {
        var metadata = metadata
        let finalBlob = try place(blob, in: bucket, metadata: &metadata)
        let (versionID, released) = try state.withLock { (buckets) throws(ServerError) -> (String?, [Blob]) in
            let objectKey = ObjectKey(metadata.key)
            do throws(ServerError) {
                // No binding of the bucket itself: a copy held across the change would copy its dictionaries.
                guard buckets[bucket] != nil else { throw .noSuchBucket(bucket) }
                let current = buckets[bucket]?.objects[objectKey]
                try Self.checkAppend(to: current?.metadata, position: position, dialect: dialect)
                guard let current else {
                    // Position 0 on a key without an object (the bytes are the append's alone): a new object.
                    return try changeKey(objectKey, of: bucket, in: &buckets) { record in
                        record.install(
                            StoredObject(metadata: metadata, blob: finalBlob),
                            newVersionID: Self.newVersionID()
                        )
                    }
                }
                // The same length, but not the object extended (it was replaced since by one of the same length):
                // refused as a stale position. An empty object needs no check: the bytes are the append's alone.
                if let base, base.size > 0 {
                    guard current.metadata.etag == base.etag, current.metadata.versionID == base.versionID,
                        current.metadata.lastModifiedMilliseconds == base.lastModifiedMilliseconds
                    else { throw .positionNotEqualToLength(expected: current.metadata.size, dialect: dialect) }
                }
                metadata.versionID = current.metadata.versionID
                let object = StoredObject(metadata: metadata, blob: finalBlob)
                try changeKey(objectKey, of: bucket, in: &buckets) { record in
                    record.objects[objectKey] = object
                }
                return (metadata.versionID, [current.blob])
            } catch {
                for path in finalBlob.paths { FileIO.remove(path) }
                throw error
            }
        }
        for path in released.flatMap(\.paths) { FileIO.remove(path) }
        return versionID
    }

    /// Replaces the tags of the current version of `key` (its other metadata, the modification time included,
    /// stays as it is, as the services keep it).
    func setTags(_ bucket: String, _ key: String, versionID: String?, _ tags: [StoredTag]?) throws(ServerError) {
        try changeMetadata(bucket, key, versionID: versionID) { $0.tags = tags }
    }

    /// Replaces the canned ACL of a version of `key` (`nil`: the current one), leaving the rest as it is.
    func setACL(_ bucket: String, _ key: String, versionID: String?, _ acl: String) throws(ServerError) {
        try changeMetadata(bucket, key, versionID: versionID) { $0.acl = acl }
    }

    /// Changes the metadata of one version (the current one for `versionID` `nil`) under the lock, so that `change`
    /// may check what it finds and refuse (throw) before anything changes; writes the key's files.
    func changeMetadata<Result>(
        _ bucket: String,
        _ key: String,
        versionID: String?,
        _ change: (inout ObjectMetadata) throws(ServerError) -> Result
    ) throws(ServerError) -> Result {
        try state.withLock { (buckets) throws(ServerError) -> Result in
            var object = try Self.find(key, versionID: versionID, in: buckets, bucket: bucket)
            let result = try change(&object.metadata)
            try changeKey(ObjectKey(key), of: bucket, in: &buckets) { record in
                record.replace(object)
            }
            return result
        }
    }

    /// Changes one key of `bucket` in place, then writes that key's files; when they cannot be written, the key is
    /// put back as it was and the error thrown. In place matters: a copy of the bucket would copy its dictionaries,
    /// which makes each write cost as much as the bucket holds.
    func changeKey<Result>(
        _ key: ObjectKey,
        of bucket: String,
        in buckets: inout [String: StoredBucket],
        _ change: (inout StoredBucket) -> Result
    ) throws(ServerError) -> Result {
        guard buckets[bucket] != nil else { throw .noSuchBucket(bucket) }
        let before = (object: buckets[bucket]?.objects[key], history: buckets[bucket]?.history[key])
        guard let result = buckets[bucket]?.apply(change) else { throw .noSuchBucket(bucket) }
        do {
            try writeKey(bucket, key, object: buckets[bucket]?.objects[key], history: buckets[bucket]?.history[key])
        } catch {
            buckets[bucket]?.objects[key] = before.object
            buckets[bucket]?.history[key] = before.history
            buckets[bucket]?.sortedKeys = nil
            throw error
        }
        return result
    }

    /// Writes the metadata files of `key` (a data directory only): its current `object`, and its older versions
    /// (`history`); a file with nothing to hold is removed. Called under the lock, so that the files and
    /// the state change together.
    private func writeKey(
        _ bucket: String,
        _ key: ObjectKey,
        object: StoredObject?,
        history: [StoredVersion]?
    ) throws(ServerError) {
        guard let directory = bucketDirectory(bucket), let root else { return }
        let current = directory + "/meta/" + Self.metadataFileName(key.text)
        let versions = directory + "/meta/" + Self.versionsFileName(key.text)
        // Every write before any removal: a write that fails then leaves the key's files as they were.
        do {
            if let object {
                try FileIO.writeFileAtomically(
                    current,
                    temporary: "\(root)/tmp/\(FileIO.randomHex())",
                    bytes: Array(try JSONEncoder().encode(object.metadata))
                )
            }
            if let history, !history.isEmpty {
                let file = VersionsFile(key: key.text, versions: history.map(VersionsFile.Entry.init))
                try FileIO.writeFileAtomically(
                    versions,
                    temporary: "\(root)/tmp/\(FileIO.randomHex())",
                    bytes: Array(try JSONEncoder().encode(file))
                )
            } else {
                FileIO.remove(versions)
            }
            if object == nil { FileIO.remove(current) }
        } catch {
            throw .internalError("cannot write the object metadata")
        }
    }

    /// DeleteObject: of the current version (`versionID` `nil`) or of one version; see ``StoredBucket``.
    func deleteObject(
        _ bucket: String,
        _ key: String,
        versionID: String? = nil,
        now: (seconds: Int64, milliseconds: Int64) = (0, 0)
    ) throws(ServerError) -> DeleteOutcome {
        let (outcome, released) = try state.withLock { (buckets) throws(ServerError) -> (DeleteOutcome, [Blob]) in
            try changeKey(ObjectKey(key), of: bucket, in: &buckets) { record in
                if let versionID {
                    record.deleteVersion(ObjectKey(key), versionID: versionID)
                } else {
                    record.deleteCurrent(ObjectKey(key), newVersionID: Self.newVersionID(), now: now)
                }
            }
        }
        for path in released.flatMap(\.paths) { FileIO.remove(path) }
        return outcome
    }

    // MARK: Configuration documents

    /// The document of `subresource` (`cors`) the bucket keeps, if any.
    func document(_ bucket: String, _ subresource: String) throws(ServerError) -> BucketDocument? {
        try state.withLock { (buckets) throws(ServerError) in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            return record.documents[subresource]
        }
    }

    /// Keeps `document` as the bucket's `subresource`, or removes it (`nil`).
    func setDocument(_ bucket: String, _ subresource: String, _ document: BucketDocument?) throws(ServerError) {
        try state.withLock { (buckets) throws(ServerError) in
            guard buckets[bucket] != nil else { throw .noSuchBucket(bucket) }
            if let directory = bucketDirectory(bucket), let root {
                let path = directory + "/config/\(subresource).json"
                if let document {
                    do {
                        try FileIO.makeDirectory(directory + "/config")
                        try FileIO.writeFileAtomically(
                            path,
                            temporary: "\(root)/tmp/\(FileIO.randomHex())",
                            bytes: Array(try JSONEncoder().encode(document))
                        )
                    } catch {
                        throw .internalError("cannot write the bucket's \(subresource) configuration")
                    }
                } else {
                    FileIO.remove(path)
                }
            }
            buckets[bucket]?.documents[subresource] = document
        }
    }

    // MARK: Versioning

    func versioning(_ bucket: String) throws(ServerError) -> BucketVersioning {
        try state.withLock { (buckets) throws(ServerError) in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            return record.versioning
        }
    }

    func setVersioning(_ bucket: String, _ versioning: BucketVersioning) throws(ServerError) {
        try state.withLock { (buckets) throws(ServerError) in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            if let directory = bucketDirectory(bucket), let root {
                do {
                    try FileIO.writeFileAtomically(
                        directory + "/bucket.json",
                        temporary: "\(root)/tmp/\(FileIO.randomHex())",
                        bytes: Array("{\"created\":\(record.created),\"versioning\":\(versioning.rawValue)}".utf8)
                    )
                } catch {
                    throw .internalError("cannot write the bucket record")
                }
            }
            buckets[bucket]?.versioning = versioning
        }
    }

    /// Every version of the keys after (`keyMarker`, `versionIDMarker`) under `prefix`, up to `maxKeys` entries
    /// (a common prefix counting as one), for ListObjectVersions.
    func versionsPage(
        _ bucket: String,
        prefix: String,
        delimiter: String,
        keyMarker: String,
        versionIDMarker: String,
        maxKeys: Int
    ) throws(ServerError) -> VersionsPage {
        try state.withLock { (buckets) throws(ServerError) in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            return VersionsPage(
                record: record,
                prefix: prefix,
                delimiter: delimiter,
                keyMarker: keyMarker,
                versionIDMarker: versionIDMarker,
                maxKeys: maxKeys
            )
        }
    }

    /// One page of a bucket's listing (see ``ListingPage``); the sorted keys are kept until a key is added or
    /// removed, so paging through a bucket costs O(page) a page, not a sort of every key.
    func listingPage(
        _ bucket: String,
        prefix: String,
        delimiter: String,
        marker: String,
        maxKeys: Int
    ) throws(ServerError) -> ListingPage {
        try state.withLock { (buckets) throws(ServerError) in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            let keys: [String]
            if let cached = record.sortedKeys {
                keys = cached
            } else {
                keys = record.objects.keys.map(\.text).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                buckets[bucket]?.sortedKeys = keys
            }
            return ListingPage(
                keys: keys,
                prefix: prefix,
                delimiter: delimiter,
                marker: marker,
                maxKeys: maxKeys,
                metadata: { record.objects[ObjectKey($0)]?.metadata }
            )
        }
    }

    func duplicate(_ blob: Blob) throws -> Blob {
        guard case .files(let files) = blob, root != nil else { return blob }
        var copies: [BlobFile] = []
        do {
            for file in files {
                guard let temporary = temporaryPath() else { return blob }
                if !FileIO.link(file.path, temporary) {
                    let fd = try FileIO.openForWriting(temporary)
                    defer { FileIO.closeFile(fd) }
                    copies.append(BlobFile(path: temporary, size: file.size))
                    try FileIO.append(contentsOf: file.path, to: fd, destinationPath: temporary)
                    continue
                }
                copies.append(BlobFile(path: temporary, size: file.size))
            }
        } catch {
            for copy in copies { FileIO.remove(copy.path) }
            throw error
        }
        return .files(copies)
    }

    // MARK: Multipart uploads

    func createUpload(
        _ bucket: String,
        key: String,
        attributes: ObjectAttributes,
        now: Int64
    ) throws(ServerError)
        -> String
    {
        let id = FileIO.randomHex().uppercased()
        try state.withLock { (buckets) throws(ServerError) in
            guard buckets[bucket] != nil else { throw .noSuchBucket(bucket) }
            buckets[bucket]?.uploads[id] = StoredUpload(id: id, key: key, initiated: now, attributes: attributes)
        }
        if let root { try? FileIO.makeDirectory("\(root)/uploads/\(id)") }
        return id
    }

    func upload(_ bucket: String, key: String, id: String) throws(ServerError) -> StoredUpload {
        try state.withLock { (buckets) throws(ServerError) in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            guard let upload = record.uploads[id], upload.key.utf8.elementsEqual(key.utf8) else {
                throw .noSuchUpload(id)
            }
            return upload
        }
    }

    func uploads(_ bucket: String) throws(ServerError) -> [StoredUpload] {
        try state.withLock { (buckets) throws(ServerError) in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            return Array(record.uploads.values)
        }
    }

    func partPath(uploadID: String, number: Int) -> String? {
        root.map { "\($0)/uploads/\(uploadID)/\(number)-\(FileIO.randomHex(8))" }
    }

    func putPart(_ bucket: String, key: String, id: String, part: StoredPart) throws(ServerError) {
        let replaced = try state.withLock { (buckets) throws(ServerError) -> StoredPart? in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            guard let upload = record.uploads[id], upload.key.utf8.elementsEqual(key.utf8) else {
                throw .noSuchUpload(id)
            }
            let previous = upload.parts[part.number]
            buckets[bucket]?.uploads[id]?.parts[part.number] = part
            return previous
        }
        for path in replaced?.blob.paths ?? [] { FileIO.remove(path) }
    }

    func abortUpload(_ bucket: String, key: String, id: String) throws(ServerError) {
        let removed = try state.withLock { (buckets) throws(ServerError) -> StoredUpload in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            guard let upload = record.uploads[id], upload.key.utf8.elementsEqual(key.utf8) else {
                throw .noSuchUpload(id)
            }
            buckets[bucket]?.uploads[id] = nil
            return upload
        }
        removeUploadFiles(removed)
    }

    /// Checks the requested parts against the upload and, if they are valid and `check` accepts what they add up
    /// to, takes the upload out of the bucket (a failed check leaves it in place, as the services do).
    func takeUploadForCompletion(
        _ bucket: String,
        key: String,
        id: String,
        requested: [RequestedPart],
        minimumPartSize: Int64,
        check: (CompletedParts) throws(ServerError) -> Void = { _ in }
    ) throws(ServerError) -> (StoredUpload, [StoredPart], CompletedParts) {
        try state.withLock { (buckets) throws(ServerError) in
            guard let record = buckets[bucket] else { throw .noSuchBucket(bucket) }
            guard let upload = record.uploads[id], upload.key.utf8.elementsEqual(key.utf8) else {
                throw .noSuchUpload(id)
            }
            var previous = 0
            for part in requested {
                guard part.number > previous else { throw .invalidPartOrder }
                previous = part.number
            }
            var parts: [StoredPart] = []
            for part in requested {
                guard let stored = upload.parts[part.number],
                    ETagMatching.normalize(part.etag) == stored.etag
                else { throw .invalidPart(part.number) }
                parts.append(stored)
            }
            for part in parts.dropLast() where part.size < minimumPartSize {
                throw .entityTooSmall(size: part.size, minimum: minimumPartSize, partNumber: part.number)
            }
            let completed = CompletedParts(parts)
            try check(completed)
            buckets[bucket]?.uploads[id] = nil
            return (upload, parts, completed)
        }
    }

    /// The blob of an object made of `parts`: the part files or buffers themselves, never a copy (a copy of a large
    /// upload costs the server many CPU seconds and keeps the client waiting; see docs/BENCHMARKS.md).
    func assemble(_ parts: [StoredPart]) -> Blob {
        var files: [BlobFile] = []
        var buffers: [ByteBuffer] = []
        for part in parts {
            switch part.blob {
            case .files(let partFiles): files += partFiles
            case .memory(let partBuffers): buffers += partBuffers
            }
        }
        return root == nil ? .memory(buffers) : .files(files)
    }

    func removeUploadFiles(_ upload: StoredUpload) {
        for path in upload.parts.values.flatMap(\.blob.paths) { FileIO.remove(path) }
        if let root { FileIO.removeDirectory("\(root)/uploads/\(upload.id)") }
    }

    // MARK: Loading

    private static func load(root: String) -> [String: StoredBucket] {
        var buckets: [String: StoredBucket] = [:]
        for name in FileIO.listDirectory(root + "/buckets") {
            let directory = "\(root)/buckets/\(name)"
            var created: Int64 = 0
            var versioning = BucketVersioning.off
            if let bytes = FileIO.readFile(directory + "/bucket.json"),
                let record = try? JSONDecoder().decode([String: Int64].self, from: Data(bytes))
            {
                created = record["created"] ?? 0
                versioning = record["versioning"].flatMap { BucketVersioning(rawValue: Int($0)) } ?? .off
            }
            var bucket = StoredBucket(name: name, created: created)
            bucket.versioning = versioning
            for file in FileIO.listDirectory(directory + "/config") where file.hasSuffix(".json") {
                guard let bytes = FileIO.readFile(directory + "/config/" + file),
                    let document = try? JSONDecoder().decode(BucketDocument.self, from: Data(bytes))
                else { continue }
                bucket.documents[String(file.dropLast(".json".count))] = document
            }
            for file in FileIO.listDirectory(directory + "/meta") where file.hasSuffix(".versions.json") {
                guard let bytes = FileIO.readFile(directory + "/meta/" + file),
                    let versions = try? JSONDecoder().decode(VersionsFile.self, from: Data(bytes))
                else { continue }
                bucket.history[ObjectKey(versions.key)] = versions.versions.map { $0.version(in: directory) }
            }
            for file in FileIO.listDirectory(directory + "/meta")
            where file.hasSuffix(".json") && !file.hasSuffix(".versions.json") {
                guard let bytes = FileIO.readFile(directory + "/meta/" + file),
                    let metadata = try? JSONDecoder().decode(ObjectMetadata.self, from: Data(bytes)),
                    let dataFiles = metadata.dataFiles
                else { continue }
                bucket.objects[ObjectKey(metadata.key)] = StoredObject(
                    stored: metadata,
                    files: dataFiles,
                    in: directory
                )
            }
            buckets[name] = bucket
        }
        for stale in FileIO.listDirectory(root + "/tmp") { FileIO.remove("\(root)/tmp/\(stale)") }
        for upload in FileIO.listDirectory(root + "/uploads") {
            for part in FileIO.listDirectory("\(root)/uploads/\(upload)") {
                FileIO.remove("\(root)/uploads/\(upload)/\(part)")
            }
            FileIO.removeDirectory("\(root)/uploads/\(upload)")
        }
        return buckets
    }
}
