//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore

/// The bytes of one object version or part. Never modified once committed: a new version is a new
/// blob, so a reader holding an open blob never sees bytes of two versions.
enum Blob: Sendable {
    /// Immutable files read one after another: one file, or the parts of a multipart object (completing an
    /// upload does not copy them). Removed when the version they hold is replaced (open readers keep them alive).
    case files([BlobFile])
    /// Buffers in memory read one after another: one buffer, or the parts of a multipart object (completing an
    /// upload does not copy them either).
    case memory([ByteBuffer])

    /// One file of `size` bytes.
    static func file(_ path: String, size: Int64) -> Blob { .files([BlobFile(path: path, size: size)]) }

    /// The files holding the bytes, in order (none for a memory blob).
    var paths: [String] {
        switch self {
        case .files(let files): files.map(\.path)
        case .memory: []
        }
    }
}

/// One file of a ``Blob``.
struct BlobFile: Sendable, Hashable {
    var path: String
    var size: Int64
}
