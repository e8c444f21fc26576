//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// CRC-64/XZ: reflected polynomial 0x42F0E1EBA9EA3693 (0xC96C5795D7870F42 reflected),
// initial value and final XOR all ones. Check value of "123456789" is 0x995DC9BBDF1939FA.
//
// Two implementations share one register convention (the "raw" register is the finalized value
// XOR all ones):
// - portable: slicing-by-8 tables;
// - x86_64: carry-less multiplication (PCLMULQDQ) folding eight 128-bit lanes, then, where the CPU
//   and OS have AVX-512 with VPCLMULQDQ, four 512-bit lanes. Chosen once at run time with CPUID, so
//   the binary still runs on CPUs without either; no compiler flags are needed (function-level
//   target attributes only).

#include "CObjectStorageCRC.h"

#include <pthread.h>
#include <string.h>

#define POLY_REFLECTED 0xC96C5795D7870F42ULL

// MARK: - Portable (slicing-by-8)

static uint64_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_tables(void) {
    for (int n = 0; n < 256; n++) {
        uint64_t crc = (uint64_t)n;
        for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ POLY_REFLECTED : crc >> 1;
        table[0][n] = crc;
    }
    for (int n = 0; n < 256; n++) {
        uint64_t crc = table[0][n];
        for (int k = 1; k < 8; k++) {
            crc = table[0][crc & 0xff] ^ (crc >> 8);
            table[k][n] = crc;
        }
    }
}

/* Advances the raw register over `count` bytes. The tables must be built. */
static uint64_t update_raw_table(uint64_t crc, const uint8_t *next, size_t count) {
    while (count > 0 && ((uintptr_t)next & 7) != 0) {
        crc = table[0][(crc ^ *next++) & 0xff] ^ (crc >> 8);
        count--;
    }
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, next, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        crc ^= word;
        crc = table[7][crc & 0xff] ^ table[6][(crc >> 8) & 0xff] ^ table[5][(crc >> 16) & 0xff]
            ^ table[4][(crc >> 24) & 0xff] ^ table[3][(crc >> 32) & 0xff] ^ table[2][(crc >> 40) & 0xff]
            ^ table[1][(crc >> 48) & 0xff] ^ table[0][crc >> 56];
        next += 8;
        count -= 8;
    }
    while (count > 0) {
        crc = table[0][(crc ^ *next++) & 0xff] ^ (crc >> 8);
        count--;
    }
    return crc;
}

uint64_t COSCRC64_update_portable(uint64_t crc, const void *bytes, size_t count) {
    pthread_once(&table_once, build_tables);
    return ~update_raw_table(~crc, (const uint8_t *)bytes, count);
}

// MARK: - x86_64 carry-less multiplication

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <cpuid.h>
#include <immintrin.h>

/*
 * Folding, in the reflected domain (bit i of a 64-bit word is the coefficient of x^(63 - i); a
 * 16-byte lane loaded little-endian holds its earlier, higher-degree half in the low qword).
 *
 * A lane A = L * x^64 + H that is followed by D more bits of message contributes A * x^D, which is
 * congruent to L * (x^(D + 64) mod P) + H * (x^D mod P): two 64x64 carry-less products of at most
 * 127 bits that line up with the 128-bit lane D bits later. A reflected carry-less product of two
 * reflected 64-bit operands comes out multiplied by one extra x, so the constants are
 *     k_low(D) = x^(D + 63) mod P   (multiplies L, the low qword)
 *     k_high(D) = x^(D - 1) mod P   (multiplies H, the high qword).
 * They were computed with this loop (x^0 is 1 << 63; multiplying by x is one CRC bit step) and
 * pasted here; every test comparing this path with the portable one checks them:
 *     uint64_t v = 1ULL << 63;
 *     while (n--) v = (v >> 1) ^ ((v & 1) ? 0xC96C5795D7870F42 : 0);
 * e.g. D = 128 gives x^191 = 0xE05DD497CA393AE4 and x^127 = 0xDABE95AFC7875F40.
 *
 * The folded 128-bit remainder R satisfies crc = R * x^64 mod P, which is the raw CRC of R's 16
 * bytes from a zero register: two slicing-by-8 steps finish it, then any tail under 16 bytes.
 */

