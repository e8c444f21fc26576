//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(CryptoKit)
package import CryptoKit

/// A hasher backed by a CryptoKit hash function: supplies ``HashAlgorithm``'s work from the function, so that each
/// algorithm below names only its function and digest length.
package protocol CryptoKitHashAlgorithm: HashAlgorithm {
    associatedtype Function: CryptoKit.HashFunction
    /// The running CryptoKit state.
    var state: Function { get set }
}

extension CryptoKitHashAlgorithm {
    package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { state.update(bufferPointer: bytes) }
    package func finalize() -> [UInt8] { Array(state.finalize()) }
    package static func hash(bufferPointer bytes: UnsafeRawBufferPointer) -> [UInt8] {
        Array(Function.hash(bufferPointer: bytes))
    }
}

extension Hashing {
    /// SHA-256 (FIPS 180-4).
    package struct SHA256: CryptoKitHashAlgorithm {
        package static let digestByteCount = 32
        package var state = CryptoKit.SHA256()
        package init() {}
    }

    /// SHA-1. Insecure as a general-purpose hash; used only where a signature scheme requires it.
    package struct SHA1: CryptoKitHashAlgorithm {
        package static let digestByteCount = 20
        package var state = Insecure.SHA1()
        package init() {}
    }

    /// MD5. Insecure as a general-purpose hash; used for Content-MD5 and ETag integrity checks.
    package struct MD5: CryptoKitHashAlgorithm {
        package static let digestByteCount = 16
        package var state = Insecure.MD5()
        package init() {}
    }
}

#else
package import CObjectStorageCrypto

/// Owns one OpenSSL digest context; copied on write so the hashers keep value semantics.
final class DigestContext: @unchecked Sendable {
    let algorithm: COSCrypto_algorithm
    let handle: OpaquePointer

    init(_ algorithm: COSCrypto_algorithm) {
        guard let handle = COSCrypto_digest_new(algorithm) else {
            fatalError("OpenSSL could not allocate a digest context")
        }
        self.algorithm = algorithm
        self.handle = handle
    }

    func copy() -> DigestContext {
        let copy = DigestContext(algorithm)
        precondition(COSCrypto_digest_copy(copy.handle, handle) == 1, "OpenSSL digest copy failed")
        return copy
    }

    deinit { COSCrypto_digest_free(handle) }
}

/// The shared implementation of the OpenSSL-backed hashers.
package struct OpenSSLHasher: Sendable {
    private var context: DigestContext

    init(_ algorithm: COSCrypto_algorithm) { context = DigestContext(algorithm) }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        precondition(COSCrypto_digest_update(context.handle, bytes.baseAddress, bytes.count) == 1)
    }

    func finalize() -> [UInt8] {
        let snapshot = context.copy()
        return [UInt8](unsafeUninitializedCapacity: Int(COSCRYPTO_MAX_DIGEST_LENGTH)) { buffer, count in
            count = Int(COSCrypto_digest_final(snapshot.handle, buffer.baseAddress))
            precondition(count > 0, "OpenSSL digest failed")
        }
    }

    static func hash(_ algorithm: COSCrypto_algorithm, _ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Int(COSCRYPTO_MAX_DIGEST_LENGTH)) { buffer, count in
            count = Int(COSCrypto_digest_oneshot(algorithm, bytes.baseAddress, bytes.count, buffer.baseAddress))
            precondition(count > 0, "OpenSSL digest failed")
        }
    }
}

/// A hasher backed by an OpenSSL digest: supplies ``HashAlgorithm``'s work from the algorithm, so that each
/// algorithm below names only its OpenSSL algorithm and digest length.
package protocol OpenSSLHashAlgorithm: HashAlgorithm {
    /// The OpenSSL algorithm.
    static var algorithm: COSCrypto_algorithm { get }
    /// The running OpenSSL state.
    var state: OpenSSLHasher { get set }
}

extension OpenSSLHashAlgorithm {
    package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { state.update(bytes) }
    package func finalize() -> [UInt8] { state.finalize() }
    package static func hash(bufferPointer bytes: UnsafeRawBufferPointer) -> [UInt8] {
        OpenSSLHasher.hash(Self.algorithm, bytes)
    }
}

extension Hashing {
    /// SHA-256 (FIPS 180-4).
    package struct SHA256: OpenSSLHashAlgorithm {
        package static let digestByteCount = 32
        package static var algorithm: COSCrypto_algorithm { COSCrypto_SHA256 }
        package var state = OpenSSLHasher(Self.algorithm)
        package init() {}
    }

    /// SHA-1. Insecure as a general-purpose hash; used only where a signature scheme requires it.
    package struct SHA1: OpenSSLHashAlgorithm {
        package static let digestByteCount = 20
        package static var algorithm: COSCrypto_algorithm { COSCrypto_SHA1 }
        package var state = OpenSSLHasher(Self.algorithm)
        package init() {}
    }

    /// MD5. Insecure as a general-purpose hash; used for Content-MD5 and ETag integrity checks.
    package struct MD5: OpenSSLHashAlgorithm {
        package static let digestByteCount = 16
        package static var algorithm: COSCrypto_algorithm { COSCrypto_MD5 }
        package var state = OpenSSLHasher(Self.algorithm)
        package init() {}
    }
}
#endif
