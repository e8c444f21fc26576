//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageSystem
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Direct I/O flag")
struct DirectIOFlagTests {
    /// The flag comes from the C library, not a table of ours: on Linux it is the kernel's `O_DIRECT` for the
    /// architecture (asm-generic and x86 use octal 040000; arm64 and arm use 0200000).
    @Test func isTheKernelsODirect() {
        #if os(Linux) && arch(x86_64)
        #expect(COSSystem_direct_io_flag() == 0o40000)
        #elseif os(Linux) && (arch(arm64) || arch(arm))
        #expect(COSSystem_direct_io_flag() == 0o200000)
        #elseif os(Linux)
        #expect(COSSystem_direct_io_flag() != 0)
        #else
        #expect(COSSystem_direct_io_flag() == 0)
        #endif
    }

    /// A file opened with the flag reports it back, so `open` took it as direct I/O (where the temporary
    /// directory's file system has direct I/O at all).
    @Test func openKeepsTheFlag() throws {
        #if os(Linux)
        let flag = COSSystem_direct_io_flag()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("direct-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("file").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flag, 0o644)
        if descriptor < 0, errno == EINVAL { return }  // A file system without direct I/O (tmpfs) refuses it so.
        try #require(descriptor >= 0, "open with O_DIRECT failed: errno \(errno)")
        defer { close(descriptor) }
        #expect(fcntl(descriptor, F_GETFL) & flag == flag)
        #endif
    }
}
