//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The URL parts every scheme shares: the `Host` value and the encoded URL path, written on
/// demand straight into the caller's buffer.
///
/// The path is `/KEY` (virtual-hosted) or `/BUCKET/KEY` (path-style), the key encoded with
/// ``PercentEncoding/Style/path`` and otherwise untouched: `/x` gives `//x`, `a//b` stays `a//b`,
/// `./..` stay. A bucket-level request is `/` or `/BUCKET/`.
struct RequestTarget {
    let endpoint: Endpoint
    let bucket: String?
    let key: String?
    let addressing: AddressingStyle

    init(validating request: SigningRequest) throws(SigningError) {
        try Self.validate(request)
        self.endpoint = request.endpoint
        self.bucket = request.bucket
        self.key = request.key
        self.addressing = request.addressing
    }

    /// The `Host` header value.
    var host: String { self.endpoint.hostHeader(bucket: self.bucket, addressing: self.addressing) }

    /// The encoded URL path.
    var path: String {
        var buffer = SigningBuffer(capacity: self.pathCapacity)
        self.appendPath(to: &buffer)
        return buffer.string
    }

    /// An upper bound for the encoded path's length.
    var pathCapacity: Int { (self.key?.utf8.count ?? 0) * 3 + (self.bucket?.utf8.count ?? 0) * 3 + 2 }

    /// An upper bound for `scheme://host/path`.
    var urlPrefixCapacity: Int {
        self.endpoint.scheme.utf8.count + self.endpoint.host.utf8.count + (self.bucket?.utf8.count ?? 0) + 12
            + self.pathCapacity
    }

    /// Writes the `Host` value: `BUCKET.host[:port]` (virtual-hosted) or `host[:port]`.
    func appendHost(to buffer: inout SigningBuffer) {
        if self.addressing == .virtualHosted, let bucket = self.bucket, !bucket.isEmpty {
            buffer.append(bucket)
            buffer.append(UInt8(ascii: "."))
        }
        buffer.append(self.endpoint.host)
        if let port = self.endpoint.explicitPort {
            buffer.append(UInt8(ascii: ":"))
            buffer.append(Int64(port))
        }
    }

    /// Writes the encoded path.
    func appendPath(to buffer: inout SigningBuffer) {
        buffer.append(UInt8(ascii: "/"))
        if self.addressing == .path, let bucket = self.bucket, !bucket.isEmpty {
            buffer.appendPercentEncoded(bucket, style: .path)
            buffer.append(UInt8(ascii: "/"))
        }
        if let key = self.key { buffer.appendPercentEncoded(key, style: .path) }
    }

    /// Writes `scheme://host/path`.
    func appendURLPrefix(to buffer: inout SigningBuffer) {
        buffer.append(self.endpoint.scheme)
        buffer.append("://")
        self.appendHost(to: &buffer)
        self.appendPath(to: &buffer)
    }

    /// `scheme://host/path?query`, names and values encoded with ``PercentEncoding/Style/component``;
    /// a valueless parameter is written as its bare name.
    func url(query: [QueryParameter]) -> String {
        var buffer = SigningBuffer(capacity: self.urlPrefixCapacity + query.count * 48)
        self.appendURL(query: query, to: &buffer)
        return buffer.string
    }

    /// Writes `scheme://host/path` and the parameters of `query` whose name `include` accepts, in order, as
    /// ``url(query:)`` does.
    ///
    /// - Returns: The separator a further parameter takes: `?` when none was written, `&` otherwise.
    @discardableResult
    func appendURL(
        query: [QueryParameter],
        to buffer: inout SigningBuffer,
        where include: (String) -> Bool = { _ in true }
    ) -> UInt8 {
        self.appendURLPrefix(to: &buffer)
        var separator = UInt8(ascii: "?")
        for parameter in query where include(parameter.name) {
            buffer.append(separator)
            separator = UInt8(ascii: "&")
            buffer.appendPercentEncoded(parameter.name, style: .component)
            if let value = parameter.value {
                buffer.append(UInt8(ascii: "="))
                buffer.appendPercentEncoded(value, style: .component)
            }
        }
        return separator
    }

    private static func validate(_ request: SigningRequest) throws(SigningError) {
        guard !request.method.isEmpty, request.method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw .invalidRequest("invalid HTTP method '\(request.method)'")
        }
        let bucket = request.bucket ?? ""
        if bucket.isEmpty, let key = request.key, !key.isEmpty {
            throw .invalidRequest("an object key needs a bucket")
        }
        if bucket.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 < 0x21 || $0 == 0x7f }) {
            throw .invalidRequest("invalid bucket name '\(bucket)'")
        }
        if request.endpoint.host.isEmpty {
            throw .invalidEndpoint(request.endpoint.description, reason: "the host is empty")
        }
        for header in request.headers {
            let name = header.name.utf8
            guard !name.isEmpty,
                name.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != UInt8(ascii: ":") })
            else {
                throw .invalidRequest("invalid header name '\(header.name)'")
            }
            if header.value.utf8.contains(where: { $0 == 0x0a || $0 == 0x0d || $0 == 0 }) {
                throw .invalidRequest("the value of header '\(header.name)' contains a line break")
            }
        }
    }
}

extension Array where Element == HTTPHeader {
    /// The headers whose name does not satisfy `isReplaced` (which receives the name as written).
    func removing(where isReplaced: (String) -> Bool) -> [HTTPHeader] {
        guard !self.isEmpty else { return [] }
        return self.filter { !isReplaced($0.name) }
    }
}

extension String {
    /// Whether the string equals `lowercaseName` ignoring ASCII case (`lowercaseName` is lowercase).
    @inline(__always)
    func isNamed(_ lowercaseName: String) -> Bool { asciiCaseInsensitiveEquals(self, lowercaseName) }
}
