//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef C_BENCHMARK_CRC_H
#define C_BENCHMARK_CRC_H

// The main package's CRC header, by relative path: CObjectStorageCRC is a target, not a product, so
// this package cannot import it, but its symbols are linked in through ObjectStorageSigning.
#include "../../../../Sources/CObjectStorageCRC/include/CObjectStorageCRC.h"

#endif
