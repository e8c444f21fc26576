//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// MD5 (RFC 1321) for up to four messages at once. MD5's 64 steps form one dependency chain per
// message, so a single message cannot use SIMD; four independent messages can, one per 32-bit lane
// of a 128-bit register, for about the cost of one. Three implementations of the four-lane kernel:
// - portable: the scalar compression function, lane after lane;
// - x86_64 SSE2 (baseline): F, G, H, I from and/or/xor, rotates from two shifts;
// - x86_64 AVX-512VL on 128-bit registers: one vpternlogd for each of F, G, H, I and vprold for
//   the rotates, chosen once at run time with CPUID/XGETBV where the CPU and OS support it. No
//   compiler flags are needed (function-level target attributes only).

#include "CObjectStorageMD5.h"

#include <string.h>

/*
 * The 64 steps: STEP(function, a, b, c, d, k, s, t) is
 *     a = b + ((a + function(b, c, d) + X[k] + t) <<< s)
 * with the register roles rotating each step, the message word order of each round, the shift
 * amounts and t = floor(abs(sin(i + 1)) * 2^32), all as in RFC 1321 section 3.4.
 */
#define MD5_STEPS \
    STEP(F, a, b, c, d,  0,  7, 0xD76AA478) \
    STEP(F, d, a, b, c,  1, 12, 0xE8C7B756) \
    STEP(F, c, d, a, b,  2, 17, 0x242070DB) \
    STEP(F, b, c, d, a,  3, 22, 0xC1BDCEEE) \
    STEP(F, a, b, c, d,  4,  7, 0xF57C0FAF) \
    STEP(F, d, a, b, c,  5, 12, 0x4787C62A) \
    STEP(F, c, d, a, b,  6, 17, 0xA8304613) \
    STEP(F, b, c, d, a,  7, 22, 0xFD469501) \
    STEP(F, a, b, c, d,  8,  7, 0x698098D8) \
    STEP(F, d, a, b, c,  9, 12, 0x8B44F7AF) \
    STEP(F, c, d, a, b, 10, 17, 0xFFFF5BB1) \
    STEP(F, b, c, d, a, 11, 22, 0x895CD7BE) \
    STEP(F, a, b, c, d, 12,  7, 0x6B901122) \
    STEP(F, d, a, b, c, 13, 12, 0xFD987193) \
    STEP(F, c, d, a, b, 14, 17, 0xA679438E) \
    STEP(F, b, c, d, a, 15, 22, 0x49B40821) \
    STEP(G, a, b, c, d,  1,  5, 0xF61E2562) \
    STEP(G, d, a, b, c,  6,  9, 0xC040B340) \
    STEP(G, c, d, a, b, 11, 14, 0x265E5A51) \
    STEP(G, b, c, d, a,  0, 20, 0xE9B6C7AA) \
    STEP(G, a, b, c, d,  5,  5, 0xD62F105D) \
    STEP(G, d, a, b, c, 10,  9, 0x02441453) \
    STEP(G, c, d, a, b, 15, 14, 0xD8A1E681) \
    STEP(G, b, c, d, a,  4, 20, 0xE7D3FBC8) \
    STEP(G, a, b, c, d,  9,  5, 0x21E1CDE6) \
    STEP(G, d, a, b, c, 14,  9, 0xC33707D6) \
    STEP(G, c, d, a, b,  3, 14, 0xF4D50D87) \
    STEP(G, b, c, d, a,  8, 20, 0x455A14ED) \
    STEP(G, a, b, c, d, 13,  5, 0xA9E3E905) \
    STEP(G, d, a, b, c,  2,  9, 0xFCEFA3F8) \
    STEP(G, c, d, a, b,  7, 14, 0x676F02D9) \
    STEP(G, b, c, d, a, 12, 20, 0x8D2A4C8A) \
    STEP(H, a, b, c, d,  5,  4, 0xFFFA3942) \
    STEP(H, d, a, b, c,  8, 11, 0x8771F681) \
    STEP(H, c, d, a, b, 11, 16, 0x6D9D6122) \
    STEP(H, b, c, d, a, 14, 23, 0xFDE5380C) \
    STEP(H, a, b, c, d,  1,  4, 0xA4BEEA44) \
    STEP(H, d, a, b, c,  4, 11, 0x4BDECFA9) \
    STEP(H, c, d, a, b,  7, 16, 0xF6BB4B60) \
    STEP(H, b, c, d, a, 10, 23, 0xBEBFBC70) \
    STEP(H, a, b, c, d, 13,  4, 0x289B7EC6) \
    STEP(H, d, a, b, c,  0, 11, 0xEAA127FA) \
    STEP(H, c, d, a, b,  3, 16, 0xD4EF3085) \
    STEP(H, b, c, d, a,  6, 23, 0x04881D05) \
    STEP(H, a, b, c, d,  9,  4, 0xD9D4D039) \
    STEP(H, d, a, b, c, 12, 11, 0xE6DB99E5) \
    STEP(H, c, d, a, b, 15, 16, 0x1FA27CF8) \
    STEP(H, b, c, d, a,  2, 23, 0xC4AC5665) \
    STEP(I, a, b, c, d,  0,  6, 0xF4292244) \
    STEP(I, d, a, b, c,  7, 10, 0x432AFF97) \
    STEP(I, c, d, a, b, 14, 15, 0xAB9423A7) \
    STEP(I, b, c, d, a,  5, 21, 0xFC93A039) \
    STEP(I, a, b, c, d, 12,  6, 0x655B59C3) \
    STEP(I, d, a, b, c,  3, 10, 0x8F0CCC92) \
    STEP(I, c, d, a, b, 10, 15, 0xFFEFF47D) \
    STEP(I, b, c, d, a,  1, 21, 0x85845DD1) \
    STEP(I, a, b, c, d,  8,  6, 0x6FA87E4F) \
    STEP(I, d, a, b, c, 15, 10, 0xFE2CE6E0) \
    STEP(I, c, d, a, b,  6, 15, 0xA3014314) \
    STEP(I, b, c, d, a, 13, 21, 0x4E0811A1) \
    STEP(I, a, b, c, d,  4,  6, 0xF7537E82) \
    STEP(I, d, a, b, c, 11, 10, 0xBD3AF235) \
    STEP(I, c, d, a, b,  2, 15, 0x2AD7D2BB) \
    STEP(I, b, c, d, a,  9, 21, 0xEB86D391)

