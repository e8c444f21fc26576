//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef C_OBJECT_STORAGE_DIRECT_IO_H
#define C_OBJECT_STORAGE_DIRECT_IO_H

/// The `open` flag for direct I/O (`O_DIRECT`: transfers between the caller's buffer and the disk, past
/// the page cache), or 0 where the platform has none. Swift's Glibc module does not import `O_DIRECT`,
/// which needs `_GNU_SOURCE`, and its value differs between architectures; this returns the C library's
/// own definition.
int COSDirectIO_open_flag(void);

#endif
