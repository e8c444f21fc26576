//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <fcntl.h>

#include "CObjectStorageSystem.h"

int COSSystem_direct_io_flag(void) {
#ifdef O_DIRECT
    return O_DIRECT;
#else
    return 0;
#endif
}