/* { k_low(D), k_high(D) } for fold distances D = 128 * n bits, n = 1...8, and D = 2048 bits. */
static const uint64_t fold_128[2] = {0xE05DD497CA393AE4ULL, 0xDABE95AFC7875F40ULL};
static const uint64_t fold_256[2] = {0x60095B008A9EFA44ULL, 0x3BE653A30FE1AF51ULL};
static const uint64_t fold_384[2] = {0xB5EA1AF9C013ACA4ULL, 0x69A35D91C3730254ULL};
static const uint64_t fold_512[2] = {0x6AE3EFBB9DD441F3ULL, 0x081F6054A7842DF4ULL};
static const uint64_t fold_640[2] = {0x2E30203212CAC325ULL, 0x0E31D519421A63A5ULL};
static const uint64_t fold_768[2] = {0x2FE3FD2920CE82ECULL, 0xE4CE2CD55FEA0037ULL};
static const uint64_t fold_896[2] = {0x9E735CB59B4724DAULL, 0x947874DE595052CBULL};
static const uint64_t fold_1024[2] = {0x8757D71D4FCC1000ULL, 0xD7D86B2AF73DE740ULL};
static const uint64_t fold_2048[2] = {0x8260ADF2381AD81CULL, 0xF31FD9271E228B79ULL};

/* Below this many bytes the table path is faster than setting up the lanes. */
#define CLMUL_MINIMUM 256

__attribute__((target("pclmul,sse4.1"))) static inline __m128i
fold(__m128i lane, __m128i constants) {
    return _mm_xor_si128(_mm_clmulepi64_si128(lane, constants, 0x00), _mm_clmulepi64_si128(lane, constants, 0x11));
}

__attribute__((target("pclmul,sse4.1"))) static inline __m128i
load_constants(const uint64_t pair[2]) {
    return _mm_loadu_si128((const __m128i *)(const void *)pair);
}

__attribute__((target("pclmul,sse4.1"))) static inline __m128i
load(const uint8_t *bytes) {
    return _mm_loadu_si128((const __m128i *)(const void *)bytes);
}

/* Folds eight lanes into one and finishes the CRC of the whole message with the tables. */
__attribute__((target("pclmul,sse4.1"))) static uint64_t
finish_lanes(__m128i lanes[8], const uint8_t *next, size_t count) {
    __m128i result = lanes[7];
    result = _mm_xor_si128(result, fold(lanes[0], load_constants(fold_896)));
    result = _mm_xor_si128(result, fold(lanes[1], load_constants(fold_768)));
    result = _mm_xor_si128(result, fold(lanes[2], load_constants(fold_640)));
    result = _mm_xor_si128(result, fold(lanes[3], load_constants(fold_512)));
    result = _mm_xor_si128(result, fold(lanes[4], load_constants(fold_384)));
    result = _mm_xor_si128(result, fold(lanes[5], load_constants(fold_256)));
    result = _mm_xor_si128(result, fold(lanes[6], load_constants(fold_128)));
    const __m128i by128 = load_constants(fold_128);
    while (count >= 16) {
        result = _mm_xor_si128(fold(result, by128), load(next));
        next += 16;
        count -= 16;
    }
    uint8_t remainder[16];
    _mm_storeu_si128((__m128i *)(void *)remainder, result);
    return update_raw_table(update_raw_table(0, remainder, 16), next, count);
}

