//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The URL parts every scheme shares: the `Host` value and the encoded URL path.
///
/// The path is `/KEY` (virtual-hosted) or `/BUCKET/KEY` (path-style), the key encoded with
/// ``PercentEncoding/Style/path`` and otherwise untouched: `/x` gives `//x`, `a//b` stays `a//b`,
/// `./..` stay. A bucket-level request is `/` or `/BUCKET/`.
struct RequestTarget {
    var host: String
    var path: String

    init(validating request: SigningRequest) throws(SigningError) {
        try Self.validate(request)
        self.host = request.endpoint.hostHeader(bucket: request.bucket, addressing: request.addressing)
        let key = request.key ?? ""
        var buffer = SigningBuffer(capacity: key.utf8.count * 3 + (request.bucket?.utf8.count ?? 0) + 2)
        buffer.append(UInt8(ascii: "/"))
        if request.addressing == .path, let bucket = request.bucket, !bucket.isEmpty {
            buffer.appendPercentEncoded(bucket, style: .path)
            buffer.append(UInt8(ascii: "/"))
        }
        buffer.appendPercentEncoded(key, style: .path)
        self.path = buffer.string
    }

    /// `scheme://host/path?query`, names and values encoded with ``PercentEncoding/Style/component``;
    /// a valueless parameter is written as its bare name.
    func url(scheme: String, query: [QueryParameter]) -> String {
        var buffer = SigningBuffer(capacity: 64 + self.host.utf8.count + self.path.utf8.count + query.count * 48)
        buffer.append(scheme)
        buffer.append("://")
        buffer.append(self.host)
        buffer.append(self.path)
        var separator = UInt8(ascii: "?")
        for parameter in query {
            buffer.append(separator)
            separator = UInt8(ascii: "&")
            buffer.appendPercentEncoded(parameter.name, style: .component)
            if let value = parameter.value {
                buffer.append(UInt8(ascii: "="))
                buffer.appendPercentEncoded(value, style: .component)
            }
        }
        return buffer.string
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
    /// The headers without those named in `names` (lowercase), compared case-insensitively.
    func removing(_ names: Set<String>) -> [HTTPHeader] {
        self.filter { !names.contains($0.name.asciiLowercased) }
    }
}
