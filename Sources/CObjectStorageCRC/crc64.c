//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Two reflected CRC-64s with initial value and final XOR all ones, which differ only in their polynomial:
// - CRC-64/XZ (OSS and OBS "CRC64-ECMA"): 0x42F0E1EBA9EA3693, 0xC96C5795D7870F42 reflected; the check
//   value of "123456789" is 0x995DC9BBDF1939FA;
// - CRC-64/NVME (S3 "CRC64NVME"): 0xAD93D23594C93659, 0x9A6C9329AC4BC9B5 reflected; check value
//   0xAE8B14860A799888.
// Each has a model (tables, folding constants, powers for combining) built once from its polynomial.
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

// MARK: - Models

/* The fold distances of the carry-less path: 128 * n bits for n = 1...8, then 2048 bits. */
enum { FOLD_2048 = 8, FOLD_COUNT = 9 };

typedef struct {
    /* The reflected polynomial. */
    uint64_t poly;
    /* Slicing-by-8 tables. */
    uint64_t table[8][256];
    /* { k_low(D), k_high(D) } for each fold distance D (see "x86_64 carry-less multiplication"). */
    uint64_t fold[FOLD_COUNT][2];
    /* power_of_two[k] = x^(2^k) mod P, for k = 0...66 (combining over 8 * lengthB bits needs up to 2^66). */
    uint64_t power_of_two[67];
} crc64_model;

static crc64_model models[2];
static pthread_once_t models_once = PTHREAD_ONCE_INIT;

/* x^n mod P in the reflected domain (x^0 is 1 << 63; multiplying by x is one CRC bit step). */
static uint64_t x_to_the(uint64_t poly, unsigned n) {
    uint64_t v = 1ULL << 63;
    while (n--) v = (v >> 1) ^ ((v & 1) ? poly : 0);
    return v;
}

/* a * b mod P, both in the reflected domain. */
static uint64_t multiply_modulo(uint64_t poly, uint64_t a, uint64_t b) {
    uint64_t product = 0;
    for (uint64_t mask = 1ULL << 63; a != 0; mask >>= 1) {
        if (a & mask) {
            product ^= b;
            a ^= mask;
        }
        b = (b & 1) ? (b >> 1) ^ poly : b >> 1;
    }
    return product;
}

static void build_model(crc64_model *model, uint64_t poly) {
    model->poly = poly;
    for (int n = 0; n < 256; n++) {
        uint64_t crc = (uint64_t)n;
        for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ poly : crc >> 1;
        model->table[0][n] = crc;
    }
    for (int n = 0; n < 256; n++) {
        uint64_t crc = model->table[0][n];
        for (int k = 1; k < 8; k++) {
            crc = model->table[0][crc & 0xff] ^ (crc >> 8);
            model->table[k][n] = crc;
        }
    }
    for (int n = 0; n < FOLD_COUNT; n++) {
        unsigned distance = n == FOLD_2048 ? 2048 : 128 * (unsigned)(n + 1);
        model->fold[n][0] = x_to_the(poly, distance + 63);
        model->fold[n][1] = x_to_the(poly, distance - 1);
    }
    uint64_t power = 1ULL << 62; /* x^1 */
    for (int k = 0; k < 67; k++) {
        model->power_of_two[k] = power;
        power = multiply_modulo(poly, power, power);
    }
}

static void build_models(void) {
    build_model(&models[COSCRC64_XZ], 0xC96C5795D7870F42ULL);
    build_model(&models[COSCRC64_NVME], 0x9A6C9329AC4BC9B5ULL);
}

static const crc64_model *model_of(COSCRC64_polynomial polynomial) {
    pthread_once(&models_once, build_models);
    return &models[polynomial == COSCRC64_NVME ? COSCRC64_NVME : COSCRC64_XZ];
}

// MARK: - Portable (slicing-by-8)

