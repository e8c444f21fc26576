//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A growable UTF-8 byte buffer for building URLs, canonical requests and strings to sign
/// without intermediate `String`s or arrays.
///
/// One heap block, sized by the caller's estimate and doubled when an estimate falls short;
/// every append checks the remaining room once (not per byte). Non-copyable, so the block has a
/// single owner and is freed exactly once.
struct SigningBuffer: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The number of bytes written.
    private(set) var count: Int

    init(capacity: Int) {
        let capacity = max(capacity, 32)
        self.storage = .allocate(capacity: capacity)
        self.capacity = capacity
        self.count = 0
    }

    deinit { self.storage.deallocate() }

    /// The contents as a `String` (valid UTF-8: only `String`s, their encodings and ASCII are appended).
    var string: String { self.string(from: 0, to: self.count) }

    /// The bytes in `start..<end` as a `String`.
    func string(from start: Int, to end: Int) -> String {
        precondition(0 <= start && start <= end && end <= self.count)
        return String(decoding: UnsafeBufferPointer(start: self.storage + start, count: end - start), as: UTF8.self)
    }

    /// Calls `body` with the bytes written so far.
    func withUnsafeBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: self.storage, count: self.count))
    }

    /// Forgets the contents, keeping the storage.
    mutating func removeAll() { self.count = 0 }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if extra > self.capacity &- self.count { self.grow(extra) }
    }

    @inline(never)
    private mutating func grow(_ extra: Int) {
        let newCapacity = max(self.capacity * 2, self.count + extra)
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.initialize(from: self.storage, count: self.count)
        self.storage.deallocate()
        self.storage = newStorage
        self.capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        self.reserve(1)
        self.storage[self.count] = byte
        self.count &+= 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        self.reserve(bytes.count)
        (self.storage + self.count).initialize(from: source, count: bytes.count)
        self.count &+= bytes.count
    }

    @inline(__always)
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { self.append($0) }
    }

    @inline(__always)
    mutating func append(_ text: Substring) {
        var text = text
        text.withUTF8 { self.append($0) }
    }

    /// Appends `number` in decimal.
    mutating func append(_ number: Int64) {
        guard number >= 0 else {
            self.append(String(number))
            return
        }
        var digits = 1
        var scale: Int64 = 10
        while digits < 19 && number >= scale {
            digits &+= 1
            scale &*= 10
        }
        self.reserve(digits)
        var value = number
        var index = self.count &+ digits
        repeat {
            index &-= 1
            self.storage[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        } while value > 0
        self.count &+= digits
    }

    /// Appends `text` ASCII-lowercased.
    mutating func appendLowercased(_ text: String) {
        var text = text
        text.withUTF8 { source in
            self.reserve(source.count)
            for byte in source {
                self.storage[self.count] = asciiLowercased(byte)
                self.count &+= 1
            }
        }
    }

    /// Appends `text` percent-encoded in `style`.
    @inline(__always)
    mutating func appendPercentEncoded(_ text: String, style: PercentEncoding.Style) {
        var text = text
        text.withUTF8 { self.appendPercentEncoded($0, style: style) }
    }

    /// Appends `source` percent-encoded in `style`: one pass, writing into reserved storage.
    mutating func appendPercentEncoded(_ source: UnsafeBufferPointer<UInt8>, style: PercentEncoding.Style) {
        self.reserve(source.count &* 3)
        let keepSlash = style == .path
        let output = self.storage
        var index = self.count
        for byte in source {
            if PercentEncoding.isUnreserved(byte, keepingSlash: keepSlash) {
                output[index] = byte
                index &+= 1
            } else {
                output[index] = UInt8(ascii: "%")
                output[index &+ 1] = PercentEncoding.hexDigit(byte &>> 4)
                output[index &+ 2] = PercentEncoding.hexDigit(byte & 0x0f)
                index &+= 3
            }
        }
        self.count = index
    }

    /// Appends `value` without leading and trailing spaces and tabs; with `collapsing`, inner runs
    /// of spaces and tabs become one space (the canonical header value rules).
    mutating func appendTrimmed(_ value: String, collapsing: Bool = false) {
        var value = value
        value.withUTF8 { source in
            var start = 0
            var end = source.count
            while start < end && CanonicalHeaders.isSpace(source[start]) { start &+= 1 }
            while end > start && CanonicalHeaders.isSpace(source[end &- 1]) { end &-= 1 }
            let trimmed = UnsafeBufferPointer(rebasing: source[start..<end])
            guard collapsing else {
                self.append(trimmed)
                return
            }
            self.reserve(trimmed.count)
            var previousWasSpace = false
            for byte in trimmed {
                if CanonicalHeaders.isSpace(byte) {
                    if !previousWasSpace { self.append(UInt8(ascii: " ")) }
                    previousWasSpace = true
                } else {
                    self.append(byte)
                    previousWasSpace = false
                }
            }
        }
    }
}
