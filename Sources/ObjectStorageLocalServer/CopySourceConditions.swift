//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The conditions a CopyObject or UploadPartCopy puts on its source (`x-oss-copy-source-if-match` and its OBS and
/// S3 twins), evaluated as the three services document them: a condition that does not hold fails the copy with
/// 412 `PreconditionFailed`, never with 304.
///
/// As in S3, `if-match` outranks `if-unmodified-since` (a matching ETag copies even if the object changed since the
/// date) and `if-none-match` outranks `if-modified-since`.
struct CopySourceConditions {
    var ifMatch: String?
    var ifNoneMatch: String?
    var ifModifiedSince: String?
    var ifUnmodifiedSince: String?

    /// Reads the dialect's own copy-source condition headers (the only ones its signature covers).
    init(_ request: IncomingRequest, dialect: StorageVendor) {
        let prefix = dialect.headerPrefix + "copy-source-"
        ifMatch = request.header(prefix + "if-match")
        ifNoneMatch = request.header(prefix + "if-none-match")
        ifModifiedSince = request.header(prefix + "if-modified-since")
        ifUnmodifiedSince = request.header(prefix + "if-unmodified-since")
    }

    /// - Throws: ``ServerError/preconditionFailed(_:)`` naming the header whose condition does not hold.
    func check(_ source: ObjectMetadata, dialect: StorageVendor) throws(ServerError) {
        let prefix = dialect.headerPrefix + "copy-source-"
        if let ifMatch {
            guard ETagMatching.list(ifMatch, matches: source.etag) else {
                throw .preconditionFailed(prefix + "if-match")
            }
        } else if let ifUnmodifiedSince, let date = HTTPDate.parseHTTPDate(ifUnmodifiedSince) {
            guard source.lastModified <= date else { throw .preconditionFailed(prefix + "if-unmodified-since") }
        }
        if let ifNoneMatch {
            guard !ETagMatching.list(ifNoneMatch, matches: source.etag) else {
                throw .preconditionFailed(prefix + "if-none-match")
            }
        } else if let ifModifiedSince, let date = HTTPDate.parseHTTPDate(ifModifiedSince) {
            guard source.lastModified > date else { throw .preconditionFailed(prefix + "if-modified-since") }
        }
    }
}

/// The `x-*-copy-source-range` of an UploadPartCopy: `bytes=first-last`, both offsets given, inside the source.
enum CopySourceRange {
    /// The bytes to copy from a source of `size` bytes: the whole source without a range header.
    ///
    /// - Throws: `InvalidArgument` for a value not of the form `bytes=first-last` with `first <= last` (S3's
    ///   message, in every dialect), or for a range that ends past the source.
    static func bytes(
        _ header: String?,
        sourceSize size: Int64,
        dialect: StorageVendor
    ) throws(ServerError) -> Range<Int64> {
        guard let header else { return 0..<size }
        let name = dialect.headerPrefix + "copy-source-range"
        let text = header.trimmingWhitespace()
        let malformed = ServerError.invalidArgument(
            "The \(name) value must be of the form bytes=first-last where first and last are the zero-based offsets "
                + "of the first and last bytes to copy",
            name: name,
            value: header
        )
        guard text.lowercased().hasPrefix("bytes=") else { throw malformed }
        let bounds = text.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = offset(bounds[0]), let last = offset(bounds[1]), first <= last else {
            throw malformed
        }
        guard last < size else {
            throw .invalidArgument(
                "Range specified is not valid for source object of size: \(size)",
                name: name,
                value: header
            )
        }
        return first..<(last + 1)
    }

    /// A byte offset: decimal digits only, `nil` past `Int64.max`.
    private static func offset(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return Int64(text)
    }
}
