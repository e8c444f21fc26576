//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Every OpenSSL call lives here, behind prefixed functions: Swift never sees an OpenSSL symbol or
// macro, so the 1.1 -> 3.x renames and deprecations stay in C. Only EVP digest APIs are used.

#include "CObjectStorageCrypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 64  /* MD5, SHA-1 and SHA-256 all use 64-byte blocks. */

static const EVP_MD *md_md5;
static const EVP_MD *md_sha1;
static const EVP_MD *md_sha256;
static pthread_once_t md_once = PTHREAD_ONCE_INIT;

static void load_digests(void) {
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    /* Explicit fetch once: EVP_sha256() would re-fetch the provider implementation on every init. */
    md_md5 = EVP_MD_fetch(NULL, "MD5", NULL);
    md_sha1 = EVP_MD_fetch(NULL, "SHA1", NULL);
    md_sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
#else
    md_md5 = EVP_md5();
    md_sha1 = EVP_sha1();
    md_sha256 = EVP_sha256();
#endif
}

static const EVP_MD *digest_for(COSCrypto_algorithm algorithm) {
    pthread_once(&md_once, load_digests);
    switch (algorithm) {
    case COSCrypto_MD5: return md_md5;
    case COSCrypto_SHA1: return md_sha1;
    case COSCrypto_SHA256: return md_sha256;
    }
    return NULL;
}

struct COSCrypto_digest {
    EVP_MD_CTX *context;
    const EVP_MD *md;
};

COSCrypto_digest *COSCrypto_digest_new(COSCrypto_algorithm algorithm) {
    const EVP_MD *md = digest_for(algorithm);
    if (md == NULL) return NULL;
    COSCrypto_digest *digest = malloc(sizeof(COSCrypto_digest));
    if (digest == NULL) return NULL;
    digest->md = md;
    digest->context = EVP_MD_CTX_new();
    if (digest->context == NULL || EVP_DigestInit_ex(digest->context, md, NULL) != 1) {
        EVP_MD_CTX_free(digest->context);
        free(digest);
        return NULL;
    }
    return digest;
}

int COSCrypto_digest_copy(COSCrypto_digest *destination, const COSCrypto_digest *source) {
    if (destination->md != source->md) return 0;
    return EVP_MD_CTX_copy_ex(destination->context, source->context);
}

int COSCrypto_digest_update(COSCrypto_digest *digest, const void *bytes, size_t count) {
    if (count == 0) return 1;
    return EVP_DigestUpdate(digest->context, bytes, count);
}

unsigned COSCrypto_digest_final(COSCrypto_digest *digest, uint8_t *output) {
    unsigned length = 0;
    if (EVP_DigestFinal_ex(digest->context, output, &length) != 1) return 0;
    if (EVP_DigestInit_ex(digest->context, digest->md, NULL) != 1) return 0;
    return length;
}

void COSCrypto_digest_free(COSCrypto_digest *digest) {
    if (digest == NULL) return;
    EVP_MD_CTX_free(digest->context);
    free(digest);
}

/* Reusable contexts per thread keep one-shot calls and keyed HMACs free of allocation. */
typedef struct {
    EVP_MD_CTX *primary;    /* one-shot digests, HMAC pads, the outer hash */
    EVP_MD_CTX *secondary;  /* the inner hash of a keyed HMAC */
} scratch_contexts;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void free_scratch(void *pointer) {
    scratch_contexts *scratch = pointer;
    EVP_MD_CTX_free(scratch->primary);
    EVP_MD_CTX_free(scratch->secondary);
    free(scratch);
}
static void make_scratch_key(void) { (void)pthread_key_create(&scratch_key, free_scratch); }

static scratch_contexts *scratch(void) {
    pthread_once(&scratch_once, make_scratch_key);
    scratch_contexts *contexts = pthread_getspecific(scratch_key);
    if (contexts != NULL) return contexts;
    contexts = calloc(1, sizeof(scratch_contexts));
    if (contexts == NULL) return NULL;
    contexts->primary = EVP_MD_CTX_new();
    contexts->secondary = EVP_MD_CTX_new();
    if (contexts->primary == NULL || contexts->secondary == NULL
        || pthread_setspecific(scratch_key, contexts) != 0) {
        free_scratch(contexts);
        return NULL;
    }
    return contexts;
}

static EVP_MD_CTX *scratch_context(void) {
    scratch_contexts *contexts = scratch();
    return contexts == NULL ? NULL : contexts->primary;
}

static unsigned digest_with(EVP_MD_CTX *context, const EVP_MD *md,
                            const void *prefix, size_t prefixCount,
                            const void *bytes, size_t count, uint8_t *output) {
    unsigned length = 0;
    if (EVP_DigestInit_ex(context, md, NULL) != 1) return 0;
    if (prefixCount > 0 && EVP_DigestUpdate(context, prefix, prefixCount) != 1) return 0;
    if (count > 0 && EVP_DigestUpdate(context, bytes, count) != 1) return 0;
    if (EVP_DigestFinal_ex(context, output, &length) != 1) return 0;
    return length;
}

unsigned COSCrypto_digest_oneshot(COSCrypto_algorithm algorithm, const void *bytes, size_t count, uint8_t *output) {
    const EVP_MD *md = digest_for(algorithm);
    EVP_MD_CTX *context = scratch_context();
    if (md == NULL || context == NULL) return 0;
    return digest_with(context, md, NULL, 0, bytes, count, output);
}

/* HMAC (RFC 2104) over EVP digests: H((K ^ opad) || H((K ^ ipad) || m)). */

