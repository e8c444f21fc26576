//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// Entity-tag comparison (RFC 9110 §8.8.3) across the dialects' spellings (quoted or not, any case).
enum ETagMatching {
    /// The stored form of an entity tag: unquoted, lowercase, without a weak prefix.
    static func normalize(_ tag: String) -> String {
        // esdk-obs-python percent-encodes header values (`%22…%22`); entity tags never contain `%`.
        var value = Substring(IncomingRequest.decode(tag).trimmingWhitespace())
        if value.hasPrefix("W/") { value = value.dropFirst(2) }
        if value.hasPrefix("\"") { value = value.dropFirst() }
        if value.hasSuffix("\"") { value = value.dropLast() }
        return value.lowercased()
    }

    /// Whether a list header (`If-Match`, `If-None-Match`) matches `etag`; `*` matches any.
    static func list(_ header: String, matches etag: String) -> Bool {
        for member in IncomingRequest.decode(header).split(separator: ",") {
            let candidate = String(member).trimmingWhitespace()
            if candidate == "*" || normalize(candidate) == etag { return true }
        }
        return false
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}

/// The outcome of evaluating a GET or HEAD request's preconditions and range.
enum ReadPlan: Equatable {
    case full
    case partial(first: Int64, last: Int64)
    case notModified
}

/// RFC 9110 §13.2.2 evaluation of conditional headers, then §14 ranges, per dialect.
struct ReadPreconditions {
    var ifMatch: String?
    var ifNoneMatch: String?
    var ifModifiedSince: String?
    var ifUnmodifiedSince: String?
    var ifRange: String?
    var range: String?
    /// OSS's `x-oss-range-behavior: standard`.
    var standardRangeBehavior = false

    func evaluate(
        etag: String,
        lastModified: Int64,
        size: Int64,
        dialect: StorageVendor
    ) throws(ServerError) -> ReadPlan {
        if let ifMatch {
            guard ETagMatching.list(ifMatch, matches: etag) else { throw .preconditionFailed("If-Match") }
        } else if let ifUnmodifiedSince, let date = HTTPDate.parseHTTPDate(ifUnmodifiedSince) {
            guard lastModified <= date else { throw .preconditionFailed("If-Unmodified-Since") }
        }
        if let ifNoneMatch {
            if ETagMatching.list(ifNoneMatch, matches: etag) { return .notModified }
        } else if let ifModifiedSince, let date = HTTPDate.parseHTTPDate(ifModifiedSince) {
            if lastModified <= date { return .notModified }
        }
        guard let range else { return .full }
        if let ifRange {
            let trimmed = ifRange.trimmingWhitespace()
            if trimmed.hasPrefix("\"") || trimmed.hasPrefix("W/") {
                // A weak validator never matches in If-Range (strong comparison).
                guard !trimmed.hasPrefix("W/"), ETagMatching.normalize(trimmed) == etag else { return .full }
            } else if let date = HTTPDate.parseHTTPDate(trimmed) {
                guard date == lastModified else { return .full }
            } else {
                return .full
            }
        }
        return try Self.plan(range: range, size: size, dialect: dialect, standard: standardRangeBehavior)
    }

    /// Applies a `Range` header to an object of `size` bytes.
    static func plan(range: String, size: Int64, dialect: StorageVendor, standard: Bool) throws(ServerError) -> ReadPlan
    {
        let trimmed = range.trimmingWhitespace()
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .full }
        let specs = trimmed.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false)
        let lenientOSS = dialect.kind == .oss && !standard
        // OSS serves only the first of several ranges; S3 and OBS ignore a multi-range request.
        guard specs.count == 1 || dialect.kind == .oss, let spec = specs.first else { return .full }
        let parts = String(spec).trimmingWhitespace().split(
            separator: "-",
            maxSplits: 1,
            omittingEmptySubsequences: false
        )
        guard parts.count == 2 else { return .full }
        let firstText = String(parts[0]).trimmingWhitespace()
        let lastText = String(parts[1]).trimmingWhitespace()
        let unsatisfiable = ServerError.invalidRange(size: size, requested: trimmed)
        if firstText.isEmpty {
            // Suffix range: the last N bytes.
            guard let length = offset(lastText) else { return .full }
            guard length > 0, size > 0 else {
                if lenientOSS { return .full }
                throw unsatisfiable
            }
            if length > size && lenientOSS { return .full }
            return .partial(first: max(0, size - length), last: size - 1)
        }
        guard let first = offset(firstText) else { return .full }
        var last = size - 1
        if !lastText.isEmpty {
            guard let value = offset(lastText), value >= first else { return .full }
            last = value
        }
        if first >= size {
            if lenientOSS { return .full }
            throw unsatisfiable
        }
        if last >= size {
            if lenientOSS && !lastText.isEmpty { return .full }
            last = size - 1
        }
        return .partial(first: first, last: last)
    }

    /// A byte position of a range spec: decimal digits only (no sign), `nil` past `Int64.max`.
    private static func offset(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return Int64(text)
    }
}
