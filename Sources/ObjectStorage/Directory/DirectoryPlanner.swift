//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint
import ObjectStorageSigning

/// The rules of a directory job: for each name of the merged walk and listing, whether to transfer it, leave it,
/// skip it with a reason, or delete it. It reads no file and sends nothing, beyond what it is given: the entries,
/// an earlier run's record, and whether a downloaded file is still in place.
struct DirectoryPlanner: Sendable {
    /// What to do with one name.
    enum Decision: Sendable {
        /// Nothing (a name only the destination has, kept).
        case keep
        /// Delete a name only the destination has (`--delete`): its key, or its local path.
        case delete(target: String)
        /// The destination already has it (``DirectoryTransferOptions/comparison``).
        case unchanged
        /// An earlier run of the job recorded it done, and it is still in place.
        case finishedEarlier
        /// Leave it, for the reason given as a sentence.
        case skip(reason: String)
        /// Move it.
        case transfer(Transfer)
    }

    /// A transfer decided on.
    struct Transfer: Sendable {
        /// The destination key of an upload or a copy.
        var key: String?
        /// The destination path of a download.
        var path: String?
        /// What the manifest records to know it again: a file's modification time in nanoseconds, or the ETag.
        var stamp: String
        /// With ``DirectoryTransferOptions/Comparison/checksum``: a local file and the MD5 it must have for the
        /// transfer to be needless (compared when it runs).
        var unlessMD5: LocalDigest?
        /// Whether it goes through a part engine (``DirectoryTransferOptions/largeObjectThreshold``).
        var isLarge: Bool
    }

    /// A local file and the MD5 (hexadecimal) it is compared with.
    struct LocalDigest: Sendable {
        var path: String
        var size: Int64
        var md5: String
    }

    let direction: DirectoryJob.Direction
    let options: DirectoryTransferOptions
    /// The prefix of the job's keys.
    let prefix: String
    /// The local directory (`""` for a copy).
    let directory: String
    /// The service whose key rules apply to an upload's or a copy's keys.
    let vendor: StorageVendor
    /// Whether a file is a regular file of this size at this path (for a download's earlier record).
    let isInPlace: @Sendable (_ path: String, _ size: Int64) -> Bool

    /// Local names the walk left out, by their bytes: never deleted remotely as if they were missing.
    private var protectedNames: Set<[UInt8]> = []
    private var protectedDirectories: [[UInt8]] = []
    /// A download's large objects, whose `<name>.part` files are the job's own (never deleted as extraneous).
    private var largeSourceNames: Set<[UInt8]> = []

    init(
        direction: DirectoryJob.Direction,
        options: DirectoryTransferOptions,
        prefix: String,
        directory: String,
        vendor: StorageVendor,
        isInPlace: @escaping @Sendable (_ path: String, _ size: Int64) -> Bool = LocalPaths.isRegularFile
    ) {
        self.direction = direction
        self.options = options
        self.prefix = prefix
        self.directory = directory
        self.vendor = vendor
        self.isInPlace = isInPlace
    }

    /// Notes a local name the walk left out (a directory's name ends with `/`): it and what is under it are never
    /// deleted from the other side.
    mutating func leftOut(_ name: String) {
        if name.hasSuffix("/") {
            self.protectedDirectories.append(Array(name.utf8))
        } else {
            self.protectedNames.insert(Array(name.utf8))
        }
    }

