//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A header reduced to its canonical form: lowercase name, value with surrounding whitespace
/// removed, duplicates joined with `,` in arrival order.
struct CanonicalHeader {
    var name: String
    var value: String
}

enum CanonicalHeaders {
    /// Canonical forms of the headers whose lowercased name passes `include`, sorted by name
    /// (byte-wise), duplicates merged. `collapseWhitespace` also squeezes inner runs of spaces
    /// (SigV4 does; the OSS schemes keep inner whitespace).
    static func collect(
        _ headers: [HTTPHeader],
        collapseWhitespace: Bool = false,
        include: (String) -> Bool
    ) -> [CanonicalHeader] {
        var result: [CanonicalHeader] = []
        result.reserveCapacity(headers.count)
        for header in headers {
            let name = header.name.asciiLowercased
            guard include(name) else { continue }
            let value = collapseWhitespace ? collapse(header.value) : trim(header.value)
            if let index = result.firstIndex(where: { $0.name == name }) {
                result[index].value += "," + value
            } else {
                result.append(CanonicalHeader(name: name, value: value))
            }
        }
        result.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return result
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The value without leading and trailing spaces and tabs.
    static func trim(_ value: String) -> String {
        let utf8 = value.utf8
        guard let first = utf8.first, let last = utf8.last, isSpace(first) || isSpace(last) else { return value }
        guard let start = utf8.firstIndex(where: { !isSpace($0) }),
            let end = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(value[start...end])
    }

    /// The value trimmed, with inner runs of spaces/tabs squeezed to one space.
    static func collapse(_ value: String) -> String {
        let trimmed = trim(value)
        var previousWasSpace = false
        var needsWork = false
        for byte in trimmed.utf8 {
            if isSpace(byte) && (previousWasSpace || byte == 0x09) {
                needsWork = true
                break
            }
            previousWasSpace = isSpace(byte)
        }
        guard needsWork else { return trimmed }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(trimmed.utf8.count)
        previousWasSpace = false
        for byte in trimmed.utf8 {
            if isSpace(byte) {
                if !previousWasSpace { bytes.append(0x20) }
                previousWasSpace = true
            } else {
                bytes.append(byte)
                previousWasSpace = false
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
