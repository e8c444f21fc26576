//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef C_OBJECT_STORAGE_MD5_H
#define C_OBJECT_STORAGE_MD5_H

#include <stddef.h>
#include <stdint.h>

/// The MD5 compression function (RFC 1321) over whole 64-byte blocks, for up to four independent
/// messages at once: the four "lanes" run in lock-step in one SIMD register each for A, B, C and D,
/// so four streams cost little more than one. A lane's state is four words { A, B, C, D }; start
/// from `COSMD5_init` and end with `COSMD5_final`.

/// Sets `state` to MD5's initial value.
void COSMD5_init(uint32_t state[4]);

/// Runs the compression function over `blocks` whole 64-byte blocks at `data` for one message.
void COSMD5_blocks(uint32_t state[4], const uint8_t *data, size_t blocks);

/// Runs the compression function over `blocks` whole 64-byte blocks for each of four lanes: lane `i`
/// reads `blocks * 64` bytes at `data[i]` and updates `state[i]`. A lane whose `data` is NULL is
/// left alone (its `state` may be NULL too).
void COSMD5_blocks_x4(uint32_t *const state[4], const uint8_t *const data[4], size_t blocks);

/// Finishes a message: hashes `tail` (`tailCount` < 64 bytes, the part after the last whole block)
/// with MD5's padding for a message of `length` bytes in all, and writes the 16-byte digest.
/// `state` is left undefined.
void COSMD5_final(uint32_t state[4], const uint8_t *tail, size_t tailCount, uint64_t length, uint8_t digest[16]);

/// The implementations of `COSMD5_blocks_x4`, fastest last. Values are stable ABI.
typedef enum {
    /// Plain C, one lane after the other, on every CPU.
    COSMD5_PORTABLE = 0,
    /// Four lanes in SSE2 registers (every x86_64 CPU).
    COSMD5_SSE2 = 1,
    /// Four lanes in 128-bit AVX-512VL registers: ternary logic for F, G, H, I and rotate
    /// instructions (x86_64 CPUs and OSes with AVX-512F and VL).
    COSMD5_AVX512 = 2,
} COSMD5_implementation;

/// The fastest implementation this CPU and OS support, detected once at run time.
COSMD5_implementation COSMD5_best_implementation(void);

/// Whether this file was compiled with optimization. Debug builds compile C at -O0, where the SIMD
/// kernels run several times slower than a single optimized stream (OpenSSL's), so callers choose.
int COSMD5_is_optimized(void);

/// `COSMD5_blocks_x4` restricted to `implementation` or, when this CPU lacks it, the fastest one it
/// has below it. For tests and benchmarks that compare the paths.
void COSMD5_blocks_x4_using(
    COSMD5_implementation implementation,
    uint32_t *const state[4],
    const uint8_t *const data[4],
    size_t blocks
);

#endif
