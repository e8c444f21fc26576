//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(CryptoKit)
import CryptoKit

extension Hashing {
    /// SHA-256 (FIPS 180-4).
    package struct SHA256: HashAlgorithm {
        package static let digestByteCount = 32
        private var state = CryptoKit.SHA256()
        package init() {}
        package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { state.update(bufferPointer: bytes) }
        package func finalize() -> [UInt8] { Array(state.finalize()) }
        package static func hash(bufferPointer bytes: UnsafeRawBufferPointer) -> [UInt8] {
            Array(CryptoKit.SHA256.hash(bufferPointer: bytes))
        }
    }

    /// SHA-1. Insecure as a general-purpose hash; used only where a signature scheme requires it.
    package struct SHA1: HashAlgorithm {
        package static let digestByteCount = 20
        private var state = Insecure.SHA1()
        package init() {}
        package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { state.update(bufferPointer: bytes) }
        package func finalize() -> [UInt8] { Array(state.finalize()) }
        package static func hash(bufferPointer bytes: UnsafeRawBufferPointer) -> [UInt8] {
            Array(Insecure.SHA1.hash(bufferPointer: bytes))
        }
    }

    /// MD5. Insecure as a general-purpose hash; used for Content-MD5 and ETag integrity checks.
    package struct MD5: HashAlgorithm {
        package static let digestByteCount = 16
        private var state = Insecure.MD5()
        package init() {}
        package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { state.update(bufferPointer: bytes) }
        package func finalize() -> [UInt8] { Array(state.finalize()) }
        package static func hash(bufferPointer bytes: UnsafeRawBufferPointer) -> [UInt8] {
            Array(Insecure.MD5.hash(bufferPointer: bytes))
        }
    }
}

#else
import CObjectStorageCrypto

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
struct OpenSSLHasher: Sendable {
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

extension Hashing {
    /// SHA-256 (FIPS 180-4).
    package struct SHA256: HashAlgorithm {
        package static let digestByteCount = 32
        private var state = OpenSSLHasher(COSCrypto_SHA256)
        package init() {}
        package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { state.update(bytes) }
        package func finalize() -> [UInt8] { state.finalize() }
        package static func hash(bufferPointer bytes: UnsafeRawBufferPointer) -> [UInt8] {
            OpenSSLHasher.hash(COSCrypto_SHA256, bytes)
        }
    }

    /// SHA-1. Insecure as a general-purpose hash; used only where a signature scheme requires it.
    package struct SHA1: HashAlgorithm {
        package static let digestByteCount = 20
        private var state = OpenSSLHasher(COSCrypto_SHA1)
        package init() {}
        package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { state.update(bytes) }
        package func finalize() -> [UInt8] { state.finalize() }
        package static func hash(bufferPointer bytes: UnsafeRawBufferPointer) -> [UInt8] {
            OpenSSLHasher.hash(COSCrypto_SHA1, bytes)
        }
    }

    /// MD5. Insecure as a general-purpose hash; used for Content-MD5 and ETag integrity checks.
    package struct MD5: HashAlgorithm {
        package static let digestByteCount = 16
        private var state = OpenSSLHasher(COSCrypto_MD5)
        package init() {}
        package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { state.update(bytes) }
        package func finalize() -> [UInt8] { state.finalize() }
        package static func hash(bufferPointer bytes: UnsafeRawBufferPointer) -> [UInt8] {
            OpenSSLHasher.hash(COSCrypto_MD5, bytes)
        }
    }
}
#endif
