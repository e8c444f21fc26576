//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What a directory job reports, one event at a time, in the order things happen: what became of each object, and
/// after each object the job's progress.
///
/// A `name` is relative to the job's directory and prefix, `/`-separated: its object's key is the prefix followed
/// by the name, and its file's path the directory, `/`, then the name. A dry run
/// (``DirectoryTransferOptions/isDryRun``) reports the same events for what it would do.
///
/// The events come from the job's own task, between its objects: a handler that returns quickly keeps the job fast.
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// let summary = try await client.downloadDirectory(bucket: "backups", prefix: "photos/", to: "/srv/photos") { event in
///     switch event {
///     case .transferFailed(let name, let error), .deletionFailed(let name, let error):
///         print("failed: \(name): \(error)")
///     case .progress(let done, let found, _, let isListingComplete):
///         print("\(done) of \(found)\(isListingComplete ? "" : "+") objects")
///     case .transferred, .deleted, .skipped:
///         break
///     }
/// }
/// print("\(summary.transferred) downloaded, \(summary.failed) failed")
/// ```
public enum DirectoryTransferEvent: Sendable {
    /// The object was uploaded, downloaded or copied, whichever the job does: `size` bytes.
    case transferred(name: String, size: Int64)
    /// The transfer failed with `error`; the job goes on with the other objects, and deletes nothing at the end.
    case transferFailed(name: String, error: any Error)
    /// The destination's object (an upload or a copy) or file (a download) was deleted: the source has no such name
    /// (``DirectoryTransferOptions/deletesExtraneous``).
    case deleted(name: String)
    /// The deletion failed with `error`: a ``ServiceError`` with the code and message DeleteObjects gave for the key,
    /// or an ``ObjectStorageError`` for a local file.
    case deletionFailed(name: String, error: any Error)
    /// The name was left alone, and `reason` (a sentence) says why: a key that cannot be a path, a symbolic link, a
    /// name that is not UTF-8, a file that vanished during the job.
    case skipped(name: String, reason: String)
    /// Follows every other event, and each object the destination already had (unchanged, or finished by an earlier
    /// run of the job): the objects finished so far, of those found so far (the total once `isListingComplete`:
    /// both sides were listed to the end), and the bytes transferred so far.
    case progress(objectsDone: Int, objectsFound: Int, bytesTransferred: Int64, isListingComplete: Bool)
}