/* Raw register over `count` >= 128 bytes, eight 128-bit lanes at a time. */
__attribute__((target("pclmul,sse4.1"))) static uint64_t
update_raw_clmul(uint64_t crc, const uint8_t *next, size_t count) {
    __m128i lanes[8];
    for (int lane = 0; lane < 8; lane++) lanes[lane] = load(next + 16 * lane);
    /* The register's bits are the first 64 message bits' coefficients: XOR it into the first lane. */
    lanes[0] = _mm_xor_si128(lanes[0], _mm_cvtsi64_si128((long long)crc));
    next += 128;
    count -= 128;
    const __m128i by1024 = load_constants(fold_1024);
    while (count >= 128) {
        for (int lane = 0; lane < 8; lane++) {
            lanes[lane] = _mm_xor_si128(fold(lanes[lane], by1024), load(next + 16 * lane));
        }
        next += 128;
        count -= 128;
    }
    return finish_lanes(lanes, next, count);
}

/* The same with four 512-bit lanes (256 bytes a round), for CPUs with AVX-512 and VPCLMULQDQ. */
__attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.1"))) static uint64_t
update_raw_vpclmul(uint64_t crc, const uint8_t *next, size_t count) {
    __m512i lanes[4];
    for (int lane = 0; lane < 4; lane++) lanes[lane] = _mm512_loadu_si512((const void *)(next + 64 * lane));
    lanes[0] = _mm512_xor_si512(lanes[0], _mm512_zextsi128_si512(_mm_cvtsi64_si128((long long)crc)));
    next += 256;
    count -= 256;
    const __m512i by2048 = _mm512_broadcast_i32x4(load_constants(fold_2048));
    while (count >= 256) {
        for (int lane = 0; lane < 4; lane++) {
            __m512i folded = _mm512_xor_si512(
                _mm512_clmulepi64_epi128(lanes[lane], by2048, 0x00),
                _mm512_clmulepi64_epi128(lanes[lane], by2048, 0x11)
            );
            lanes[lane] = _mm512_xor_si512(folded, _mm512_loadu_si512((const void *)(next + 64 * lane)));
        }
        next += 256;
        count -= 256;
    }
    /* Sixteen 128-bit lanes in message order; fold them pairwise down to eight, 1024 bits apart. */
    __m128i narrow[16];
    for (int lane = 0; lane < 4; lane++) {
        narrow[4 * lane] = _mm512_extracti32x4_epi32(lanes[lane], 0);
        narrow[4 * lane + 1] = _mm512_extracti32x4_epi32(lanes[lane], 1);
        narrow[4 * lane + 2] = _mm512_extracti32x4_epi32(lanes[lane], 2);
        narrow[4 * lane + 3] = _mm512_extracti32x4_epi32(lanes[lane], 3);
    }
    const __m128i by1024 = load_constants(fold_1024);
    __m128i eight[8];
    for (int lane = 0; lane < 8; lane++) {
        eight[lane] = _mm_xor_si128(fold(narrow[lane], by1024), narrow[lane + 8]);
    }
    /* Up to 255 bytes remain: whole 128-byte rounds continue in the 128-bit lanes. */
    while (count >= 128) {
        for (int lane = 0; lane < 8; lane++) {
            eight[lane] = _mm_xor_si128(fold(eight[lane], by1024), load(next + 16 * lane));
        }
        next += 128;
        count -= 128;
    }
    return finish_lanes(eight, next, count);
}

static COSCRC64_implementation best_implementation;
static pthread_once_t implementation_once = PTHREAD_ONCE_INIT;

static void choose_implementation(void) {
    build_tables();
    best_implementation = COSCRC64_PORTABLE;
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return;
    const unsigned pclmul = 1u << 1, sse41 = 1u << 19, osxsave = 1u << 27;
    if ((ecx & pclmul) == 0 || (ecx & sse41) == 0) return;
    best_implementation = COSCRC64_CLMUL;
    if ((ecx & osxsave) == 0) return;
    unsigned xcr0Low, xcr0High;
    __asm__("xgetbv" : "=a"(xcr0Low), "=d"(xcr0High) : "c"(0));
    /* The OS must save SSE, AVX and the three AVX-512 register states (XCR0 bits 1, 2, 5, 6, 7). */
    if ((xcr0Low & 0xE6) != 0xE6) return;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return;
    const unsigned avx512f = 1u << 16, vpclmulqdq = 1u << 10;
    if ((ebx & avx512f) != 0 && (ecx & vpclmulqdq) != 0) best_implementation = COSCRC64_VPCLMUL;
}

