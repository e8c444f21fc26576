//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef C_OBJECT_STORAGE_SYSTEM_H
#define C_OBJECT_STORAGE_SYSTEM_H

/// The `open` flag for direct I/O (`O_DIRECT`: transfers between the caller's buffer and the disk, past
/// the page cache), or 0 where the platform has none. Swift's Glibc module does not import `O_DIRECT`,
/// which needs `_GNU_SOURCE`, and its value differs between architectures; this returns the C library's
/// own definition.
int COSSystem_direct_io_flag(void);

/// Makes a pipe whose two ends are closed on `exec`, atomically where the C library has `pipe2` (Linux), so that
/// no program another thread spawns meanwhile inherits an end; elsewhere `pipe`, then `fcntl` on each end.
///
/// - Returns: 0, or -1 with `errno` set.
int COSSystem_pipe_closed_on_exec(int ends[2]);

/// Adds to `actions` (a `posix_spawn_file_actions_t *`) the closing, in the child, of every descriptor from
/// `lowest` up, so a spawned program inherits only what the file actions before it give (its standard streams).
///
/// - Returns: 0; `ENOSYS` where the C library has no such action (glibc before 2.34, musl, Darwin, whose
///   `POSIX_SPAWN_CLOEXEC_DEFAULT` does the same); or the action's own error.
int COSSystem_spawn_close_from(void *actions, int lowest);

#endif
