//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The payload hash a V4 signature commits to (`x-amz-content-sha256` / `x-oss-content-sha256`).
package struct PayloadHash: Hashable, Sendable, CustomStringConvertible {
    /// The value written into the header and the canonical request.
    package let value: String

    private init(value: String) { self.value = value }

    /// `UNSIGNED-PAYLOAD`: the body is not covered by the signature (TLS protects it in transit).
    /// The only value OSS V4 accepts, and what presigned URLs always use.
    package static let unsigned = PayloadHash(value: "UNSIGNED-PAYLOAD")

    /// The SHA-256 of an empty body.
    package static let emptySHA256 = PayloadHash(
        value: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )

    /// The SHA-256 of the body, as 64 hex digits (lowercased here).
    ///
    /// - Parameter hex: The hex digest.
    /// - Returns: The payload hash.
    package static func sha256(hex: String) -> PayloadHash { PayloadHash(value: hex.lowercased()) }

    /// The SHA-256 of `body`.
    ///
    /// - Parameter body: The request body.
    /// - Returns: The payload hash.
    package static func sha256<Body: Collection>(of body: Body) -> PayloadHash where Body.Element == UInt8 {
        PayloadHash(value: ByteEncoding.hex(Hashing.SHA256.hash(body)))
    }

    /// The header value.
    package var description: String { self.value }
}
