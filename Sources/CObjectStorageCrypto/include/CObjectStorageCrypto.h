//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef C_OBJECT_STORAGE_CRYPTO_H
#define C_OBJECT_STORAGE_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Digest algorithms exposed by the shim. Values are stable ABI.
typedef enum {
    COSCrypto_MD5 = 1,
    COSCrypto_SHA1 = 2,
    COSCrypto_SHA256 = 3,
} COSCrypto_algorithm;

/// Largest digest any supported algorithm produces (SHA-256).
#define COSCRYPTO_MAX_DIGEST_LENGTH 32

/// An opaque streaming digest (an EVP_MD_CTX underneath).
typedef struct COSCrypto_digest COSCrypto_digest;

/// Returns NULL on allocation failure or an unknown algorithm.
COSCrypto_digest *COSCrypto_digest_new(COSCrypto_algorithm algorithm);
/// Copies the running state of `source` into `destination` (same algorithm). Returns 1 on success.
int COSCrypto_digest_copy(COSCrypto_digest *destination, const COSCrypto_digest *source);
int COSCrypto_digest_update(COSCrypto_digest *digest, const void *bytes, size_t count);
/// Writes the digest to `output` (at least COSCRYPTO_MAX_DIGEST_LENGTH bytes) and resets the state.
/// Returns the digest length, or 0 on failure.
unsigned COSCrypto_digest_final(COSCrypto_digest *digest, uint8_t *output);
void COSCrypto_digest_free(COSCrypto_digest *digest);

/// One-shot digest. Returns the digest length, or 0 on failure.
unsigned COSCrypto_digest_oneshot(COSCrypto_algorithm algorithm, const void *bytes, size_t count, uint8_t *output);

/// One-shot HMAC. Returns the MAC length, or 0 on failure.
unsigned COSCrypto_hmac_oneshot(
    COSCrypto_algorithm algorithm,
    const void *key, size_t keyCount,
    const void *bytes, size_t count,
    uint8_t *output
);

/// A keyed HMAC whose inner and outer pad states are computed once, so many messages can be
/// authenticated with the same key without re-deriving them.
typedef struct COSCrypto_hmac COSCrypto_hmac;

COSCrypto_hmac *COSCrypto_hmac_new(COSCrypto_algorithm algorithm, const void *key, size_t keyCount);
int COSCrypto_hmac_update(COSCrypto_hmac *hmac, const void *bytes, size_t count);
/// Writes the MAC and resets to the keyed initial state. Returns the MAC length, or 0 on failure.
unsigned COSCrypto_hmac_final(COSCrypto_hmac *hmac, uint8_t *output);
/// Authenticates one message with the keyed state without disturbing a running update.
unsigned COSCrypto_hmac_authenticate(const COSCrypto_hmac *hmac, const void *bytes, size_t count, uint8_t *output);
void COSCrypto_hmac_free(COSCrypto_hmac *hmac);

/// The run-time OpenSSL version number, for diagnostics.
unsigned long COSCrypto_openssl_version_number(void);

#ifdef __cplusplus
}
#endif

#endif
