//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What OSS V1, OBS and AWS V2 share: one string-to-sign layout, signed with base64 HMAC-SHA1.
///
/// ```
/// StringToSign = VERB "\n" Content-MD5 "\n" Content-Type "\n" Date "\n"
///                CanonicalizedHeaders CanonicalizedResource
/// ```
///
/// The schemes differ in the header prefix (`x-oss-`, `x-obs-`, `x-amz-`), the date line and the resource.
enum HMACSHA1Signature {
    /// Writes `VERB\nContent-MD5\nContent-Type\n`, the values trimmed (empty when absent).
    static func appendHead(method: String, headers: [HTTPHeader], to buffer: inout SigningBuffer) {
        buffer.append(method)
        buffer.append(UInt8(ascii: "\n"))
        if let contentMD5 = headers.first(named: "content-md5") { buffer.appendTrimmed(contentMD5) }
        buffer.append(UInt8(ascii: "\n"))
        if let contentType = headers.first(named: "content-type") { buffer.appendTrimmed(contentType) }
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Writes the CanonicalizedHeaders: every header named with `prefix`, `name:value\n`, lowercase name,
    /// value trimmed, sorted, duplicates joined with `,`.
    static func appendPrefixedHeaders(_ headers: [HTTPHeader], prefix: String, to buffer: inout SigningBuffer) {
        guard !headers.isEmpty else { return }
        for header in CanonicalHeaders.collect(headers, include: { $0.hasPrefix(prefix) }) {
            buffer.append(header.name)
            buffer.append(UInt8(ascii: ":"))
            buffer.append(header.value)
            buffer.append(UInt8(ascii: "\n"))
        }
    }

    /// The signature: base64 of HMAC-SHA1 of `stringToSign` under the (cached) keyed `secret`.
    static func sign(_ stringToSign: borrowing SigningBuffer, secret: String) -> String {
        stringToSign.withUnsafeBytes { SigningMAC.sha1(secret: secret).base64(for: $0) }
    }

    /// Whether the string to sign covers a header: `content-type`, `content-md5`, or one named with `prefix`
    /// (OSS V4 signs the same headers without listing them).
    ///
    /// - Parameters:
    ///   - lowercasedName: The lowercase header name.
    ///   - prefix: The scheme's header prefix, e.g. `x-oss-`.
    /// - Returns: Whether the header is signed.
    static func signs(_ lowercasedName: String, prefix: String) -> Bool {
        lowercasedName.hasPrefix(prefix) || lowercasedName == "content-type" || lowercasedName == "content-md5"
    }

    /// Writes the CanonicalizedResource's sub-resources, `?name=value&name...`: `parameters` sorted by name (byte
    /// order), values raw.
    ///
    /// - Parameters:
    ///   - parameters: The sub-resources to write, already chosen by the scheme.
    ///   - encodingNames: Whether names are percent-encoded (OBS and AWS V2) or raw (OSS V1).
    ///   - omittingEmptyValues: Whether an empty value is written as a bare `name` (OSS V1) or as `name=` (OBS).
    ///   - buffer: The string to sign.
    static func appendSubresources(
        _ parameters: [QueryParameter],
        encodingNames: Bool,
        omittingEmptyValues: Bool,
        to buffer: inout SigningBuffer
    ) {
        guard !parameters.isEmpty else { return }
        var separator = UInt8(ascii: "?")
        for parameter in parameters.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            buffer.append(separator)
            separator = UInt8(ascii: "&")
            if encodingNames {
                buffer.appendPercentEncoded(parameter.name, style: .path)
            } else {
                buffer.append(parameter.name)
            }
            if let value = parameter.value, !omittingEmptyValues || !value.isEmpty {
                buffer.append(UInt8(ascii: "="))
                buffer.append(value)
            }
        }
    }
}