/* Advances the raw register over `count` bytes. */
static uint64_t update_raw_table(const crc64_model *model, uint64_t crc, const uint8_t *next, size_t count) {
    const uint64_t(*table)[256] = model->table;
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

uint64_t COSCRC64_update_portable(COSCRC64_polynomial polynomial, uint64_t crc, const void *bytes, size_t count) {
    return ~update_raw_table(model_of(polynomial), ~crc, (const uint8_t *)bytes, count);
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
 * `build_model` computes them with `x_to_the`; for CRC-64/XZ, D = 128 gives x^191 = 0xE05DD497CA393AE4
 * and x^127 = 0xDABE95AFC7875F40. Every test comparing this path with the portable one checks them.
 *
 * The folded 128-bit remainder R satisfies crc = R * x^64 mod P, which is the raw CRC of R's 16
 * bytes from a zero register: two slicing-by-8 steps finish it, then any tail under 16 bytes.
 */

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

/* Folds the remaining whole 128-byte rounds into eight lanes, the lanes into one, and finishes the CRC of the whole
 * message with the tables. */
__attribute__((target("pclmul,sse4.1"))) static uint64_t
finish_lanes(const crc64_model *model, __m128i lanes[8], const uint8_t *next, size_t count) {
    /* Whole 128-byte rounds first, one 128-bit block into each lane. */
    const __m128i by1024 = load_constants(model->fold[7]);
    while (count >= 128) {
        for (int lane = 0; lane < 8; lane++) {
            lanes[lane] = _mm_xor_si128(fold(lanes[lane], by1024), load(next + 16 * lane));
        }
        next += 128;
        count -= 128;
    }
    __m128i result = lanes[7];
    /* Lane n is 128 * (7 - n) bits before the last one: fold[6 - n] holds that distance. */
    for (int lane = 0; lane < 7; lane++) {
        result = _mm_xor_si128(result, fold(lanes[lane], load_constants(model->fold[6 - lane])));
    }
    const __m128i by128 = load_constants(model->fold[0]);
    while (count >= 16) {
        result = _mm_xor_si128(fold(result, by128), load(next));
        next += 16;
        count -= 16;
    }
    uint8_t remainder[16];
    _mm_storeu_si128((__m128i *)(void *)remainder, result);
    return update_raw_table(model, update_raw_table(model, 0, remainder, 16), next, count);
}

/* Raw register over `count` >= 128 bytes, eight 128-bit lanes at a time. */
__attribute__((target("pclmul,sse4.1"))) static uint64_t
update_raw_clmul(const crc64_model *model, uint64_t crc, const uint8_t *next, size_t count) {
    __m128i lanes[8];
    for (int lane = 0; lane < 8; lane++) lanes[lane] = load(next + 16 * lane);
    /* The register's bits are the first 64 message bits' coefficients: XOR it into the first lane. */
    lanes[0] = _mm_xor_si128(lanes[0], _mm_cvtsi64_si128((long long)crc));
    next += 128;
    count -= 128;
    return finish_lanes(model, lanes, next, count);
}

/* The same with four 512-bit lanes (256 bytes a round), for CPUs with AVX-512 and VPCLMULQDQ. */
__attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.1"))) static uint64_t
update_raw_vpclmul(const crc64_model *model, uint64_t crc, const uint8_t *next, size_t count) {
    __m512i lanes[4];
    for (int lane = 0; lane < 4; lane++) lanes[lane] = _mm512_loadu_si512((const void *)(next + 64 * lane));
    lanes[0] = _mm512_xor_si512(lanes[0], _mm512_zextsi128_si512(_mm_cvtsi64_si128((long long)crc)));
    next += 256;
    count -= 256;
    const __m512i by2048 = _mm512_broadcast_i32x4(load_constants(model->fold[FOLD_2048]));
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
    const __m128i by1024 = load_constants(model->fold[7]);
    __m128i eight[8];
    for (int lane = 0; lane < 8; lane++) {
        eight[lane] = _mm_xor_si128(fold(narrow[lane], by1024), narrow[lane + 8]);
    }
    /* Up to 255 bytes remain: whole 128-byte rounds continue in the 128-bit lanes. */
    return finish_lanes(model, eight, next, count);
}

static COSCRC64_implementation best_implementation;
static pthread_once_t implementation_once = PTHREAD_ONCE_INIT;

static void choose_implementation(void) {
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

/* Raw register over `count` bytes with the fastest implementation the CPU has, at most `requested`. */
static uint64_t
update_raw(COSCRC64_implementation requested, const crc64_model *model, uint64_t raw, const uint8_t *next,
           size_t count) {
    COSCRC64_implementation best = COSCRC64_best_implementation();
    COSCRC64_implementation chosen = requested < best ? requested : best;
    if (chosen == COSCRC64_VPCLMUL && count >= 2 * CLMUL_MINIMUM) return update_raw_vpclmul(model, raw, next, count);
    if (chosen >= COSCRC64_CLMUL && count >= CLMUL_MINIMUM) return update_raw_clmul(model, raw, next, count);
    return update_raw_table(model, raw, next, count);
}

#else

COSCRC64_implementation COSCRC64_best_implementation(void) { return COSCRC64_PORTABLE; }

static uint64_t
update_raw(COSCRC64_implementation requested, const crc64_model *model, uint64_t raw, const uint8_t *next,
           size_t count) {
    (void)requested;
    return update_raw_table(model, raw, next, count);
}

#endif

uint64_t COSCRC64_update_using(
    COSCRC64_implementation requested,
    COSCRC64_polynomial polynomial,
    uint64_t crc,
    const void *bytes,
    size_t count
) {
    return ~update_raw(requested, model_of(polynomial), ~crc, (const uint8_t *)bytes, count);
}

uint64_t COSCRC64_update(COSCRC64_polynomial polynomial, uint64_t crc, const void *bytes, size_t count) {
    return COSCRC64_update_using(COSCRC64_VPCLMUL, polynomial, crc, bytes, count);
}

int COSCRC64_is_accelerated(void) { return COSCRC64_best_implementation() != COSCRC64_PORTABLE; }

// MARK: - Combine

/*
 * crc(A || B) = crc(A) * x^(8 * len(B)) mod P XOR crc(B): the all-ones initial value and final XOR
 * cancel because they are equal. x^(8 * n) is the product of x^(2^k) for the bits k of 8n, taken
 * from the model's table of squarings, so a combine costs O(log n) 64-bit modular products.
 */

uint64_t COSCRC64_combine(COSCRC64_polynomial polynomial, uint64_t crcA, uint64_t crcB, uint64_t lengthB) {
    if (lengthB == 0) return crcA ^ crcB;
    const crc64_model *model = model_of(polynomial);
    /* x^(8 * lengthB) = x^(lengthB * 2^3): bit j of lengthB selects x^(2^(j + 3)). */
    for (int bit = 0; lengthB != 0; bit++, lengthB >>= 1) {
        if (lengthB & 1) crcA = multiply_modulo(model->poly, model->power_of_two[bit + 3], crcA);
    }
    return crcA ^ crcB;
}
