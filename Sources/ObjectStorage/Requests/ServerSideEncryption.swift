//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Server-side encryption of an object.
public struct ServerSideEncryption: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case aes256
        case kms(keyID: String?)
    }

    let kind: Kind

    /// Keys managed by the service (SSE-S3, SSE-OSS, SSE-OBS): `AES256`.
    public static let aes256 = ServerSideEncryption(kind: .aes256)

    /// A key from the vendor's key management service.
    ///
    /// - Parameter keyID: The key id, or `nil` for the default key.
    /// - Returns: The setting.
    public static func kms(keyID: String? = nil) -> ServerSideEncryption {
        ServerSideEncryption(kind: .kms(keyID: keyID))
    }

    /// The headers to send under `prefix` (`x-oss-`, `x-obs-`, `x-amz-`).
    func headers(prefix: String) -> [(String, String)] {
        switch self.kind {
        case .aes256:
            return [(prefix + "server-side-encryption", "AES256")]
        case .kms(let keyID):
            let value =
                switch prefix {
                case "x-oss-": "KMS"
                case "x-obs-": "kms"
                default: "aws:kms"
                }
            let keyHeader =
                prefix == "x-oss-"
                ? "x-oss-server-side-encryption-key-id"
                : prefix + "server-side-encryption-"
                    + (prefix == "x-obs-" ? "kms-key-id" : "aws-kms-key-id")
            var headers = [(prefix + "server-side-encryption", value)]
            if let keyID { headers.append((keyHeader, keyID)) }
            return headers
        }
    }
}
