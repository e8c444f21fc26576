//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A growable UTF-8 byte buffer for building canonical strings without intermediate `String`s.
struct SigningBuffer {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        self.bytes = []
        self.bytes.reserveCapacity(capacity)
    }

    var count: Int { self.bytes.count }

    /// The contents as a `String` (always valid UTF-8: only `String`s and ASCII are appended).
    var string: String { String(decoding: self.bytes, as: UTF8.self) }

    @inline(__always)
    mutating func append(_ byte: UInt8) { self.bytes.append(byte) }

    @inline(__always)
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { self.bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    mutating func append(_ text: Substring) {
        self.bytes.append(contentsOf: text.utf8)
    }

    mutating func append(_ number: Int64) {
        self.append(String(number))
    }

    /// Appends `text` ASCII-lowercased.
    mutating func appendLowercased(_ text: String) {
        for byte in text.utf8 { self.bytes.append(asciiLowercased(byte)) }
    }

    /// Appends `text` percent-encoded in `style`: one pass over the UTF-8 bytes with a lookup
    /// table, writing into reserved storage.
    mutating func appendPercentEncoded(_ text: String, style: PercentEncoding.Style) {
        var text = text
        text.withUTF8 { source in
            guard !source.isEmpty else { return }
            let start = self.bytes.count
            self.bytes.append(contentsOf: repeatElement(0, count: source.count * 3))
            let written = self.bytes.withUnsafeMutableBufferPointer { destination in
                PercentEncoding.encode(source, style: style, into: destination, at: start)
            }
            self.bytes.removeLast(self.bytes.count - written)
        }
    }
}
