//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A byte range of an object (`Range: bytes=...`).
public struct ByteRange: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case closed(Int64, Int64)
        case from(Int64)
        case suffix(Int64)
    }

    let kind: Kind

    /// Bytes `range.lowerBound` through `range.upperBound`, both included.
    ///
    /// - Parameter range: The range.
    /// - Returns: The byte range.
    public static func bytes(_ range: ClosedRange<Int64>) -> ByteRange {
        ByteRange(kind: .closed(range.lowerBound, range.upperBound))
    }

    /// Bytes `first` through `last`, both included, checked: unlike ``bytes(_:)`` (whose
    /// `ClosedRange` traps on a reversed pair), a reversed or negative pair throws.
    ///
    /// - Parameters:
    ///   - first: The first byte (≥ 0).
    ///   - last: The last byte (≥ `first`).
    /// - Returns: The byte range.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` when `first` is negative or `last < first`.
    public static func bytes(first: Int64, last: Int64) throws(ObjectStorageError) -> ByteRange {
        let range = ByteRange(kind: .closed(first, last))
        try range.validate()
        return range
    }

    /// Bytes from `offset` to the end.
    ///
    /// - Parameter offset: The first byte.
    /// - Returns: The byte range.
    public static func from(_ offset: Int64) -> ByteRange { ByteRange(kind: .from(offset)) }

    /// The last `count` bytes.
    ///
    /// - Parameter count: How many bytes.
    /// - Returns: The byte range.
    public static func suffix(_ count: Int64) -> ByteRange { ByteRange(kind: .suffix(count)) }

    /// Refuses a range no service can satisfy by its form alone: a negative offset, a reversed
    /// pair, an empty suffix. (A range beyond the object is the service's to refuse: 416.)
    ///
    /// - Throws: ``ObjectStorageError/Code/invalidArgument``.
    package func validate() throws(ObjectStorageError) {
        switch self.kind {
        case .closed(let first, let last):
            guard first >= 0 else { throw .invalidArgument("invalid byte range \(self): the first byte is negative") }
            guard last >= first else {
                throw .invalidArgument("invalid byte range \(self): the last byte is before the first")
            }
        case .from(let first):
            guard first >= 0 else {
                throw .invalidArgument("invalid byte range bytes=\(first)-: the offset is negative")
            }
        case .suffix(let count):
            guard count > 0 else { throw .invalidArgument("invalid byte range: a suffix of \(count) bytes") }
        }
    }

    /// The `Range` header value, e.g. `bytes=0-99`.
    public var description: String {
        switch self.kind {
        case .closed(let first, let last): return "bytes=\(first)-\(last)"
        case .from(let first): return "bytes=\(first)-"
        case .suffix(let count): return "bytes=-\(count)"
        }
    }
}
