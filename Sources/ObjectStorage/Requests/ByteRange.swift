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

    /// The `Range` header value, e.g. `bytes=0-99`.
    public var description: String {
        switch self.kind {
        case .closed(let first, let last): return "bytes=\(first)-\(last)"
        case .from(let first): return "bytes=\(first)-"
        case .suffix(let count): return "bytes=-\(count)"
        }
    }
}
