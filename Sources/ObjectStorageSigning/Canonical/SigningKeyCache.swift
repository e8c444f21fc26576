//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// A small, thread-safe cache of V4 derived signing keys, so that presigning many URLs with the
/// same credentials does not repeat the four-HMAC key derivation each time.
///
/// Entries are keyed by a fingerprint of the secret (the secret itself is not stored): its length
/// and a 64-bit SipHash under this process's random seed, cheaper than a SHA-256 on the presign hot
/// path. Two different secrets colliding on both (odds about 2^-64) would only produce a signature
/// the server rejects, never leak anything. Plus the date, region, service and scheme. A derived key is only valid for one day, so the cache
/// is simply emptied when it grows past a few dozen entries.
final class SigningKeyCache: Sendable {
    struct Entry: Hashable, Sendable {
        var secretLength: Int
        var secretHash: Int
        var scheme: String
        var dateStamp: String
        var region: String
        var service: String
    }

    static let shared = SigningKeyCache()

    private static let capacity = 64
    private let storage = Mutex<[Entry: [UInt8]]>([:])

    /// The cached key for `entry`, or the result of `derive()` (then cached).
    func key(for entry: Entry, derive: () -> [UInt8]) -> [UInt8] {
        if let cached = self.storage.withLock({ $0[entry] }) { return cached }
        let key = derive()
        self.storage.withLock { storage in
            if storage.count >= Self.capacity { storage.removeAll(keepingCapacity: true) }
            storage[entry] = key
        }
        return key
    }
}

/// The HMAC helpers every scheme shares.
enum SigningMAC {
    /// Base64 of HMAC-SHA1 of `message` under the UTF-8 bytes of `secret` (OSS V1, OBS, AWS V2).
    static func hmacSHA1Base64(secret: String, message: String) -> String {
        ByteEncoding.base64(Hashing.HMAC<Hashing.SHA1>.authenticationCode(for: message, key: Array(secret.utf8)))
    }

    /// Lowercase hex of HMAC-SHA256 of `message` under `key` (OSS V4, SigV4).
    static func hmacSHA256Hex(key: [UInt8], message: String) -> String {
        ByteEncoding.hex(Hashing.HMAC<Hashing.SHA256>.authenticationCode(for: message, key: key))
    }

    /// The V4 key derivation chain: `HMAC(HMAC(HMAC(HMAC(prefix + secret, date), region), service), terminator)`.
    static func deriveV4Key(
        secretPrefix: String,
        secret: String,
        dateStamp: String,
        region: String,
        service: String,
        terminator: String
    ) -> [UInt8] {
        let entry = SigningKeyCache.Entry(
            secretLength: secret.utf8.count,
            secretHash: secret.hashValue,
            scheme: secretPrefix,
            dateStamp: dateStamp,
            region: region,
            service: service
        )
        return SigningKeyCache.shared.key(for: entry) {
            typealias MAC = Hashing.HMAC<Hashing.SHA256>
            let dateKey = MAC.authenticationCode(for: dateStamp, key: Array((secretPrefix + secret).utf8))
            let regionKey = MAC.authenticationCode(for: region, key: dateKey)
            let serviceKey = MAC.authenticationCode(for: service, key: regionKey)
            return MAC.authenticationCode(for: terminator, key: serviceKey)
        }
    }
}