    /// What to do with the name of `source` and `destination` (one of which is not `nil`).
    ///
    /// - Parameter earlier: The manifest's record of the name from an earlier run, if any.
    mutating func decide(
        source: DirectoryEntry?,
        destination: DirectoryEntry?,
        earlier: DirectoryManifest.Record?
    ) -> Decision {
        guard let source else {
            guard let destination, self.options.deletesExtraneous, !self.isProtected(destination.name),
                !self.isOwnTemporaryFile(destination.name), let target = destination.key ?? destination.path
            else { return .keep }
            return .delete(target: target)
        }
        let isLarge = source.size >= self.options.largeObjectThreshold
        if self.direction == .download, isLarge {
            self.largeSourceNames.insert(Array(source.name.utf8))
        }
        if let destination, !self.needsTransfer(source: source, destination: destination) {
            return .unchanged
        }
        let stamp = self.direction == .upload ? String(source.modificationNanoseconds) : source.etag ?? ""
        var transfer = Transfer(stamp: stamp, isLarge: isLarge)
        do throws(ObjectStorageError) {
            switch self.direction {
            case .upload, .copy:
                transfer.key = self.prefix + source.name
                try ObjectNameRules.validateObjectKey(self.prefix + source.name, for: self.vendor)
            case .download:
                guard !source.name.hasSuffix(DirectoryJob.partialSuffix) else {
                    let key = ObjectNameRules.display(source.key ?? source.name)
                    let suffix = DirectoryJob.partialSuffix
                    return .skip(reason: "key \(key) ends in '\(suffix)', the suffix of the job's temporary files")
                }
                transfer.path = try LocalPaths.path(
                    forKey: source.key ?? source.name,
                    removingPrefix: self.prefix,
                    under: self.directory
                )
            }
        } catch {
            return .skip(reason: error.message)
        }
        if let earlier, earlier.size == source.size, !stamp.isEmpty, earlier.stamp == stamp,
            self.isStillInPlace(path: transfer.path, size: earlier.size)
        {
            return .finishedEarlier
        }
        transfer.unlessMD5 = destination.flatMap { self.digestToCompare(source: source, destination: $0) }
        return .transfer(transfer)
    }

    /// Whether the destination's copy differs from the source's, by ``DirectoryTransferOptions/comparison``.
    func needsTransfer(source: DirectoryEntry, destination: DirectoryEntry) -> Bool {
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
            // Decided by the local file's digest, in the transfer's task (see `unlessMD5`).
            return true
        case .sizeAndModificationTime, .checksum:
            return self.isNewer(source, than: destination)
        }
    }

    /// Whether the source was modified after the destination, in whole seconds (`Last-Modified` has no more); for
    /// a source read as of a time, whether their times differ at all (a version of then is older than what it
    /// replaces).
    private func isNewer(_ source: DirectoryEntry, than destination: DirectoryEntry) -> Bool {
        guard let from = source.modifiedSeconds, let to = destination.modifiedSeconds else { return true }
        return self.options.sourceAsOf == nil ? from > to : from != to
    }

    /// Whether the object side of an upload or a download has an MD5 ETag to compare with the file's digest.
    private func digestAvailable(source: DirectoryEntry, destination: DirectoryEntry) -> Bool {
        ETagDigest.md5(self.direction == .upload ? destination.etag : source.etag) != nil
    }

    /// The local file and MD5 to compare before transferring, with ``DirectoryTransferOptions/Comparison/checksum``
    /// (a copy compares two ETags in ``needsTransfer(source:destination:)`` instead).
    private func digestToCompare(source: DirectoryEntry, destination: DirectoryEntry) -> LocalDigest? {
        guard self.options.comparison == .checksum, source.size == destination.size else { return nil }
        switch self.direction {
        case .upload:
            guard let path = source.path, let md5 = ETagDigest.md5(destination.etag) else { return nil }
            return LocalDigest(path: path, size: source.size, md5: md5)
        case .download:
            guard let path = destination.path, let md5 = ETagDigest.md5(source.etag) else { return nil }
            return LocalDigest(path: path, size: source.size, md5: md5)
        case .copy:
            return nil
        }
    }

    /// Whether what an earlier run recorded is still where it put it: for a download, a regular file of the
    /// recorded size at its path (one `lstat`), so that a rerun after the files were deleted or truncated fetches
    /// them again. An upload's or a copy's object is trusted: checking would cost a request per object.
    private func isStillInPlace(path: String?, size: Int64) -> Bool {
        guard self.direction == .download else { return true }
        guard let path else { return false }
        return self.isInPlace(path, size)
    }

    /// Whether a remote name corresponds to a local name the walk skipped.
    private func isProtected(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return self.protectedNames.contains(bytes) || self.protectedDirectories.contains { bytes.starts(with: $0) }
    }

    /// Whether a local name is the `.part` file of one of this download's large objects (it sorts after the
    /// object's own name, so the object has been seen by then).
    private func isOwnTemporaryFile(_ name: String) -> Bool {
        let suffix = CheckpointPaths.tempFileSuffix
        guard self.direction == .download, name.hasSuffix(suffix) else { return false }
        return self.largeSourceNames.contains(Array(name.utf8.dropLast(suffix.utf8.count)))
    }
}
