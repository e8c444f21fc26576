//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One name on one side of a directory job: a local file or a listed object.
struct DirectoryEntry: Sendable {
    /// The name relative to the directory or the prefix, `/`-separated.
    var name: String
    var size: Int64
    /// Whole seconds since 1970: a file's modification time or an object's `Last-Modified`.
    var modifiedSeconds: Int64?
    /// A local file: its path and modification time in nanoseconds (an upload's manifest stamp).
    var path: String?
    var modificationNanoseconds: Int64 = 0
    /// A listed object: its key, ETag and `Last-Modified`, and the version a job as of a time reads.
    var key: String?
    var etag: String?
    var lastModified: Date?
    var versionID: String?
}

/// What one side of a directory job yields, in name order: an entry, or a name it left out.
enum DirectorySideItem: Sendable {
    case entry(DirectoryEntry)
    /// A local name the walk left out (a symbolic link, a name that is not UTF-8, a directory it cannot read),
    /// with the reason as a sentence; a directory's name ends with `/`.
    case skipped(name: String, path: String, reason: String)
}
