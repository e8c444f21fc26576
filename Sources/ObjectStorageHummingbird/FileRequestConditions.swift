//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Hummingbird
import ObjectStorageSigning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The headers of a client's GET or HEAD that decide what a file server answers: the range and the conditions.
///
/// Values that cannot be read are ignored, as RFC 9110 asks: a malformed `Range`, an `If-Modified-Since` that is not
/// an HTTP date, an `If-Range` that is neither an entity tag nor a date (which then never matches).
struct FileRequestConditions: Sendable {
    /// The single byte range asked for; `nil` without one, for several, or for a malformed value.
    var range: RequestedRange?
    /// `If-None-Match`, forwarded to the bucket as it came.
    var ifNoneMatch: String?
    /// `If-Modified-Since`, read only without `If-None-Match` (RFC 9110 §13.1.3).
    var ifModifiedSince: Date?
    /// `If-Range`, only with a range (it means nothing without one).
    var ifRange: IfRange?

    /// The validator of an `If-Range` header (RFC 9110 §13.1.5).
    enum IfRange: Sendable, Equatable {
        /// A strong entity tag, its opaque text without quotes.
        case etag(String)
        /// An HTTP date, compared with `Last-Modified` to the second.
        case date(SigningTimestamp)
        /// A weak tag or unreadable text: never matches, so the whole object is served.
        case never
    }

    /// Reads the conditions of a request's headers.
    ///
    /// - Parameter headers: The request's header fields.
    init(headers: HTTPFields) {
        self.range = headers[.range].flatMap(RequestedRange.init(header:))
        self.ifNoneMatch = headers[.ifNoneMatch]
        if self.ifNoneMatch == nil {
            self.ifModifiedSince = headers[.ifModifiedSince].flatMap { SigningTimestamp(httpDate: $0)?.date }
        }
        if self.range != nil, let value = headers[.ifRange] {
            self.ifRange = Self.readIfRange(value)
        }
    }

    private static func readIfRange(_ value: String) -> IfRange {
        let trimmed = value.trimmingSpaces
        if trimmed.hasPrefix("\"") {
            guard let tag = EntityTag.opaque(trimmed) else { return .never }
            return .etag(tag)
        }
        if trimmed.hasPrefix("W/") { return .never }
        return SigningTimestamp(httpDate: trimmed).map(IfRange.date) ?? .never
    }

    /// Whether an `If-Range` validator holds for the object an answer describes: a strong entity tag equal to the
    /// answer's (strong comparison: neither weak), or a date equal to its `Last-Modified`. Without `If-Range`, true.
    ///
    /// - Parameters:
    ///   - etag: The answer's `ETag`, as the service sent it.
    ///   - lastModified: The answer's `Last-Modified`.
    /// - Returns: Whether the range stands.
    func rangeStands(etag: String?, lastModified: Date?) -> Bool {
        switch self.ifRange {
        case nil: return true
        case .etag(let tag):
            guard let etag, let answered = EntityTag.opaque(etag.trimmingSpaces) else { return false }
            return answered == tag
        case .date(let date):
            guard let lastModified else { return false }
            return SigningTimestamp(lastModified) == date
        case .never: return false
        }
    }

    /// The entity tag to send in a 304 without asking the bucket again: the one `If-None-Match` named, when it
    /// named exactly one (that tag is the one that matched).
    var notModifiedETag: String? {
        guard let value = self.ifNoneMatch?.trimmingSpaces, !value.contains(","), value != "*", !value.isEmpty
        else { return nil }
        return value
    }
}

/// Entity tags as services and clients spell them.
enum EntityTag {
    /// The opaque text of a strong tag, `"abc"` → `abc`; `nil` for a weak tag (`W/"abc"`). Services that send the
    /// tag without quotes are accepted as they send it.
    ///
    /// - Parameter tag: The tag, trimmed.
    /// - Returns: The text between the quotes.
    static func opaque(_ tag: String) -> String? {
        guard !tag.hasPrefix("W/") else { return nil }
        var text = Substring(tag)
        if text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2 { text = text.dropFirst().dropLast() }
        return String(text)
    }
}

extension String {
    /// The text without the spaces and tabs around it.
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
