//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(CryptoKit)
import CryptoKit
#else
import CObjectStorageCrypto
#endif

/// An HMAC key prepared once: with OpenSSL, the hash states after absorbing `K ^ ipad` and
/// `K ^ opad`, so each message costs only its own compressions (no pad blocks, no allocation).
///
/// Immutable after `init`; any number of threads may authenticate with it at once (the shim
/// keeps its working contexts per thread).
final class KeyedHMAC: @unchecked Sendable {
    /// The hash under the HMAC.
    enum Algorithm: Sendable {
        case sha1, sha256
    }

    let algorithm: Algorithm

    #if canImport(CryptoKit)
    private let key: SymmetricKey

    init(_ algorithm: Algorithm, key: UnsafeRawBufferPointer) {
        self.algorithm = algorithm
        self.key = SymmetricKey(data: key)
    }

    /// The MAC of `message`, passed to `body` as a buffer that lives only during the call.
    func withAuthenticationCode<Result>(
        for message: UnsafeRawBufferPointer,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        switch self.algorithm {
        case .sha1:
            let code = CryptoKit.HMAC<Insecure.SHA1>.authenticationCode(for: message, using: self.key)
            return code.withUnsafeBytes { body($0.bindMemory(to: UInt8.self)) }
        case .sha256:
            let code = CryptoKit.HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: self.key)
            return code.withUnsafeBytes { body($0.bindMemory(to: UInt8.self)) }
        }
    }
    #else
    private let handle: OpaquePointer

    init(_ algorithm: Algorithm, key: UnsafeRawBufferPointer) {
        self.algorithm = algorithm
        let cAlgorithm = algorithm == .sha1 ? COSCrypto_SHA1 : COSCrypto_SHA256
        guard let handle = COSCrypto_hmac_new(cAlgorithm, key.baseAddress, key.count) else {
            fatalError("OpenSSL could not allocate an HMAC state")
        }
        self.handle = handle
    }

    deinit { COSCrypto_hmac_free(self.handle) }

    /// The MAC of `message`, passed to `body` as a buffer that lives only during the call.
    func withAuthenticationCode<Result>(
        for message: UnsafeRawBufferPointer,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(COSCRYPTO_MAX_DIGEST_LENGTH)) { output in
            let count = Int(
                COSCrypto_hmac_authenticate(self.handle, message.baseAddress, message.count, output.baseAddress)
            )
            precondition(count > 0, "OpenSSL HMAC failed")
            return body(UnsafeBufferPointer(rebasing: output[..<count]))
        }
    }
    #endif

    /// Lowercase hex of the MAC of `message`.
    func hex(for message: UnsafeBufferPointer<UInt8>) -> String {
        self.withAuthenticationCode(for: UnsafeRawBufferPointer(message)) { ByteEncoding.hex($0) }
    }

    /// Base64 of the MAC of `message`.
    func base64(for message: UnsafeBufferPointer<UInt8>) -> String {
        self.withAuthenticationCode(for: UnsafeRawBufferPointer(message)) { ByteEncoding.base64($0) }
    }

    /// Lowercase hex of the MAC of the UTF-8 bytes of `message`.
    func hex(for message: String) -> String {
        var message = message
        return message.withUTF8 { self.hex(for: $0) }
    }

    /// Base64 of the MAC of the UTF-8 bytes of `message`.
    func base64(for message: String) -> String {
        var message = message
        return message.withUTF8 { self.base64(for: $0) }
    }
}
