//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Makes a presigned URL safe to log: the values of its signature and security-token query
/// parameters are replaced with `REDACTED`; everything else (host, path, expiry, access key id)
/// is kept so the line stays useful.
///
/// ```swift
/// URLRedaction.redacting("https://b.s3.amazonaws.com/k?X-Amz-Expires=900&X-Amz-Signature=8f1c")
/// // "https://b.s3.amazonaws.com/k?X-Amz-Expires=900&X-Amz-Signature=REDACTED"
/// ```
package enum URLRedaction {
    /// The query parameters whose values are redacted, lowercased: the signatures of every scheme
    /// (`Signature`, `X-Amz-Signature`, `x-oss-signature`) and the session tokens
    /// (`X-Amz-Security-Token`, `x-oss-security-token`, `security-token`, `x-obs-security-token`).
    package static let sensitiveQueryNames: Set<String> = [
        "signature", "x-amz-signature", "x-oss-signature", "x-obs-signature",
        "x-amz-security-token", "x-oss-security-token", "security-token", "x-obs-security-token",
    ]

    /// The text that replaces a redacted value.
    package static let placeholder = "REDACTED"

    /// Returns `url` with the values of ``sensitiveQueryNames`` (matched without regard to case,
    /// percent-encoded or not) replaced by ``placeholder``; a URL without a query is returned as is.
    ///
    /// - Parameter url: A URL, typically presigned.
    /// - Returns: The URL, safe to log.
    package static func redacting(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let base = url[..<question]
        var query = url[url.index(after: question)...]
        var fragment: Substring = ""
        if let hash = query.firstIndex(of: "#") {
            fragment = query[hash...]
            query = query[..<hash]
        }
        let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map { parameter -> String in
            guard let equals = parameter.firstIndex(of: "=") else { return String(parameter) }
            let name = parameter[..<equals]
            guard self.sensitiveQueryNames.contains(self.decodedLowercased(name)) else { return String(parameter) }
            return name + "=" + self.placeholder
        }
        return base + "?" + parameters.joined(separator: "&") + fragment
    }

    /// A query name with `%2D`-style escapes decoded, lowercased (names are ASCII).
    private static func decodedLowercased(_ name: Substring) -> String {
        let bytes = Array(name.utf8)
        var decoded: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                decoded.append(value)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self).lowercased()
    }
}
