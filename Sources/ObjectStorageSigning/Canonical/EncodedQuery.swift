//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Query parameters percent-encoded once (``PercentEncoding/Style/component``) into one buffer,
/// written in arrival order for a URL and, after ``sort()``, as a V4 canonical query.
struct EncodedQuery: ~Copyable {
    /// Where one parameter's encoded name and value lie in ``bytes``.
    struct Entry {
        var nameStart: Int
        var nameEnd: Int
        var valueEnd: Int
        /// `false` for a valueless parameter (`acl`), which a URL writes as its bare name.
        var hasValue: Bool
    }

    private(set) var bytes: SigningBuffer
    private(set) var entries: [Entry]

    /// Creates an empty query with room for `parameterCount` parameters of `byteCount` encoded bytes.
    init(parameterCount: Int, byteCount: Int) {
        self.bytes = SigningBuffer(capacity: byteCount)
        self.entries = []
        self.entries.reserveCapacity(parameterCount)
    }

    /// Encodes `query`, in order.
    init(_ query: [QueryParameter]) {
        self.init(parameterCount: query.count, byteCount: query.count * 64)
        for parameter in query { self.append(name: parameter.name, value: parameter.value) }
    }

    var isEmpty: Bool { self.entries.isEmpty }

    /// Appends a parameter, encoding its name and value.
    mutating func append(name: String, value: String?) {
        let nameStart = self.bytes.count
        self.bytes.appendPercentEncoded(name, style: .component)
        let nameEnd = self.bytes.count
        if let value { self.bytes.appendPercentEncoded(value, style: .component) }
        self.entries.append(
            Entry(nameStart: nameStart, nameEnd: nameEnd, valueEnd: self.bytes.count, hasValue: value != nil)
        )
    }

    /// Appends a parameter whose value `writeEncodedValue` writes, already encoded.
    mutating func append(name: String, writeEncodedValue: (inout SigningBuffer) -> Void) {
        let nameStart = self.bytes.count
        self.bytes.appendPercentEncoded(name, style: .component)
        let nameEnd = self.bytes.count
        writeEncodedValue(&self.bytes)
        self.entries.append(Entry(nameStart: nameStart, nameEnd: nameEnd, valueEnd: self.bytes.count, hasValue: true))
    }

    /// Writes `name=value&name...` in arrival order, each parameter preceded by `?` (the first,
    /// when `first` is `?`) or `&`. A valueless parameter is its bare name.
    func appendURLQuery(to buffer: inout SigningBuffer, first: UInt8 = UInt8(ascii: "?")) {
        self.bytes.withUnsafeBytes { bytes in
            var separator = first
            for entry in self.entries {
                buffer.append(separator)
                separator = UInt8(ascii: "&")
                let end = entry.hasValue ? entry.valueEnd : entry.nameEnd
                buffer.append(UnsafeBufferPointer(rebasing: bytes[entry.nameStart..<entry.nameEnd]))
                if entry.hasValue {
                    buffer.append(UInt8(ascii: "="))
                    buffer.append(UnsafeBufferPointer(rebasing: bytes[entry.nameEnd..<end]))
                }
            }
        }
    }

    /// Sorts the parameters byte-wise by encoded name, then by encoded value.
    mutating func sort() {
        guard self.entries.count > 1 else { return }
        var entries = self.entries
        self.entries = []
        self.bytes.withUnsafeBytes { bytes in
            entries.sort { lhs, rhs in
                let names = Self.compare(bytes, lhs.nameStart, lhs.nameEnd, rhs.nameStart, rhs.nameEnd)
                if names != 0 { return names < 0 }
                return Self.compare(bytes, lhs.nameEnd, lhs.valueEnd, rhs.nameEnd, rhs.valueEnd) < 0
            }
        }
        self.entries = entries
    }

    /// Writes the canonical query: `name=value` joined by `&`, in the current order. An empty
    /// (or absent) value is the bare name when `bareEmptyValues` (OSS V4), `name=` otherwise (SigV4).
    func appendCanonical(to buffer: inout SigningBuffer, bareEmptyValues: Bool) {
        self.bytes.withUnsafeBytes { bytes in
            var first = true
            for entry in self.entries {
                if !first { buffer.append(UInt8(ascii: "&")) }
                first = false
                buffer.append(UnsafeBufferPointer(rebasing: bytes[entry.nameStart..<entry.nameEnd]))
                if !bareEmptyValues || entry.valueEnd > entry.nameEnd {
                    buffer.append(UInt8(ascii: "="))
                    buffer.append(UnsafeBufferPointer(rebasing: bytes[entry.nameEnd..<entry.valueEnd]))
                }
            }
        }
    }

    /// Byte-wise three-way comparison of two ranges of `bytes` (a prefix sorts first).
    @inline(__always)
    private static func compare(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ lhsStart: Int,
        _ lhsEnd: Int,
        _ rhsStart: Int,
        _ rhsEnd: Int
    ) -> Int {
        let lhsCount = lhsEnd - lhsStart
        let rhsCount = rhsEnd - rhsStart
        let common = min(lhsCount, rhsCount)
        var offset = 0
        while offset < common {
            let lhs = bytes[lhsStart + offset]
            let rhs = bytes[rhsStart + offset]
            if lhs != rhs { return lhs < rhs ? -1 : 1 }
            offset += 1
        }
        return lhsCount - rhsCount
    }
}
