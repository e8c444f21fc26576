//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorageSigning

/// What an ETag says about an object's bytes: S3-style services give an object written by one request, and each
/// part of a multipart upload, the hexadecimal MD5 of its bytes, unless the service encrypts it with KMS or a
/// customer's key. A multipart object's ETag (`<hex>-<parts>`) and a weak one are no digest.
enum ETagDigest {
    /// The lowercase hexadecimal MD5 that `etag` is (`"<32 hex>"`, quoted or not), or `nil`.
    static func md5(_ etag: String?) -> String? {
        guard let text = strongValue(etag), text.utf8.count == 32, ByteEncoding.bytes(fromHex: String(text)) != nil
        else { return nil }
        return text.lowercased()
    }

    /// A strong ETag's value without its quotes (`"abc"` or a bare `abc`); `nil` for a weak ETag (`W/"abc"`).
    static func strongValue(_ etag: String?) -> Substring? {
        guard let etag, !etag.hasPrefix("W/") else { return nil }
        var text = Substring(etag)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        return text
    }

    /// The server-side encryption an answer's headers name when it makes the ETag no MD5 (KMS, or a customer's
    /// key), or `nil`.
    static func encryption(in headers: HTTPHeaders) -> String? {
        for header in headers {
            let name = header.name.lowercased()
            if name.hasSuffix("server-side-encryption-customer-algorithm") { return "SSE-C" }
            if name.hasSuffix("server-side-encryption"), header.value.lowercased().contains("kms") {
                return header.value
            }
        }
        return nil
    }
}
