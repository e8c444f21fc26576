//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The digest algorithms the SDK uses, behind one small wrapper: the system OpenSSL (EVP) on
/// Linux and CryptoKit on Apple platforms.
///
/// Names follow swift-crypto (`update`, `finalize`), inside a namespace so they never clash with
/// CryptoKit or swift-crypto in an app that imports either.
///
/// ```swift
/// var md5 = Hashing.MD5()
/// md5.update(chunk)
/// let digest = md5.finalize()           // [UInt8], 16 bytes
/// let sha = Hashing.SHA256.hash("abc")  // one shot
/// ```
package enum Hashing {}

/// A streaming cryptographic hash function.
package protocol HashAlgorithm: Sendable {
    /// The digest length in bytes.
    static var digestByteCount: Int { get }

    /// Creates a hasher in its initial state.
    init()

    /// Absorbs `bytes`.
    ///
    /// - Parameter bytes: The bytes to absorb.
    mutating func update(bufferPointer bytes: UnsafeRawBufferPointer)

    /// Returns the digest of everything absorbed so far. The hasher itself is unchanged, so it can
    /// keep absorbing (useful for a running hash of a growing file).
    ///
    /// - Returns: The digest, ``digestByteCount`` bytes.
    func finalize() -> [UInt8]

    /// The digest of `bytes` in one call: the fastest path for short inputs.
    ///
    /// - Parameter bytes: The bytes to hash.
    /// - Returns: The digest, ``digestByteCount`` bytes.
    static func hash(bufferPointer bytes: UnsafeRawBufferPointer) -> [UInt8]
}

extension HashAlgorithm {
    /// Absorbs the bytes of a collection (contiguous collections are not copied).
    ///
    /// - Parameter bytes: The bytes to absorb.
    @inlinable
    package mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(bufferPointer: UnsafeRawBufferPointer($0)) }
        ) {
            return done
        }
        Array(bytes).withUnsafeBytes { update(bufferPointer: $0) }
    }

    /// Absorbs the UTF-8 bytes of `string`.
    ///
    /// - Parameter string: The text to absorb.
    @inlinable
    package mutating func update(_ string: String) {
        var string = string
        string.withUTF8 { update(bufferPointer: UnsafeRawBufferPointer($0)) }
    }

    /// The digest of a collection of bytes in one call.
    ///
    /// - Parameter bytes: The bytes to hash.
    /// - Returns: The digest, ``HashAlgorithm/digestByteCount`` bytes.
    @inlinable
    package static func hash<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash(bufferPointer: UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return Array(bytes).withUnsafeBytes { hash(bufferPointer: $0) }
    }

    /// The digest of the UTF-8 bytes of `string` in one call.
    ///
    /// - Parameter string: The text to hash.
    /// - Returns: The digest, ``HashAlgorithm/digestByteCount`` bytes.
    @inlinable
    package static func hash(_ string: String) -> [UInt8] {
        var string = string
        return string.withUTF8 { hash(bufferPointer: UnsafeRawBufferPointer($0)) }
    }
}
