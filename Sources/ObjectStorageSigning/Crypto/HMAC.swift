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

extension Hashing {
    /// HMAC (RFC 2104) over SHA-256, SHA-1 or MD5.
    ///
    /// ```swift
    /// let mac = Hashing.HMAC<Hashing.SHA256>.authenticationCode(for: stringToSign, key: signingKey)
    /// ```
    package enum HMAC<H: HashAlgorithm> {
        /// The message authentication code of `message` under `key`.
        ///
        /// - Parameters:
        ///   - message: The bytes to authenticate.
        ///   - key: The secret key bytes.
        /// - Returns: The MAC, as long as `H`'s digest.
        package static func authenticationCode<Message: Collection, Key: Collection>(
            for message: Message,
            key: Key
        ) -> [UInt8] where Message.Element == UInt8, Key.Element == UInt8 {
            withContiguousBytes(of: key) { key in
                withContiguousBytes(of: message) { message in
                    authenticationCode(bufferPointer: message, key: key)
                }
            }
        }

        /// The message authentication code of the UTF-8 bytes of `message` under `key`.
        ///
        /// - Parameters:
        ///   - message: The text to authenticate.
        ///   - key: The secret key bytes.
        /// - Returns: The MAC, as long as `H`'s digest.
        package static func authenticationCode<Key: Collection>(
            for message: String,
            key: Key
        ) -> [UInt8] where Key.Element == UInt8 {
            var message = message
            return message.withUTF8 { message in
                withContiguousBytes(of: key) { key in
                    authenticationCode(bufferPointer: UnsafeRawBufferPointer(message), key: key)
                }
            }
        }

        /// The message authentication code of raw bytes under a raw key.
        ///
        /// - Parameters:
        ///   - message: The bytes to authenticate.
        ///   - key: The secret key bytes.
        /// - Returns: The MAC, as long as `H`'s digest.
        package static func authenticationCode(
            bufferPointer message: UnsafeRawBufferPointer,
            key: UnsafeRawBufferPointer
        ) -> [UInt8] {
            #if canImport(CryptoKit)
            let symmetricKey = SymmetricKey(data: key)
            switch ObjectIdentifier(H.self) {
            case ObjectIdentifier(Hashing.SHA256.self):
                return Array(CryptoKit.HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: symmetricKey))
            case ObjectIdentifier(Hashing.SHA1.self):
                return Array(CryptoKit.HMAC<Insecure.SHA1>.authenticationCode(for: message, using: symmetricKey))
            case ObjectIdentifier(Hashing.MD5.self):
                return Array(CryptoKit.HMAC<Insecure.MD5>.authenticationCode(for: message, using: symmetricKey))
            default:
                preconditionFailure("HMAC supports Hashing.SHA256, Hashing.SHA1 and Hashing.MD5")
            }
            #else
            let algorithm = openSSLAlgorithm
            return [UInt8](unsafeUninitializedCapacity: Int(COSCRYPTO_MAX_DIGEST_LENGTH)) { buffer, count in
                count = Int(
                    COSCrypto_hmac_oneshot(
                        algorithm,
                        key.baseAddress,
                        key.count,
                        message.baseAddress,
                        message.count,
                        buffer.baseAddress
                    )
                )
                precondition(count > 0, "OpenSSL HMAC failed")
            }
            #endif
        }

        #if !canImport(CryptoKit)
        private static var openSSLAlgorithm: COSCrypto_algorithm {
            switch ObjectIdentifier(H.self) {
            case ObjectIdentifier(Hashing.SHA256.self): return COSCrypto_SHA256
            case ObjectIdentifier(Hashing.SHA1.self): return COSCrypto_SHA1
            case ObjectIdentifier(Hashing.MD5.self): return COSCrypto_MD5
            default: preconditionFailure("HMAC supports Hashing.SHA256, Hashing.SHA1 and Hashing.MD5")
            }
        }
        #endif
    }
}

@inlinable
func withContiguousBytes<Bytes: Collection, Result>(
    of bytes: Bytes,
    _ body: (UnsafeRawBufferPointer) -> Result
) -> Result where Bytes.Element == UInt8 {
    if let result = bytes.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
        return result
    }
    return Array(bytes).withUnsafeBytes(body)
}