/*
 * Only F(b, c, d) depends on the previous step's result (b), so a + X[k] + t should be summed while
 * that step runs, leaving function, add, rotate, add on the chain. Compilers reassociate the adds
 * and put the constant after the function; an empty asm that "changes" the partial sum pins the
 * order (it emits no instruction).
 */
#if defined(__GNUC__) || defined(__clang__)
#define KEEP_SCALAR(value) __asm__("" : "+r"(value))
#define KEEP_VECTOR(value) __asm__("" : "+x"(value))
#else
#define KEEP_SCALAR(value) (void)0
#define KEEP_VECTOR(value) (void)0
#endif

static void load_words(uint32_t x[16], const uint8_t *block) {
    for (int k = 0; k < 16; k++) {
        const uint8_t *p = block + 4 * k;
        x[k] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

// MARK: - Portable

void COSMD5_init(uint32_t state[4]) {
    state[0] = 0x67452301;
    state[1] = 0xEFCDAB89;
    state[2] = 0x98BADCFE;
    state[3] = 0x10325476;
}

#define SCALAR_F(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define SCALAR_G(b, c, d) ((c) ^ ((d) & ((b) ^ (c))))
#define SCALAR_H(b, c, d) ((b) ^ (c) ^ (d))
#define SCALAR_I(b, c, d) ((c) ^ ((b) | ~(d)))
#define STEP(function, a, b, c, d, k, s, t)   \
    a += x[k] + (uint32_t)t;                   \
    KEEP_SCALAR(a);                            \
    a += SCALAR_##function(b, c, d);           \
    a = ((a << s) | (a >> (32 - s))) + b;

void COSMD5_blocks(uint32_t state[4], const uint8_t *data, size_t blocks) {
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    for (; blocks > 0; blocks--, data += 64) {
        uint32_t x[16];
        load_words(x, data);
        const uint32_t a0 = a, b0 = b, c0 = c, d0 = d;
        MD5_STEPS
        a += a0;
        b += b0;
        c += c0;
        d += d0;
    }
    state[0] = a;
    state[1] = b;
    state[2] = c;
    state[3] = d;
}

#undef STEP

static void blocks_x4_portable(uint32_t *const state[4], const uint8_t *const data[4], size_t blocks) {
    for (int lane = 0; lane < 4; lane++) {
        if (data[lane] != NULL) COSMD5_blocks(state[lane], data[lane], blocks);
    }
}

void COSMD5_final(uint32_t state[4], const uint8_t *tail, size_t tailCount, uint64_t length, uint8_t digest[16]) {
    uint8_t block[128];
    memset(block, 0, sizeof block);
    if (tailCount > 63) tailCount = 63;
    if (tailCount > 0) memcpy(block, tail, tailCount);
    block[tailCount] = 0x80;
    /* The bit length (modulo 2^64) goes in the last eight bytes, little-endian, after at least one
       padding byte: a second block when the tail leaves fewer than nine bytes. */
    const size_t total = tailCount + 9 <= 64 ? 64 : 128;
    const uint64_t bits = length << 3;
    for (int i = 0; i < 8; i++) block[total - 8 + i] = (uint8_t)(bits >> (8 * i));
    COSMD5_blocks(state, block, total / 64);
    for (int word = 0; word < 4; word++) {
        for (int i = 0; i < 4; i++) digest[4 * word + i] = (uint8_t)(state[word] >> (8 * i));
    }
}

// MARK: - x86_64 four lanes

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <cpuid.h>
#include <immintrin.h>
#include <pthread.h>

/* What a NULL lane reads: it is hashed along with the others and its result thrown away. */
static const uint8_t idle_block[64];

/* The lanes' pointers and how far each advances per block (0 for an idle lane). */
typedef struct {
    const uint8_t *next[4];
    size_t stride[4];
    uint32_t scratch[4][4];
    uint32_t *state[4];
} lanes;

static void prepare(lanes *l, uint32_t *const state[4], const uint8_t *const data[4]) {
    for (int lane = 0; lane < 4; lane++) {
        const int active = data[lane] != NULL;
        l->next[lane] = active ? data[lane] : idle_block;
        l->stride[lane] = active ? 64 : 0;
        l->state[lane] = active ? state[lane] : l->scratch[lane];
        if (!active) memset(l->scratch[lane], 0, sizeof l->scratch[lane]);
    }
}

/* Word `word` of the four lanes' states, lane i in element i. */
__attribute__((target("sse2"))) static inline __m128i gather_state(const lanes *l, int word) {
    return _mm_set_epi32(
        (int)l->state[3][word], (int)l->state[2][word], (int)l->state[1][word], (int)l->state[0][word]
    );
}

__attribute__((target("sse2"))) static inline void scatter_state(lanes *l, int word, __m128i value) {
    uint32_t words[4];
    _mm_storeu_si128((__m128i *)(void *)words, value);
    for (int lane = 0; lane < 4; lane++) l->state[lane][word] = words[lane];
}

/* Loads the 16 message words of the current block of each lane, transposed so that x[k] holds word
   k of lane i in element i: four 4x4 transposes with unpacks. */
__attribute__((target("sse2"))) static inline void load_transposed(__m128i x[16], const lanes *l) {
    for (int group = 0; group < 4; group++) {
        const __m128i r0 = _mm_loadu_si128((const __m128i *)(const void *)(l->next[0] + 16 * group));
        const __m128i r1 = _mm_loadu_si128((const __m128i *)(const void *)(l->next[1] + 16 * group));
        const __m128i r2 = _mm_loadu_si128((const __m128i *)(const void *)(l->next[2] + 16 * group));
        const __m128i r3 = _mm_loadu_si128((const __m128i *)(const void *)(l->next[3] + 16 * group));
        const __m128i low01 = _mm_unpacklo_epi32(r0, r1);  /* r0w0 r1w0 r0w1 r1w1 */
        const __m128i high01 = _mm_unpackhi_epi32(r0, r1); /* r0w2 r1w2 r0w3 r1w3 */
        const __m128i low23 = _mm_unpacklo_epi32(r2, r3);
        const __m128i high23 = _mm_unpackhi_epi32(r2, r3);
        x[4 * group] = _mm_unpacklo_epi64(low01, low23);
        x[4 * group + 1] = _mm_unpackhi_epi64(low01, low23);
        x[4 * group + 2] = _mm_unpacklo_epi64(high01, high23);
        x[4 * group + 3] = _mm_unpackhi_epi64(high01, high23);
    }
}

static inline void advance(lanes *l) {
    for (int lane = 0; lane < 4; lane++) l->next[lane] += l->stride[lane];
}

/* A four-lane kernel's body: the states gathered into vectors, MD5_STEPS over each block (with the
   STEP its kernel defines, expanded where the body is used), the states scattered back. */
#define BLOCKS_X4_BODY                                                                                           \
    lanes l;                                                                                                     \
    prepare(&l, state, data);                                                                                    \
    __m128i a = gather_state(&l, 0), b = gather_state(&l, 1), c = gather_state(&l, 2), d = gather_state(&l, 3);  \
    for (; blocks > 0; blocks--, advance(&l)) {                                                                  \
        __m128i x[16];                                                                                           \
        load_transposed(x, &l);                                                                                  \
        const __m128i a0 = a, b0 = b, c0 = c, d0 = d;                                                            \
        MD5_STEPS                                                                                                \
        a = _mm_add_epi32(a, a0);                                                                                \
        b = _mm_add_epi32(b, b0);                                                                                \
        c = _mm_add_epi32(c, c0);                                                                                \
        d = _mm_add_epi32(d, d0);                                                                                \
    }                                                                                                            \
    scatter_state(&l, 0, a);                                                                                     \
    scatter_state(&l, 1, b);                                                                                     \
    scatter_state(&l, 2, c);                                                                                     \
    scatter_state(&l, 3, d);

#define SSE2_F(b, c, d) _mm_xor_si128(d, _mm_and_si128(b, _mm_xor_si128(c, d)))
#define SSE2_G(b, c, d) _mm_xor_si128(c, _mm_and_si128(d, _mm_xor_si128(b, c)))
#define SSE2_H(b, c, d) _mm_xor_si128(_mm_xor_si128(b, c), d)
#define SSE2_I(b, c, d) _mm_xor_si128(c, _mm_or_si128(b, _mm_xor_si128(d, ones)))
#define STEP(function, a, b, c, d, k, s, t)                                                       \
    a = _mm_add_epi32(a, _mm_add_epi32(x[k], _mm_set1_epi32((int)(uint32_t)t)));                  \
    KEEP_VECTOR(a);                                                                                \
    a = _mm_add_epi32(a, SSE2_##function(b, c, d));                                                \
    a = _mm_add_epi32(_mm_or_si128(_mm_slli_epi32(a, s), _mm_srli_epi32(a, 32 - s)), b);

__attribute__((target("sse2"))) static void
blocks_x4_sse2(uint32_t *const state[4], const uint8_t *const data[4], size_t blocks) {
    const __m128i ones = _mm_set1_epi32(-1);
    BLOCKS_X4_BODY
}

#undef STEP

/* vpternlogd truth tables over (b, c, d) = (0xF0, 0xCC, 0xAA):
   F = (b & c) | (~b & d) = 0xCA, G = (b & d) | (c & ~d) = 0xE4, H = b ^ c ^ d = 0x96,
   I = c ^ (b | ~d) = 0x39. */
/* "v": any of the 32 AVX-512 vector registers. */
#define KEEP_AVX512(value) __asm__("" : "+v"(value))
#define TERNARY_F 0xCA
#define TERNARY_G 0xE4
#define TERNARY_H 0x96
#define TERNARY_I 0x39
#define STEP(function, a, b, c, d, k, s, t)                                                       \
    a = _mm_add_epi32(a, _mm_add_epi32(x[k], _mm_set1_epi32((int)(uint32_t)t)));                  \
    KEEP_AVX512(a);                                                                                \
    a = _mm_add_epi32(a, _mm_ternarylogic_epi32(b, c, d, TERNARY_##function));                    \
    a = _mm_add_epi32(_mm_rol_epi32(a, s), b);

__attribute__((target("avx512f,avx512vl"))) static void
blocks_x4_avx512(uint32_t *const state[4], const uint8_t *const data[4], size_t blocks) {
    BLOCKS_X4_BODY
}

#undef STEP

static COSMD5_implementation best_implementation = COSMD5_SSE2;
static pthread_once_t implementation_once = PTHREAD_ONCE_INIT;

static void choose_implementation(void) {
    best_implementation = COSMD5_SSE2;
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return;
    const unsigned osxsave = 1u << 27;
    if ((ecx & osxsave) == 0) return;
    unsigned xcr0Low, xcr0High;
    __asm__("xgetbv" : "=a"(xcr0Low), "=d"(xcr0High) : "c"(0));
    /* The OS must save SSE, AVX and the three AVX-512 register states (XCR0 bits 1, 2, 5, 6, 7). */
    if ((xcr0Low & 0xE6) != 0xE6) return;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return;
    const unsigned avx512f = 1u << 16, avx512vl = 1u << 31;
    if ((ebx & avx512f) != 0 && (ebx & avx512vl) != 0) best_implementation = COSMD5_AVX512;
}

COSMD5_implementation COSMD5_best_implementation(void) {
    pthread_once(&implementation_once, choose_implementation);
    return best_implementation;
}

void COSMD5_blocks_x4_using(
    COSMD5_implementation requested,
    uint32_t *const state[4],
    const uint8_t *const data[4],
    size_t blocks
) {
    const COSMD5_implementation best = COSMD5_best_implementation();
    const COSMD5_implementation chosen = requested < best ? requested : best;
    switch (chosen) {
    case COSMD5_AVX512: blocks_x4_avx512(state, data, blocks); break;
    case COSMD5_SSE2: blocks_x4_sse2(state, data, blocks); break;
    default: blocks_x4_portable(state, data, blocks); break;
    }
}

#else

COSMD5_implementation COSMD5_best_implementation(void) { return COSMD5_PORTABLE; }

void COSMD5_blocks_x4_using(
    COSMD5_implementation requested,
    uint32_t *const state[4],
    const uint8_t *const data[4],
    size_t blocks
) {
    (void)requested;
    blocks_x4_portable(state, data, blocks);
}

#endif

int COSMD5_is_optimized(void) {
#if defined(__OPTIMIZE__)
    return 1;
#else
    return 0;
#endif
}

void COSMD5_blocks_x4(uint32_t *const state[4], const uint8_t *const data[4], size_t blocks) {
    COSMD5_blocks_x4_using(COSMD5_AVX512, state, data, blocks);
}