COSCRC64_implementation COSCRC64_best_implementation(void) {
    pthread_once(&implementation_once, choose_implementation);
    return best_implementation;
}

uint64_t COSCRC64_update_using(COSCRC64_implementation requested, uint64_t crc, const void *bytes, size_t count) {
    COSCRC64_implementation best = COSCRC64_best_implementation();
    COSCRC64_implementation chosen = requested < best ? requested : best;
    uint64_t raw = ~crc;
    if (chosen == COSCRC64_VPCLMUL && count >= 2 * CLMUL_MINIMUM) {
        raw = update_raw_vpclmul(raw, (const uint8_t *)bytes, count);
    } else if (chosen >= COSCRC64_CLMUL && count >= CLMUL_MINIMUM) {
        raw = update_raw_clmul(raw, (const uint8_t *)bytes, count);
    } else {
        raw = update_raw_table(raw, (const uint8_t *)bytes, count);
    }
    return ~raw;
}

#else

COSCRC64_implementation COSCRC64_best_implementation(void) { return COSCRC64_PORTABLE; }

uint64_t COSCRC64_update_using(COSCRC64_implementation requested, uint64_t crc, const void *bytes, size_t count) {
    (void)requested;
    return COSCRC64_update_portable(crc, bytes, count);
}

#endif

uint64_t COSCRC64_update(uint64_t crc, const void *bytes, size_t count) {
    return COSCRC64_update_using(COSCRC64_VPCLMUL, crc, bytes, count);
}

int COSCRC64_is_accelerated(void) { return COSCRC64_best_implementation() != COSCRC64_PORTABLE; }

// MARK: - Combine

/*
 * crc(A || B) = crc(A) * x^(8 * len(B)) mod P XOR crc(B): the all-ones initial value and final XOR
 * cancel because they are equal. x^(8 * n) is the product of x^(2^k) for the bits k of 8n, taken
 * from a table of 64 squarings built once, so a combine costs O(log n) 64-bit modular products.
 */

/* a * b mod P, both in the reflected domain. */
static uint64_t multiply_modulo(uint64_t a, uint64_t b) {
    uint64_t product = 0;
    for (uint64_t mask = 1ULL << 63; a != 0; mask >>= 1) {
        if (a & mask) {
            product ^= b;
            a ^= mask;
        }
        b = (b & 1) ? (b >> 1) ^ POLY_REFLECTED : b >> 1;
    }
    return product;
}

/* power_of_two[k] = x^(2^k) mod P, for k = 0...66 (8 * lengthB needs up to 2^66). */
static uint64_t power_of_two[67];
static pthread_once_t power_once = PTHREAD_ONCE_INIT;

static void build_powers(void) {
    uint64_t power = 1ULL << 62; /* x^1 */
    for (int k = 0; k < 67; k++) {
        power_of_two[k] = power;
        power = multiply_modulo(power, power);
    }
}

uint64_t COSCRC64_combine(uint64_t crcA, uint64_t crcB, uint64_t lengthB) {
    if (lengthB == 0) return crcA ^ crcB;
    pthread_once(&power_once, build_powers);
    /* x^(8 * lengthB) = x^(lengthB * 2^3): bit j of lengthB selects x^(2^(j + 3)). */
    for (int bit = 0; lengthB != 0; bit++, lengthB >>= 1) {
        if (lengthB & 1) crcA = multiply_modulo(power_of_two[bit + 3], crcA);
    }
    return crcA ^ crcB;
}
