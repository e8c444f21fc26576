//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// How a directory job (``ObjectStorageClient/uploadDirectory(_:bucket:prefix:attributes:options:logger:events:)``,
/// ``ObjectStorageClient/downloadDirectory(bucket:prefix:to:options:logger:events:)``) chooses, moves and records
/// objects.
///
/// The defaults copy everything (`cp -r`), 16 objects at once, with no manifest. A sync sets ``comparison``;
/// a job that must survive a crash sets ``manifestPath``:
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// var options = DirectoryTransferOptions()
/// options.comparison = .sizeAndModificationTime   // `sync`: only what changed moves
/// options.manifestPath = "/var/lib/backup/photos.job"   // a rerun after kill -9 skips what is done
/// let summary = try await client.uploadDirectory("/srv/photos", bucket: "backups", prefix: "photos/", options: options)
/// ```
public struct DirectoryTransferOptions: Sendable, Hashable {
    /// Which objects a job transfers when the destination already has one of the same name.
    public enum Comparison: Sendable, Hashable {
        /// Transfer every object (`cp -r`).
        case always
        /// Transfer when the sizes differ or the source is newer: the local file's modification time after the
        /// object's `Last-Modified` for an upload, the other way round for a download (`sync`).
        case sizeAndModificationTime
        /// Transfer only when the sizes differ (`sync --size-only`).
        case sizeOnly
        /// Transfer when the sizes differ or the contents do (`sync --checksum`): the file's MD5 is compared with
        /// the object's ETag when the ETag is one (an object uploaded in one request); an object uploaded in
        /// parts has no MD5 to compare and falls back to ``sizeAndModificationTime``. The file is read in full.
        case checksum
    }

    /// The default number of objects at once: 16.
    package static let defaultConcurrency = 16

    /// The job's concurrency budget, `1...128` (16 by default): a small object takes one unit while it moves,
    /// a large one as many as its parts in flight (``transfer``'s `concurrency`, at most this budget).
    public var concurrency = DirectoryTransferOptions.defaultConcurrency
    /// Objects of at least this many bytes go through the part engines of ``ObjectStorageClient/uploadFile(from:bucket:key:attributes:options:logger:progress:)``
    /// and ``ObjectStorageClient/resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)``
    /// (with a checkpoint of their own when the job has a manifest); smaller ones are one PUT or one GET with
    /// no probe, checkpoint or `fsync` of their own. 8 MiB by default.
    public var largeObjectThreshold: Int64 = 8 << 20
    /// The part size, part concurrency, integrity checks and bandwidth limit of large objects.
    /// Its checkpoint settings are ignored: a large object keeps a checkpoint exactly when the job has a manifest.
    public var transfer = TransferOptions()
    /// Which objects move when the destination has one of the same name.
    public var comparison = Comparison.always
    /// Deletes what the destination has and the source does not (`sync --delete`), once every transfer has
    /// succeeded; never when one failed.
    public var deletesExtraneous = false
    /// Follows symbolic links while walking a local directory (a link to a directory is entered once: a loop
    /// is reported and skipped). Off by default: a link is skipped and reported.
    public var followsSymbolicLinks = false
    /// Reports what would happen (the same ``DirectoryTransferEvent``s and summary) and changes nothing, neither
    /// locally nor remotely, nor in the manifest.
    public var isDryRun = false
    /// `fnmatch(3)` patterns on the name relative to the directory or prefix (`*` also matches `/`): a name
    /// that matches one is left alone, unless it matches one of ``includes``.
    public var excludes: [String] = []
    /// Patterns that bring back names ``excludes`` left out (`--exclude '*' --include '*.jpg'`).
    public var includes: [String] = []
    /// The job's manifest: an append-only journal of the finished objects, so that the same job, run again after
    /// a crash, Ctrl-C or lost network, skips what is done and resumes large objects from their checkpoints
    /// (kept beside it). Its directory must exist. Removed when a job ends with no failure. `nil` (the default)
    /// for no manifest.
    public var manifestPath: String?

    /// Reads the source as it was at this instant (a download or a copy from a versioned bucket): each key's
    /// version current then, and none of the keys that did not exist then or were deleted. `nil` (the default)
    /// for the current objects. An upload refuses it, as it does an instant in the future. A sync then moves an
    /// object whose `Last-Modified` differs from the destination's time either way, not only when it is newer.
    public var sourceAsOf: Date?

    /// Options with the defaults.
    public init() {}
}
