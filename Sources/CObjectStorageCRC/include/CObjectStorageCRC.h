//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef C_OBJECT_STORAGE_CRC_H
#define C_OBJECT_STORAGE_CRC_H

#include <stddef.h>
#include <stdint.h>

/// The CRC-64s, which differ only in their polynomial. Values are stable ABI.
typedef enum {
    /// CRC-64/XZ: "CRC64-ECMA" in OSS and OBS (`x-oss-hash-crc64ecma`).
    COSCRC64_XZ = 0,
    /// CRC-64/NVME: S3's `CRC64NVME` (`x-amz-checksum-crc64nvme`).
    COSCRC64_NVME = 1,
} COSCRC64_polynomial;

/// Continues a CRC-64 over `count` bytes.
/// `crc` is the finalized value of the bytes so far (0 for none); returns the finalized value
/// including `bytes`. Uses carry-less multiplication where the CPU has it.
uint64_t COSCRC64_update(COSCRC64_polynomial polynomial, uint64_t crc, const void *bytes, size_t count);

/// The portable table-driven implementation, exposed so tests can compare the two paths.
uint64_t COSCRC64_update_portable(COSCRC64_polynomial polynomial, uint64_t crc, const void *bytes, size_t count);

/// Combines crc(A) and crc(B) into crc(A || B), given the length of B in bytes.
uint64_t COSCRC64_combine(COSCRC64_polynomial polynomial, uint64_t crcA, uint64_t crcB, uint64_t lengthB);

/// 1 when the accelerated path is in use on this CPU.
int COSCRC64_is_accelerated(void);

/// The implementations of `COSCRC64_update`, fastest last. Values are stable ABI.
typedef enum {
    /// Slicing-by-8 tables, on every CPU.
    COSCRC64_PORTABLE = 0,
    /// PCLMULQDQ folding eight 128-bit lanes (x86_64).
    COSCRC64_CLMUL = 1,
    /// VPCLMULQDQ folding four 512-bit lanes (x86_64 with AVX-512).
    COSCRC64_VPCLMUL = 2,
} COSCRC64_implementation;

/// The fastest implementation this CPU and OS support, detected once at run time.
COSCRC64_implementation COSCRC64_best_implementation(void);

/// `COSCRC64_update` restricted to `implementation` or, when this CPU lacks it, the fastest one it
/// has below it. For tests and benchmarks that compare the paths.
uint64_t COSCRC64_update_using(
    COSCRC64_implementation implementation,
    COSCRC64_polynomial polynomial,
    uint64_t crc,
    const void *bytes,
    size_t count
);

#endif
