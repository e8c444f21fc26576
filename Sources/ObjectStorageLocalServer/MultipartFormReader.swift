//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore

/// Reads a `multipart/form-data` body (RFC 7578) as a POST object upload sends it: the fields before the one
/// named `file` are read into memory, bounded; the file's bytes are then streamed out as they arrive, up to the
/// delimiter that ends them. Whatever follows the file is not read (the services ignore it).
struct MultipartFormReader<Source: AsyncIteratorProtocol> where Source.Element == ByteBuffer {
    /// One field before the file.
    struct Field: Sendable {
        var name: String
        var value: String
    }

    /// The file part's own headers.
    struct FilePart: Sendable {
        /// The `filename` parameter of its `Content-Disposition`, if any.
        var filename: String?
        /// Its `Content-Type`, if any.
        var contentType: String?
    }

    /// Why a body is not a well-formed form.
    struct Malformed: Error, Sendable {
        var reason: String
    }

    /// The most bytes of fields before the file (names, values and part headers): S3's 20 KiB, plus room for
    /// the part headers.
    static var maximumFieldBytes: Int { 20 * 1024 + 8 * 1024 }
    /// The most fields before the file.
    static var maximumFieldCount: Int { 256 }
    /// The longest part header block.
    static var maximumPartHeaderBytes: Int { 8 * 1024 }

    private var source: Source
    private var pending: [UInt8] = []
    private var finished = false
    /// `\r\n--BOUNDARY`: what ends a part's content.
    private let delimiter: [UInt8]
    private var consumedFieldBytes = 0

    /// - Parameters:
    ///   - boundary: The `boundary` parameter of the request's `Content-Type`.
    ///   - source: The body's buffers.
    init(boundary: String, source: Source) {
        self.delimiter = Array("\r\n--\(boundary)".utf8)
        self.source = source
    }

    /// The boundary of a `multipart/form-data` content type, or `nil` when it is another type.
    static func boundary(contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingWhitespace() }
        guard let type = parts.first, type.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            guard parameter[..<equals].trimmingWhitespace().lowercased() == "boundary" else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            guard (1...70).contains(value.utf8.count) else { return nil }
            return value
        }
        return nil
    }

    /// Reads the fields up to the file part.
    ///
    /// - Returns: The fields in order, and the file part (`nil` when the form has no field named `file`).
    /// - Throws: ``Malformed`` for a body that is not a form, or one whose fields exceed the bounds.
    mutating func readFields() async throws -> (fields: [Field], file: FilePart?) {
        // The body starts with `--BOUNDARY` (any preamble before it is skipped).
        let opening = Array(self.delimiter.dropFirst(2))
        pending = []
        while true {
            if let range = pending.firstRange(of: opening) {
                pending.removeSubrange(..<range.upperBound)
                break
            }
            guard pending.count < Self.maximumPartHeaderBytes else { throw Malformed(reason: "no opening boundary") }
            guard try await fill() else { throw Malformed(reason: "no opening boundary") }
        }
        var fields: [Field] = []
        while true {
            // After a boundary: `--` ends the form, CRLF starts a part.
            while pending.count < 2 {
                guard try await fill() else { throw Malformed(reason: "the form ends without its closing boundary") }
            }
            if pending[0] == UInt8(ascii: "-"), pending[1] == UInt8(ascii: "-") { return (fields, nil) }
            let headers = try await readPartHeaders()
            guard let disposition = headers["content-disposition"],
                let name = Self.parameter("name", in: disposition)
            else { throw Malformed(reason: "a part has no Content-Disposition name") }
            if name.lowercased() == "file" {
                return (
                    fields,
                    FilePart(
                        filename: Self.parameter("filename", in: disposition),
                        contentType: headers["content-type"]
                    )
                )
            }
            var value: [UInt8] = []
            let ended = try await readContent { bytes in
                value += bytes
                guard value.count <= Self.maximumFieldBytes else { throw Malformed(reason: "a field is too large") }
            }
            guard ended else { throw Malformed(reason: "the form ends inside a field") }
            consumedFieldBytes += value.count + name.utf8.count
            guard consumedFieldBytes <= Self.maximumFieldBytes, fields.count < Self.maximumFieldCount else {
                throw Malformed(reason: "the fields before the file exceed \(Self.maximumFieldBytes) bytes")
            }
            fields.append(Field(name: name, value: String(decoding: value, as: UTF8.self)))
        }
    }

    /// Streams the file's bytes to `sink` until the delimiter that ends them.
    ///
    /// - Parameter sink: Called with each run of content bytes, in order.
    /// - Throws: ``Malformed`` when the body ends before the delimiter; whatever `sink` throws.
    mutating func readFile(into sink: (ByteBuffer) async throws -> Void) async throws {
        let ended = try await readContent { bytes in try await sink(ByteBuffer(bytes: bytes)) }
        guard ended else { throw Malformed(reason: "the form ends inside the file") }
    }

    // MARK: Parts

    private mutating func readPartHeaders() async throws -> [String: String] {
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let range = pending.firstRange(of: terminator) {
                // The block starts after the CRLF that follows the boundary.
                let block = pending[pending.startIndex..<range.lowerBound]
                pending.removeSubrange(..<range.upperBound)
                consumedFieldBytes += block.count
                var headers: [String: String] = [:]
                for line in String(decoding: block, as: UTF8.self).split(separator: "\r\n") {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    let name = line[..<colon].trimmingWhitespace().lowercased()
                    headers[name] = line[line.index(after: colon)...].trimmingWhitespace()
                }
                return headers
            }
            guard pending.count <= Self.maximumPartHeaderBytes else {
                throw Malformed(reason: "a part header is too long")
            }
            guard try await fill() else { throw Malformed(reason: "the form ends inside a part header") }
        }
    }

    /// Reads one part's content up to the next delimiter, which it consumes, handing the bytes to `emit` in runs.
    ///
    /// - Returns: Whether the delimiter was found (`false`: the body ended first).
    private mutating func readContent(_ emit: (ArraySlice<UInt8>) async throws -> Void) async throws -> Bool {
        while true {
            if let range = pending.firstRange(of: delimiter) {
                if range.lowerBound > 0 { try await emit(pending[..<range.lowerBound]) }
                pending.removeSubrange(..<range.upperBound)
                return true
            }
            // Everything but a possible start of the delimiter is content.
            let safe = pending.count - (delimiter.count - 1)
            if safe > 0 {
                try await emit(pending[..<safe])
                pending.removeSubrange(..<safe)
            }
            guard try await fill() else { return false }
        }
    }

    /// Appends the next buffer of the body; `false` at its end.
    private mutating func fill() async throws -> Bool {
        guard !finished else { return false }
        guard let buffer = try await source.next() else {
            finished = true
            return false
        }
        pending += buffer.readableBytesView
        return true
    }

    /// The value of `name="…"` (or an unquoted value) in a `Content-Disposition` header.
    static func parameter(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let trimmed = part.trimmingWhitespace()
            guard let equals = trimmed.firstIndex(of: "="),
                trimmed[..<equals].trimmingWhitespace().lowercased() == name
            else { continue }
            var value = trimmed[trimmed.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String { String(self).trimmingWhitespace() }
}