static int make_pads(const EVP_MD *md, EVP_MD_CTX *context, const void *key, size_t keyCount,
                     uint8_t inner[BLOCK_SIZE], uint8_t outer[BLOCK_SIZE]) {
    uint8_t block[BLOCK_SIZE];
    memset(block, 0, sizeof(block));
    if (keyCount > BLOCK_SIZE) {
        if (digest_with(context, md, NULL, 0, key, keyCount, block) == 0) return 0;
    } else if (keyCount > 0) {
        memcpy(block, key, keyCount);
    }
    for (int index = 0; index < BLOCK_SIZE; index++) {
        inner[index] = block[index] ^ 0x36;
        outer[index] = block[index] ^ 0x5c;
    }
    return 1;
}

unsigned COSCrypto_hmac_oneshot(COSCrypto_algorithm algorithm, const void *key, size_t keyCount,
                                const void *bytes, size_t count, uint8_t *output) {
    const EVP_MD *md = digest_for(algorithm);
    EVP_MD_CTX *context = scratch_context();
    if (md == NULL || context == NULL) return 0;
    uint8_t inner[BLOCK_SIZE], outer[BLOCK_SIZE], innerDigest[COSCRYPTO_MAX_DIGEST_LENGTH];
    if (!make_pads(md, context, key, keyCount, inner, outer)) return 0;
    unsigned innerLength = digest_with(context, md, inner, BLOCK_SIZE, bytes, count, innerDigest);
    if (innerLength == 0) return 0;
    return digest_with(context, md, outer, BLOCK_SIZE, innerDigest, innerLength, output);
}

struct COSCrypto_hmac {
    const EVP_MD *md;
    EVP_MD_CTX *innerStart;  /* state after absorbing K ^ ipad */
    EVP_MD_CTX *outerStart;  /* state after absorbing K ^ opad */
    EVP_MD_CTX *running;     /* the incremental inner hash */
};

void COSCrypto_hmac_free(COSCrypto_hmac *hmac) {
    if (hmac == NULL) return;
    EVP_MD_CTX_free(hmac->innerStart);
    EVP_MD_CTX_free(hmac->outerStart);
    EVP_MD_CTX_free(hmac->running);
    free(hmac);
}

COSCrypto_hmac *COSCrypto_hmac_new(COSCrypto_algorithm algorithm, const void *key, size_t keyCount) {
    const EVP_MD *md = digest_for(algorithm);
    if (md == NULL) return NULL;
    COSCrypto_hmac *hmac = calloc(1, sizeof(COSCrypto_hmac));
    if (hmac == NULL) return NULL;
    hmac->md = md;
    hmac->innerStart = EVP_MD_CTX_new();
    hmac->outerStart = EVP_MD_CTX_new();
    hmac->running = EVP_MD_CTX_new();
    uint8_t inner[BLOCK_SIZE], outer[BLOCK_SIZE];
    if (hmac->innerStart == NULL || hmac->outerStart == NULL || hmac->running == NULL
        || !make_pads(md, hmac->running, key, keyCount, inner, outer)
        || EVP_DigestInit_ex(hmac->innerStart, md, NULL) != 1
        || EVP_DigestUpdate(hmac->innerStart, inner, BLOCK_SIZE) != 1
        || EVP_DigestInit_ex(hmac->outerStart, md, NULL) != 1
        || EVP_DigestUpdate(hmac->outerStart, outer, BLOCK_SIZE) != 1
        || EVP_MD_CTX_copy_ex(hmac->running, hmac->innerStart) != 1) {
        COSCrypto_hmac_free(hmac);
        return NULL;
    }
    return hmac;
}

int COSCrypto_hmac_update(COSCrypto_hmac *hmac, const void *bytes, size_t count) {
    if (count == 0) return 1;
    return EVP_DigestUpdate(hmac->running, bytes, count);
}

static unsigned finish(const COSCrypto_hmac *hmac, EVP_MD_CTX *inner, EVP_MD_CTX *outer, uint8_t *output) {
    uint8_t innerDigest[COSCRYPTO_MAX_DIGEST_LENGTH];
    unsigned innerLength = 0, length = 0;
    if (EVP_DigestFinal_ex(inner, innerDigest, &innerLength) != 1) return 0;
    if (EVP_MD_CTX_copy_ex(outer, hmac->outerStart) != 1) return 0;
    if (EVP_DigestUpdate(outer, innerDigest, innerLength) != 1) return 0;
    if (EVP_DigestFinal_ex(outer, output, &length) != 1) return 0;
    return length;
}

unsigned COSCrypto_hmac_final(COSCrypto_hmac *hmac, uint8_t *output) {
    EVP_MD_CTX *scratch = scratch_context();
    if (scratch == NULL) return 0;
    unsigned length = finish(hmac, hmac->running, scratch, output);
    if (EVP_MD_CTX_copy_ex(hmac->running, hmac->innerStart) != 1) return 0;
    return length;
}

unsigned COSCrypto_hmac_authenticate(const COSCrypto_hmac *hmac, const void *bytes, size_t count, uint8_t *output) {
    /* Both working contexts are per thread: a keyed state may be shared by many threads, and the
       shim allocates nothing per call once the thread's contexts exist. (OpenSSL 3.0's context
       copy still duplicates the provider's small hash state internally; measured, that is still
       cheaper than re-initializing and re-absorbing both pad blocks.) */
    scratch_contexts *contexts = scratch();
    if (contexts == NULL) return 0;
    EVP_MD_CTX *inner = contexts->secondary;
    if (EVP_MD_CTX_copy_ex(inner, hmac->innerStart) != 1) return 0;
    if (count > 0 && EVP_DigestUpdate(inner, bytes, count) != 1) return 0;
    return finish(hmac, inner, contexts->primary, output);
}

unsigned long COSCrypto_openssl_version_number(void) { return OpenSSL_version_num(); }
