//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Declarations only; the definitions are in the main package's CObjectStorageCRC.
#include "CBenchmarkCRC.h"
