//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// A small, thread-safe cache of prepared signing keys: V4 derived keys (so presigning many URLs
/// with the same credentials does not repeat the four-HMAC key derivation) and the keyed HMAC
/// states of both V4 keys and V1/OBS secrets (so no call re-absorbs the pad blocks).
///
/// Entries are keyed by a fingerprint of the secret (the secret's text is not stored; a keyed
/// HMAC state is secret-equivalent, as a derived key is, and lives only in this process): its
/// length and a 64-bit SipHash under this process's random seed, cheaper than a SHA-256 on the
/// presign hot path. Two different secrets colliding on both (odds about 2^-64) would only produce
/// a signature the server rejects, never leak anything. Plus the date, region, service and scheme.
/// A derived key is only valid for one day, so the cache is simply emptied when it grows past a
/// few dozen entries.
final class SigningKeyCache: Sendable {
    struct Entry: Hashable, Sendable {
        var secretLength: Int
        var secretHash: Int
        var scheme: String
        var dateStamp: String
        var region: String
        var service: String
    }

    /// A prepared key: the raw bytes (empty for a V1/OBS secret) and its keyed HMAC state.
    struct Key: Sendable {
        var bytes: [UInt8]
        var mac: KeyedHMAC
    }

    static let shared = SigningKeyCache()

    private static let capacity = 64
    private let storage = Mutex<[Entry: Key]>([:])

    /// The cached key for `entry`, or the result of `derive()` (then cached).
    func key(for entry: Entry, derive: () -> Key) -> Key {
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
    /// The keyed HMAC-SHA1 state of `secret` (OSS V1, OBS, AWS V2), cached.
    static func sha1(secret: String) -> KeyedHMAC {
        let entry = SigningKeyCache.Entry(
            secretLength: secret.utf8.count,
            secretHash: secret.hashValue,
            scheme: "HMAC-SHA1",
            dateStamp: "",
            region: "",
            service: ""
        )
        return SigningKeyCache.shared.key(for: entry) {
            var secret = secret
            let mac = secret.withUTF8 { KeyedHMAC(.sha1, key: UnsafeRawBufferPointer($0)) }
            return SigningKeyCache.Key(bytes: [], mac: mac)
        }.mac
    }

    /// Base64 of HMAC-SHA1 of `message` under the UTF-8 bytes of `secret` (OSS V1, OBS, AWS V2).
    static func hmacSHA1Base64(secret: String, message: String) -> String {
        self.sha1(secret: secret).base64(for: message)
    }

    /// Lowercase hex of HMAC-SHA256 of `message` under `key` (OSS V4, SigV4).
    static func hmacSHA256Hex(key: [UInt8], message: String) -> String {
        ByteEncoding.hex(Hashing.HMAC<Hashing.SHA256>.authenticationCode(for: message, key: key))
    }

    /// The V4 key derivation chain: `HMAC(HMAC(HMAC(HMAC(prefix + secret, date), region), service), terminator)`,
    /// cached with its keyed HMAC state.
    static func deriveV4Key(
        secretPrefix: String,
        secret: String,
        dateStamp: String,
        region: String,
        service: String,
        terminator: String
    ) -> SigningKeyCache.Key {
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
            let key = MAC.authenticationCode(for: terminator, key: serviceKey)
            let mac = key.withUnsafeBytes { KeyedHMAC(.sha256, key: $0) }
            return SigningKeyCache.Key(bytes: key, mac: mac)
        }
    }
}
