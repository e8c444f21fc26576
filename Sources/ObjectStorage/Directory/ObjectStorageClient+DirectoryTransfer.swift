//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import ObjectStorageCheckpoint

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ObjectStorageClient {
    /// Uploads the regular files under a directory to keys under a prefix: `cp -r DIR URL/`, or with
    /// ``DirectoryTransferOptions/comparison`` set, `sync DIR URL/`.
    ///
    /// A file's key is `prefix` followed by its path relative to `directory`, `/`-separated, with the name's bytes
    /// as the file system gives them (no Unicode normalization: a macOS name in NFD keeps its NFD bytes).
    /// The walk and the listing are merged in key order, streamed; transfers start while they go on, within
    /// ``DirectoryTransferOptions/concurrency``. A file that cannot be a key (too long), a symbolic link (unless
    /// followed) or a name that is not UTF-8 is skipped and reported; a failed upload is reported and the job
    /// goes on. Empty directories are not uploaded.
    ///
    /// With a ``DirectoryTransferOptions/manifestPath``, every finished file is recorded durably as it finishes,
    /// so the same call, repeated after a crash, skips it (unless the file changed since) and resumes large
    /// files from their checkpoints; at most the files in flight are sent again.
    ///
    /// - Parameters:
    ///   - directory: The local directory.
    ///   - bucket: The bucket.
    ///   - prefix: Prepended to every relative path; end it with `/` for a "folder" (`""` for the bucket's root).
    ///   - attributes: The attributes of every uploaded object (content type, when `nil`, from each file's name).
    ///   - options: Which files move and how.
    ///   - logger: The logger (the client's when `nil`).
    ///   - events: Called with what becomes of each file (uploaded, skipped, failed) and of each extraneous object
    ///     (deleted), each followed by the job's progress; see ``DirectoryTransferEvent``.
    /// - Returns: The totals: every file made it when ``DirectoryTransferSummary/failed`` and
    ///   ``DirectoryTransferSummary/skipped`` are zero.
    /// - Throws: ``ObjectStorageError`` for invalid options, a directory that cannot be read, or a manifest that
    ///   is locked, belongs to another job or cannot be written; listing errors; `CancellationError`.
    public func uploadDirectory(
        _ directory: String,
        bucket: String,
        prefix: String = "",
        attributes: UploadAttributes = UploadAttributes(),
        options: DirectoryTransferOptions = DirectoryTransferOptions(),
        logger: Logger? = nil,
        events: (@Sendable (DirectoryTransferEvent) -> Void)? = nil
    ) async throws -> DirectoryTransferSummary {
        try Self.validate(options, bucket: bucket)
        if let asOf = options.sourceAsOf {
            throw ObjectStorageError.invalidArgument(
                "an upload reads local files, which keep no versions as of \(asOf.formatted(.iso8601))"
            )
        }
        let job = DirectoryJob(
            client: self,
            direction: .upload,
            bucket: bucket,
            prefix: prefix,
            directory: try Self.absoluteDirectory(directory, creating: false),
            root: nil,
            copySource: nil,
            attributes: attributes,
            options: options,
            logger: self.transferLogger("UploadDirectory", bucket: bucket, key: prefix, logger),
            events: events
        )
        return try await job.run()
    }

    /// Downloads the objects under a prefix into a directory: `cp -r URL/ DIR`, or with
    /// ``DirectoryTransferOptions/comparison`` set, `sync URL/ DIR`.
    ///
    /// An object's path is `directory` joined with its key minus `prefix`. A key that would leave the directory
    /// or change meaning as a path (`../`, an absolute path, a backslash, a control character, an empty
    /// component) is skipped and reported, never written; so is a key whose path crosses a symbolic link, and one
    /// of two keys that a file system cannot hold together (`a` and `a/b`: whichever finds the other's file or
    /// directory in its way). Keys ending in `/` (directory markers) are ignored. Each file appears at its path
    /// only once complete (written beside it, then renamed) and gets the object's `Last-Modified` as its
    /// modification time.
    /// Small objects are one GET each, with `If-Match` on the listed ETag; the job flushes them to disk with
    /// one `syncfs` before each manifest sync and at the end.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: The keys to download (`""` for the whole bucket); end it with `/` for a "folder".
    ///   - directory: The local directory, created when missing (and removed again, if still empty, when the job
    ///     throws).
    ///   - options: Which objects move and how.
    ///   - logger: The logger (the client's when `nil`).
    ///   - events: Called with what becomes of each object (downloaded, skipped, failed) and of each extraneous file
    ///     (deleted), each followed by the job's progress; see ``DirectoryTransferEvent``.
    /// - Returns: The totals.
    /// - Throws: As ``uploadDirectory(_:bucket:prefix:attributes:options:logger:events:)``.
    public func downloadDirectory(
        bucket: String,
        prefix: String = "",
        to directory: String,
        options: DirectoryTransferOptions = DirectoryTransferOptions(),
        logger: Logger? = nil,
        events: (@Sendable (DirectoryTransferEvent) -> Void)? = nil
    ) async throws -> DirectoryTransferSummary {
        try Self.validate(options, bucket: bucket)
        let existed = FileManager.default.fileExists(atPath: directory)
        let absolute = try Self.absoluteDirectory(directory, creating: !options.isDryRun)
        let job = DirectoryJob(
            client: self,
            direction: .download,
            bucket: bucket,
            prefix: prefix,
            directory: absolute,
            root: options.isDryRun ? nil : try Self.open(absolute),
            copySource: nil,
            attributes: UploadAttributes(),
            options: options,
            logger: self.transferLogger("DownloadDirectory", bucket: bucket, key: prefix, logger),
            events: events
        )
        do {
            return try await job.run()
        } catch {
            // A missing bucket or refused credentials leave no empty directory behind (rmdir removes only an empty one).
            if !existed { LocalPaths.removeIfEmptyDirectory(absolute) }
            throw error
        }
    }

    /// Copies the objects under a prefix to another prefix, in the same bucket or another: `cp -r URL/ URL/`, or
    /// with ``DirectoryTransferOptions/comparison`` set, `sync URL/ URL/`.
    ///
    /// Each object's key is `prefix` followed by its key minus `sourcePrefix`. With no `source` client the copies
    /// are server-side (CopyObject, or UploadPartCopy above ``DirectoryTransferOptions/largeObjectThreshold``);
    /// with one (another endpoint, provider or account) the bytes stream through this process, part by part, and
    /// are verified end to end (see ``resumableCopy(bucket:key:from:sourceBucket:sourceKey:sourceVersionID:attributes:replacesMetadata:options:logger:progress:)``).
    /// The two listings are merged in key order; a sync compares sizes and, with
    /// ``DirectoryTransferOptions/Comparison/checksum``, the two ETags when both are MD5s.
    ///
    /// - Parameters:
    ///   - bucket: The destination bucket.
    ///   - prefix: The destination prefix.
    ///   - source: The source's client, or `nil` for this client (server-side copies).
    ///   - sourceBucket: The source bucket.
    ///   - sourcePrefix: The source prefix.
    ///   - attributes: The attributes of every copy (metadata is copied from the source when empty).
    ///   - options: Which objects move and how.
    ///   - logger: The logger (the client's when `nil`).
    ///   - events: Called with what becomes of each object (copied, skipped, failed) and of each extraneous one
    ///     (deleted), each followed by the job's progress; see ``DirectoryTransferEvent``.
    /// - Returns: The totals.
    /// - Throws: As ``uploadDirectory(_:bucket:prefix:attributes:options:logger:events:)``.
    public func copyPrefix(
        bucket: String,
        prefix: String = "",
        from source: ObjectStorageClient? = nil,
        sourceBucket: String,
        sourcePrefix: String = "",
        attributes: UploadAttributes = UploadAttributes(),
        options: DirectoryTransferOptions = DirectoryTransferOptions(),
        logger: Logger? = nil,
        events: (@Sendable (DirectoryTransferEvent) -> Void)? = nil
    ) async throws -> DirectoryTransferSummary {
        try Self.validate(options, bucket: bucket)
        try ObjectNameRules.validateBucketReference(sourceBucket)
        if source == nil, sourceBucket == bucket, !prefix.isEmpty || !sourcePrefix.isEmpty,
            prefix.utf8.starts(with: sourcePrefix.utf8) || sourcePrefix.utf8.starts(with: prefix.utf8)
        {
            throw ObjectStorageError.invalidArgument(
                "the prefixes '\(sourcePrefix)' and '\(prefix)' of bucket '\(bucket)' overlap: a copy would read what it writes"
            )
        }
        if source == nil, sourceBucket == bucket, prefix.isEmpty || sourcePrefix.isEmpty {
            throw ObjectStorageError.invalidArgument(
                "a copy within bucket '\(bucket)' needs two prefixes that do not contain each other"
            )
        }
        let job = DirectoryJob(
            client: self,
            direction: .copy,
            bucket: bucket,
            prefix: prefix,
            directory: "",
            root: nil,
            copySource: .init(client: source, bucket: sourceBucket, prefix: sourcePrefix),
            attributes: attributes,
            options: options,
            logger: self.transferLogger("CopyPrefix", bucket: bucket, key: prefix, logger),
            events: events
        )
        return try await job.run()
    }

    private static func validate(_ options: DirectoryTransferOptions, bucket: String) throws(ObjectStorageError) {
        try ObjectNameRules.validateBucketReference(bucket)
        guard (1...TransferOptions.maximumConcurrency).contains(options.concurrency) else {
            throw .invalidArgument(
                "the directory job's concurrency must be between 1 and \(TransferOptions.maximumConcurrency), not \(options.concurrency)"
            )
        }
        guard options.largeObjectThreshold >= 1 else {
            throw .invalidArgument(
                "the large-object threshold must be at least 1 byte, not \(options.largeObjectThreshold)"
            )
        }
        if let asOf = options.sourceAsOf, asOf > Date() {
            throw .invalidArgument("cannot read the source as of \(asOf.formatted(.iso8601)), which is in the future")
        }
    }

    /// A download's directory, held open (see ``DirectoryHandle``).
    private static func open(_ directory: String) throws(ObjectStorageError) -> DirectoryHandle {
        do {
            return try DirectoryHandle.open(directory)
        } catch {
            throw .downloadFile("open the directory", error)
        }
    }

    /// The directory as an absolute path without a trailing `/` (the manifest names the job by it).
    private static func absoluteDirectory(_ directory: String, creating: Bool) throws(ObjectStorageError) -> String {
        guard !directory.isEmpty, !directory.utf8.contains(0) else {
            throw .invalidArgument("the local directory path is empty or contains NUL")
        }
        if creating {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw ObjectStorageError.fileSystem("create the directory", path: directory)
            }
        }
        return try LocalPaths.resolved(directory)
    }
}
