//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

/// One byte range a client asked for in its `Range` header (RFC 9110 §14.1.2), before the object's size is known.
///
/// Only a single well-formed range is kept: several ranges (`bytes=0-1,5-6`) are ignored as S3 and OBS ignore them,
/// and a malformed value is ignored as RFC 9110 asks; either way the whole object is served with 200.
enum RequestedRange: Hashable, Sendable {
    /// `bytes=first-last`, `last >= first`.
    case closed(first: Int64, last: Int64)
    /// `bytes=first-`.
    case from(Int64)
    /// `bytes=-count`, `count > 0`.
    case suffix(Int64)

    /// The bytes of an object of a known size that a range selects.
    enum Resolution: Hashable, Sendable {
        /// Bytes `first` through `last`, both included, inside the object.
        case span(first: Int64, last: Int64)
        /// No byte of the object: the answer is 416 with `Content-Range: bytes */SIZE`.
        case unsatisfiable
    }

    /// Parses a `Range` value; `nil` for anything but one well-formed byte range.
    ///
    /// - Parameter value: The header's value (untrusted: numbers past `Int64.max` are refused, never trapped on).
    init?(header value: String) {
        guard let range = ByteRange(httpRangeHeader: value) else { return nil }
        // ByteRange validated the form; its components are read back from its canonical text.
        let spec = range.description.utf8.dropFirst("bytes=".utf8.count)
        guard let dash = spec.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let first = Int64(String(decoding: spec[..<dash], as: UTF8.self))
        let last = Int64(String(decoding: spec[spec.index(after: dash)...], as: UTF8.self))
        switch (first, last) {
        case (let first?, let last?) where last >= first: self = .closed(first: first, last: last)
        case (let first?, nil): self = .from(first)
        case (nil, let count?) where count > 0: self = .suffix(count)
        default: return nil
        }
    }

    /// The range to ask the bucket for.
    var byteRange: ByteRange {
        switch self {
        case .closed(let first, let last): .bytes(first...last)
        case .from(let first): .from(first)
        case .suffix(let count): .suffix(count)
        }
    }

    /// The bytes this range selects in an object of `size` bytes (RFC 9110 §14.1.1): a last byte past the end is
    /// clamped to it, a suffix longer than the object selects all of it, and a first byte at or past the end (or
    /// any range of an empty object) selects nothing.
    ///
    /// - Parameter size: The object's size.
    /// - Returns: The span, or ``Resolution/unsatisfiable``.
    func resolved(size: Int64) -> Resolution {
        guard size > 0 else { return .unsatisfiable }
        switch self {
        case .closed(let first, let last):
            return first < size ? .span(first: first, last: min(last, size - 1)) : .unsatisfiable
        case .from(let first):
            return first < size ? .span(first: first, last: size - 1) : .unsatisfiable
        case .suffix(let count):
            return .span(first: max(0, size - count), last: size - 1)
        }
    }
}
